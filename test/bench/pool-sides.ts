/**
 * The two sides of the pool bench's sequential request/reply, for the probes that run them alone or layer by layer
 * (pool-probe.ts, pool-floor.ts): chains of round trips through pooled StreamPersisters, and the same over raw sockets.
 */
import net from 'node:net';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { startPool } from '../unit/pools/pool-support';
import { connectSockets, requestChain, socketChain } from './pool-bench';

/** The capacity of each pooled child's transmit queue in the probes. */
export const PROBE_CAPACITY = 4;

/** `chain(c, count)` runs `count` sequential round trips on connection `c`. */
export interface ChainSide {
  chain(c: number, count: number): Promise<void>;
  stop(): Promise<void>;
}

/** One round trip through each queue (the connections are open once this returns). */
export function warm(queues: readonly XQueue<Message>[]): Promise<unknown> {
  return Promise.all(queues.map((q) => new Promise((resolve) => q.put(Message.text('warm\n'), resolve))));
}

export function destroyAll(sockets: readonly net.Socket[]): Promise<void> {
  for (const s of sockets) s.destroy();
  return Promise.resolve();
}

/** `children` pooled StreamPersisters against the echo peer at `port`, each connected and warmed. */
export async function pooledSide(port: number, children: number): Promise<ChainSide> {
  const pool = startPool('persister', { MaxNumberPersister: String(children), DefaultPoolSize: String(children) }, [], Math.max(16, children));
  // A ReceiveTime that valgrind's slowness cannot reach (a timeout would reconnect).
  const uri = `tcp://127.0.0.1:${port}?Operation=request&ReceiveTime=600000`;
  const handles = await Promise.all(Array.from({ length: children }, () => pool.client.request({ URI: uri, capacity: PROBE_CAPACITY })));
  const queues = handles.map((h) => h.transmit);
  await warm(queues);
  return { chain: (c, count) => requestChain(queues[c], c, count, 1), stop: () => pool.stop() };
}

/** `clients` raw sockets connected to the echo peer at `port`. */
export async function rawSide(port: number, clients: number): Promise<ChainSide> {
  const sockets = await connectSockets(port, clients);
  return { chain: (c, count) => socketChain(sockets[c], c, count, 1), stop: () => destroyAll(sockets) };
}
