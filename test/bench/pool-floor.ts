/**
 * What each layer of a pooled StreamPersister's sequential request/reply adds to a raw socket's (issue 32): the pool
 * bench's round trip (pool-bench.ts) against the same in-process line-echo peer, built up one layer at a time.
 *  0 raw: socketChain, a plain socket;
 *  1 message: the socket, each request and reply carried in a Message (Message.text; the reply set as its body, as
 *    the persister's storeReply does);
 *  2 xqueue: plus an XQueue hop: requestChain offers each request into an XQueue, a plain consumer (attach/take, no
 *    actor) writes it, and the reply removes it (remove), which fires requestChain's completion callback;
 *  3 actor: the same consumer as an actor (ActorContext.consume; the socket's listener through ctx.guard);
 *  4 pool: a pooled StreamPersister (requestChain into a pool handle's transmit queue), as the bench.
 * Layers 1-3 cut replies from the socket as socketChain does; the persister's own framing is part of layer 4.
 * The persister reads into the buffer the process shares (SharedReadSocket); layers 0-3 read with 'data' events, as
 * the bench's raw sockets do, unless `reads=shared` gives them the persister's way of reading too.
 * Every layer is set up once (each with its own connections, warmed by one round trip each), then timed in blocks,
 * the layers in a rotating order within each block; CPU per round trip (`process.cpuUsage`, user and system) and the
 * rate over the raw layer's in the same block are medians over blocks. With `callgrind`, two more passes follow: one
 * uncounted, then one with valgrind's counters zeroed before each layer and dumped after it, in layer order (dump .1
 * holds nothing, then one dump per layer built: .2 to .6 for layers 0 to 4). Give LL the L2 of a core of the machine
 * (here 512 KB, 8 ways, as on the Zen 3 VM of docs/benchmarks.md's pools blocks; the Zen 5 one had 1 MB, 16 ways):
 *   valgrind --tool=callgrind --dump-instr=no --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=524288,8,64 \
 *     node --predictable --max-semi-space-size=64 dist/test/bench/pool-floor.js 1 15000 1 callgrind
 * With --expose-gc each layer also prints the heap it keeps per connection.
 * `layers=0,4` builds and times only those layers (0, raw, always: the others' rates are over its own).
 * Usage: node dist/test/bench/pool-floor.js <connections> <round trips per connection and block> <blocks> [layers=…] [reads=shared] [callgrind]
 */
import net from 'node:net';
import { Message } from '../../src/message/message';
import { Taken, XQueue } from '../../src/xqueue/xqueue';
import { ActorContext, ActorRuntime } from '../../src/runtime/actor';
import { startTcpPeer } from '../unit/pools/peers';
import { ChainSide, PROBE_CAPACITY, SocketReads, connectSockets, destroyAll, pooledSide, rawSide, readChunks, requestChain, warm } from './pool-sides';
import { control } from './callgrind-control';
import { median } from './interleaved';

/** The capacity of every layer's queues: a pool handle's transmit queue in the probes (pool-sides.ts). */
const CAPACITY = PROBE_CAPACITY;

interface Layer extends ChainSide {
  readonly name: string;
}

/** socketChain's way of cutting lines from a socket's chunks: `onLine` for each. */
function lineReader(onLine: (line: string) => void): (chunk: Buffer) => void {
  let buf = '';
  return (chunk) => {
    buf += chunk.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(line);
    }
  };
}

/** The reply stored in the request's body, as storeReply does without a DataField. */
function storeLine(msg: Message, line: string): void {
  msg.body = { kind: 'text', text: line };
}

async function rawLayer(port: number, n: number, reads: SocketReads): Promise<Layer> {
  return { name: 'raw socket', ...(await rawSide(port, n, 1, reads)) };
}

/** requestChain's work with a Message per request and reply, written to and read from the socket directly. */
function messageChain(s: net.Socket, c: number, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    let inFlight: Message | undefined;
    const next = (): void => {
      if (sent >= count) return;
      inFlight = Message.text(`c${c}m${sent++}\n`);
      s.write(inFlight.bodyText() ?? '');
    };
    const onData = lineReader((line) => {
      const reply = inFlight as Message;
      storeLine(reply, line);
      if (reply.bodyText() !== `echo:c${c}m${answered}`) return reject(new Error(`wrong reply ${line}`));
      if (++answered === count) {
        stop();
        return resolve();
      }
      next();
    });
    const stop = readChunks(s, onData);
    next();
  });
}

async function messageLayer(port: number, n: number, reads: SocketReads): Promise<Layer> {
  const sockets = await connectSockets(port, n, reads);
  return { name: 'Message', chain: (c, count) => messageChain(sockets[c], c, count), stop: () => destroyAll(sockets) };
}

/**
 * Writes each request taken from `queue` to `socket`; each reply line answers the oldest written one, which is
 * stored and removed (its producer's callback fires).
 */
function replyRemover(queue: XQueue<Message>, written: Taken<Message>[]): (line: string) => void {
  return (line) => {
    const taken = written.shift();
    if (taken === undefined) throw new Error(`reply without a request: ${line}`);
    storeLine(taken.item, line);
    queue.remove(taken);
  };
}

/** A plain XQueue consumer per connection: taken at once when woken, no actor. */
async function xqueueLayer(port: number, n: number, reads: SocketReads): Promise<Layer> {
  const sockets = await connectSockets(port, n, reads);
  const queues = sockets.map((socket, c) => {
    const queue = new XQueue<Message>(`floor-${c}`, CAPACITY);
    const written: Taken<Message>[] = [];
    const handle = queue.attach('floor', () => {
      for (let t = queue.take(handle); t !== undefined; t = queue.take(handle)) {
        written.push(t);
        socket.write(t.item.bodyText() ?? '');
      }
    });
    readChunks(socket, lineReader(replyRemover(queue, written)));
    return queue;
  });
  await warm(queues);
  return { name: 'XQueue', chain: (c, count) => requestChain(queues[c], c, count, 1), stop: () => destroyAll(sockets) };
}

