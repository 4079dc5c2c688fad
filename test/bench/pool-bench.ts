/**
 * Benchmark of the pools (issue 7), in process on loopback:
 *  - request → handle latency: a PoolClient request (ObjectMessage into the pool's XQueue, the pool
 *    resolves, checks limits, spawns a StreamPersister child, removes the request) until the handle is
 *    back; median and p99 over sequential requests. Target ≤ 1 ms median.
 *  - request/reply throughput through 1, 64 and 512 pooled StreamPersisters (operation request, one
 *    request in flight per child) against a line-echo TCP server, compared with raw Node socket clients
 *    doing the same sequential request/reply over as many connections in the same run;
 *  - pipelined request/reply through ONE pooled StreamPersister with 64 requests in flight (its
 *    multiplexed mode), compared with one raw socket keeping 64 requests in flight.
 * Each throughput row runs xroute and raw in alternating order over several rounds; values are
 * medians and the ratio is the median of the per-round ratios (interleaved.ts).
 *
 * Both sides do the same work per request (issue 32): build the numbered request text, send it, get the reply cut at
 * the same newline, and check it against the expected text built from a counter of the replies received. Both send the
 * next request from the callback that delivers a reply: the raw client from its socket's 'data' listener, the xroute
 * client from the completion callback of XQueue.put (docs/api.md, "A link's XQueue, and a pool's input"), one callback
 * per sender, not one per request. Neither wraps a request in a promise of its own: the docs' `send` helper does,
 * and a raw client written the same way would pay that promise as well.
 */
import net from 'node:net';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { startPool } from '../unit/pools/pool-support';
import { startTcpPeer } from '../unit/pools/peers';
import { PoolHandle } from '../../actors/pools/pool-handle';
import type { BenchRow } from './bench-types';
import { compareRates } from './interleaved';
import { percentile } from './latency';

export interface PoolBenchOptions {
  children: number[];
  /** request/reply messages per throughput run, spread over the children (default 20000) */
  messages?: number;
  /** sequential requests timed for the latency row (default 500) */
  requests?: number;
}

async function requestLatency(requests: number): Promise<{ median: number; p99: number }> {
  const peer = await startTcpPeer();
  const pool = startPool('persister', { MaxNumberPersister: String(requests + 60), DefaultPoolSize: String(requests + 60) }, [], 16);
  try {
    const times: number[] = [];
    const handles: PoolHandle[] = [];
    for (let i = 0; i < requests + 50; i++) {
      const t0 = process.hrtime.bigint();
      const h = await pool.client.request({ URI: `${peer.uri}?Operation=request` });
      const dt = Number(process.hrtime.bigint() - t0) / 1e6;
      if (i >= 50) times.push(dt); // the first ones warm up the JIT
      handles.push(h);
    }
    await Promise.all(handles.map((h) => h.release()));
    times.sort((a, b) => a - b);
    return { median: percentile(times, 0.5), p99: percentile(times, 0.99) };
  } finally {
    await pool.stop();
    await peer.close();
  }
}

function roundTrip(q: XQueue<Message>, text: string): Promise<Message> {
  return new Promise((resolve, reject) => q.put(Message.text(text), (m) => resolve(m)).catch(reject));
}

/**
 * `count` numbered requests of sender `c` through `q`, `window` in flight: each reply's completion callback checks it
 * and puts the next request, as rawThroughput's 'data' listener does with its socket.
 */
export function requestChain(q: XQueue<Message>, c: number, count: number, window: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    const next = (): void => {
      if (sent >= count) return;
      // offer adds at once without a promise (the raw side writes to its socket at once); put only when no cell is free.
      const m = Message.text(`c${c}m${sent++}\n`);
      try {
        if (q.offer(m, onReply) < 0) q.put(m, onReply).catch(reject);
      } catch (err) {
        reject(err);
      }
    };
    const onReply = (reply: Message, outcome: string): void => {
      const line = reply.bodyText();
      if (outcome !== 'done' || line !== `echo:c${c}m${answered}`) return reject(new Error(`wrong reply ${line} (${outcome})`));
      if (++answered === count) return resolve();
      next();
    };
    for (let k = 0; k < window; k++) next();
  });
}

