/**
 * The two sides of the pool bench's request/reply: chains of numbered round trips through pooled StreamPersisters, and
 * the same work over raw sockets (pool-bench.ts's header says how both do the same per request). Used by the bench and
 * by the probes that run one side alone or build it up layer by layer (pool-probe.ts, pool-floor.ts).
 */
import net from 'node:net';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { startPool } from '../unit/pools/pool-support';
import { SharedReadSocket } from '../../actors/stream/shared-read-socket';

/** The capacity of each pooled child's transmit queue with one request in flight. */
export const PROBE_CAPACITY = 4;

/**
 * How raw sockets read: with Node's 'data' events (a new buffer for each read, as a socket client is usually written),
 * or into the one buffer the process shares, as a pooled StreamPersister reads (SharedReadSocket).
 */
export type SocketReads = 'data' | 'shared';

/** Hands each read of `s` to `onChunk` (its 'data' events, or a SharedReadSocket's lent bytes); returns what stops it. */
export function readChunks(s: net.Socket, onChunk: (chunk: Buffer) => void): () => void {
  if (s instanceof SharedReadSocket) {
    s.onBytes = onChunk;
    return () => {
      s.onBytes = undefined;
    };
  }
  s.on('data', onChunk);
  return () => s.off('data', onChunk);
}

/** `chain(c, count)` runs `count` numbered round trips on connection `c`. */
export interface ChainSide {
  chain(c: number, count: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `count` numbered requests of sender `c` through `q`, `window` in flight: each reply's completion callback checks it
 * and puts the next request, as socketChain's 'data' listener does with its socket.
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
function socketChain(s: net.Socket, c: number, count: number, window: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let answered = 0;
    let sent = 0;
    let buf = '';
    const next = () => {
      if (sent < count) s.write(`c${c}m${sent++}\n`);
    };
    // The chunk is decoded at once: it may be lent (SharedReadSocket).
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line !== `echo:c${c}m${answered}`) return reject(new Error(`wrong reply ${line}`));
        if (++answered === count) {
          stop();
          return resolve();
        }
        next();
      }
    };
    const stop = readChunks(s, onData);
    for (let k = 0; k < window; k++) next();
  });
}

/** `clients` sockets connected to the echo server on loopback, without Nagle's delay, reading as `reads` says. */
export function connectSockets(port: number, clients: number, reads: SocketReads = 'data'): Promise<net.Socket[]> {
  return Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = reads === 'shared' ? new SharedReadSocket() : new net.Socket();
          s.connect({ host: '127.0.0.1', port }, () => resolve(s));
          s.setNoDelay(true);
          s.once('error', reject);
        }),
    ),
  );
}

/** One round trip through each queue (the connections are open once this returns). */
export function warm(queues: readonly XQueue<Message>[]): Promise<unknown> {
  return Promise.all(queues.map((q) => new Promise((resolve) => q.put(Message.text('warm\n'), resolve))));
}

export function destroyAll(sockets: readonly net.Socket[]): Promise<void> {
  for (const s of sockets) s.destroy();
  return Promise.resolve();
}

/**
 * `children` pooled StreamPersisters against the echo peer at `port`, connected and warmed, `window` requests in flight
 * on each (that many senders share a child's numbered messages).
 */
export async function pooledSide(port: number, children: number, window = 1): Promise<ChainSide> {
  const pool = startPool('persister', { MaxNumberPersister: String(children), DefaultPoolSize: String(children) }, [], Math.max(16, children));
  // A ReceiveTime (the reply deadline; default 1 s) that neither a loaded machine nor valgrind's slowness reaches: a
  // timeout would reconnect and fail the chain. The deadline costs the same per request whatever its length.
  const uri = `tcp://127.0.0.1:${port}?Operation=request&ReceiveTime=600000`;
  try {
    const handles = await Promise.all(Array.from({ length: children }, () => pool.client.request({ URI: uri, capacity: Math.max(PROBE_CAPACITY, window) })));
    const queues = handles.map((h) => h.transmit);
    await warm(queues);
    return { chain: (c, count) => requestChain(queues[c], c, count, window), stop: () => pool.stop() };
  } catch (err) {
    await pool.stop();
    throw err;
  }
}

/**
 * `clients` raw sockets connected to the echo peer at `port` and warmed by one round trip each, `window` in flight on
 * each, reading as `reads` says.
 */
export async function rawSide(port: number, clients: number, window = 1, reads: SocketReads = 'data'): Promise<ChainSide> {
  const sockets = await connectSockets(port, clients, reads);
  await Promise.all(sockets.map((s, c) => socketChain(s, c, 1, 1)));
  return { chain: (c, count) => socketChain(sockets[c], c, count, window), stop: () => destroyAll(sockets) };
}