/** The same consumer as an actor: it consumes its queue, and its socket's listener runs guarded, as the persister's. */
async function actorLayer(port: number, n: number, reads: SocketReads): Promise<Layer> {
  const sockets = await connectSockets(port, n, reads);
  const runtime = new ActorRuntime('floor');
  const queues = sockets.map((socket, c) => {
    const queue = new XQueue<Message>(`floor-${c}`, CAPACITY);
    const written: Taken<Message>[] = [];
    const onData = lineReader(replyRemover(queue, written));
    let stopReading: (() => void) | undefined;
    runtime.spawn(`floor-${c}`, () => ({
      start(ctx: ActorContext<never>): void {
        stopReading = readChunks(socket, ctx.guard(onData));
        ctx.consume(queue, (taken) => {
          written.push(taken);
          socket.write(taken.item.bodyText() ?? '');
        });
      },
      stop(): void {
        stopReading?.();
      },
    }));
    return queue;
  });
  await warm(queues);
  return {
    name: 'actor',
    chain: (c, count) => requestChain(queues[c], c, count, 1),
    stop: async () => {
      await runtime.stop();
      await destroyAll(sockets);
    },
  };
}

async function poolLayer(port: number, n: number): Promise<Layer> {
  return { name: 'pooled StreamPersister', ...(await pooledSide(port, n)) };
}

interface Sample {
  user: number;
  system: number;
  /** Round trips per second of wall-clock time. */
  rate: number;
}

/** Heap used after a full collection (NaN without --expose-gc). */
function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return NaN;
  gc();
  return process.memoryUsage().heapUsed;
}

/** Times one block of `layer`: `per` round trips on each of `n` connections; CPU µs per round trip, and the rate. */
async function block(layer: Layer, n: number, per: number): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: n }, (_, c) => layer.chain(c, per)));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const trips = n * per;
  return { user: cpu.user / trips, system: cpu.system / trips, rate: trips / seconds };
}

async function main(): Promise<void> {
  const [nArg, perArg, blocksArg, ...flags] = process.argv.slice(2);
  const counting = flags.includes('callgrind') ? 'callgrind' : undefined;
  const only = flags.find((f) => f.startsWith('layers='));
  const reads: SocketReads = flags.includes('reads=shared') ? 'shared' : 'data';
  const chosen = only === undefined ? undefined : new Set([0, ...only.slice('layers='.length).split(',').map(Number)]);
  const n = Number(nArg);
  const per = Number(perArg);
  const blocks = Number(blocksArg);
  if (!(n > 0 && per > 0 && blocks > 0))
    throw new Error('usage: pool-floor <connections> <per connection and block> <blocks> [layers=…] [reads=shared] [callgrind]');
  const peer = await startTcpPeer();
  const layers: Layer[] = [];
  try {
    // With --expose-gc, the heap each layer keeps per connection once set up (its state and its sockets, the peer's side
    // of them included): what a round trip may find out of the caches when many connections take turns.
    const retained: number[] = [];
    // Each layer built keeps its number (0-4, as in the header) for the report.
    const numbers: number[] = [];
    const makers = [rawLayer, messageLayer, xqueueLayer, actorLayer, poolLayer];
    for (let number = 0; number < makers.length; number++) {
      if (chosen !== undefined && !chosen.has(number)) continue;
      const before = heapAfterGc();
      layers.push(await makers[number](peer.port, n, reads));
      numbers.push(number);
      retained.push((heapAfterGc() - before) / n);
    }
    const samples: Sample[][] = layers.map(() => []);
    for (let b = 0; b < blocks; b++) {
      for (let k = 0; k < layers.length; k++) {
        const i = (b + k) % layers.length; // each layer in each position once per as many blocks as layers
        samples[i].push(await block(layers[i], n, per));
        peer.received.length = 0;
      }
    }
    for (let i = 0; i < layers.length; i++) {
      const user = median(samples[i].map((s) => s.user));
      const system = median(samples[i].map((s) => s.system));
      // The layer's rate over the raw layer's in the same block (each block times every layer once).
      const ratio = median(samples[i].map((s, b) => s.rate / samples[0][b].rate));
      const kept = Number.isNaN(retained[i]) ? '' : `; heap kept ${retained[i].toFixed(0)} B per connection`;
      console.log(
        `${numbers[i]} ${layers[i].name}, ${n} connections: user ${user.toFixed(2)} µs, system ${system.toFixed(2)} µs per round trip, rate ${ratio.toFixed(3)} × raw (medians of ${blocks} blocks of ${n * per})${kept}`,
      );
    }
    if (counting === 'callgrind') {
      // A first zero and dump of nothing (dump .1): the first spawn of callgrind_control compiles Node's child-process
      // code, about 100 million instructions that would otherwise land in the first layer's count.
      await control('-z');
      await control('-d');
      // Then a pass of every layer uncounted, and one counted: without the first, the layer counted first after the
      // first callgrind_control carried TurboFan compiling again (up to twice its instructions per round trip).
      for (const counted of [false, true]) {
        for (const layer of layers) {
          if (counted) await control('-z');
          await block(layer, n, per);
          if (counted) await control('-d');
          peer.received.length = 0;
        }
      }
    }
  } finally {
    for (const layer of layers) await layer.stop();
    await peer.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