/** requestChain's work over a plain socket: its 'data' listener checks each reply and writes the next request. */
export function socketChain(s: net.Socket, c: number, count: number, window: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let answered = 0;
    let sent = 0;
    let buf = '';
    const next = () => {
      if (sent < count) s.write(`c${c}m${sent++}\n`);
    };
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line !== `echo:c${c}m${answered}`) return reject(new Error(`wrong reply ${line}`));
        if (++answered === count) {
          s.off('data', onData);
          return resolve();
        }
        next();
      }
    };
    s.on('data', onData);
    for (let k = 0; k < window; k++) next();
  });
}

/** `window` requests in flight per child: that many senders share the child's numbered messages. */
async function pooledThroughput(port: number, children: number, perChild: number, window = 1): Promise<number> {
  const pool = startPool('persister', { MaxNumberPersister: String(children), DefaultPoolSize: String(children) }, [], Math.max(16, children));
  try {
    const handles = await Promise.all(
      Array.from({ length: children }, () => pool.client.request({ URI: `tcp://127.0.0.1:${port}?Operation=request`, capacity: Math.max(4, window) })),
    );
    // Warm-up: one round trip each (connections are open once this returns).
    await Promise.all(handles.map((h) => roundTrip(h.transmit, 'warm\n')));
    const t0 = process.hrtime.bigint();
    await Promise.all(handles.map((h, c) => requestChain(h.transmit, c, perChild, window)));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return (children * perChild) / seconds;
  } finally {
    await pool.stop();
  }
}

/** `clients` sockets connected to the echo server on loopback, without Nagle's delay. */
export function connectSockets(port: number, clients: number): Promise<net.Socket[]> {
  return Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
          s.setNoDelay(true);
          s.once('error', reject);
        }),
    ),
  );
}

/** The same request/reply with plain sockets, one per "child", keeping `window` requests in flight on each. */
async function rawThroughput(port: number, clients: number, perClient: number, window = 1): Promise<number> {
  const sockets = await connectSockets(port, clients);
  try {
    const t0 = process.hrtime.bigint();
    await Promise.all(sockets.map((s, c) => socketChain(s, c, perClient, window)));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return (clients * perClient) / seconds;
  } finally {
    for (const s of sockets) s.destroy();
  }
}

const ROUNDS = 3;

async function compareThroughput(name: string, raw: () => Promise<number>, pooled: () => Promise<number>): Promise<BenchRow> {
  const c = await compareRates(ROUNDS, pooled, raw);
  return {
    name,
    unit: 'msg/s',
    value: Math.round(c.subject),
    baseline: Math.round(c.baseline),
    ratio: round(c.ratio),
    target: 'baseline = raw Node sockets, same run',
  };
}

export async function benchPools(opts: PoolBenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const lat = await requestLatency(opts.requests ?? 500);
  rows.push({ name: 'pool request → handle latency (median)', unit: 'ms', value: round(lat.median), target: '≤ 1 ms' });
  rows.push({ name: 'pool request → handle latency (p99)', unit: 'ms', value: round(lat.p99) });
  const total = opts.messages ?? 20_000;
  const peer = await startTcpPeer();
  try {
    for (const n of opts.children) {
      const per = Math.max(20, Math.ceil(total / n));
      rows.push(
        await compareThroughput(
          `request/reply through ${n} pooled StreamPersister(s)`,
          () => rawThroughput(peer.port, n, per),
          () => pooledThroughput(peer.port, n, per),
        ),
      );
    }
    const window = 64;
    rows.push(
      await compareThroughput(
        `pipelined request/reply through 1 pooled StreamPersister, ${window} in flight`,
        () => rawThroughput(peer.port, 1, total, window),
        () => pooledThroughput(peer.port, 1, total, window),
      ),
    );
  } finally {
    await peer.close();
  }
  return rows;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

if (require.main === module) {
  benchPools({ children: [1, 64, 512] }).then(
    (rows) => console.table(rows),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
