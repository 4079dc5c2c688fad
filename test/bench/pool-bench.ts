/**
 * Benchmark of the pools (issue 7), in process on loopback:
 *  - request → handle latency: a PoolClient request (ObjectMessage into the pool's XQueue, the pool
 *    resolves, checks limits, spawns a StreamPersister child, removes the request) until the handle is
 *    back; median and p99 over sequential requests. Target ≤ 1 ms median.
 *  - request/reply throughput through 1, 64 and 512 pooled StreamPersisters (operation request, one
 *    request in flight per child) against a line-echo TCP server, compared with raw Node socket clients
 *    doing the same sequential request/reply over as many connections in the same run.
 */
import net from 'node:net';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { startPool } from '../unit/pools/pool-support';
import { startTcpPeer } from '../unit/pools/peers';
import { PoolHandle } from '../../actors/pools/pool-handle';
import type { BenchRow } from './bench-types';

export interface PoolBenchOptions {
  children: number[];
  /** request/reply messages per throughput run, spread over the children (default 20000) */
  messages?: number;
  /** sequential requests timed for the latency row (default 500) */
  requests?: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
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

async function pooledThroughput(port: number, children: number, perChild: number): Promise<number> {
  const pool = startPool('persister', { MaxNumberPersister: String(children), DefaultPoolSize: String(children) }, [], Math.max(16, children));
  try {
    const handles = await Promise.all(Array.from({ length: children }, () => pool.client.request({ URI: `tcp://127.0.0.1:${port}?Operation=request`, capacity: 4 })));
    // Warm-up: one round trip each (connections are open once this returns).
    await Promise.all(handles.map((h) => roundTrip(h.transmit, 'warm\n')));
    const t0 = process.hrtime.bigint();
    await Promise.all(
      handles.map(async (h, c) => {
        for (let i = 0; i < perChild; i++) {
          const reply = await roundTrip(h.transmit, `c${c}m${i}\n`);
          if (reply.bodyText() !== `echo:c${c}m${i}`) throw new Error(`wrong reply ${reply.bodyText()}`);
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return (children * perChild) / seconds;
  } finally {
    await pool.stop();
  }
}

/** The same sequential request/reply with plain sockets, one per "child". */
async function rawThroughput(port: number, clients: number, perClient: number): Promise<number> {
  const sockets = await Promise.all(
    Array.from({ length: clients }, () => new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
      s.setNoDelay(true);
      s.once('error', reject);
    })),
  );
  try {
    const t0 = process.hrtime.bigint();
    await Promise.all(
      sockets.map(
        (s, c) =>
          new Promise<void>((resolve, reject) => {
            let i = 0;
            let buf = '';
            const next = () => s.write(`c${c}m${i}\n`);
            s.on('data', (chunk) => {
              buf += chunk.toString('utf8');
              let nl: number;
              while ((nl = buf.indexOf('\n')) >= 0) {
                const line = buf.slice(0, nl);
                buf = buf.slice(nl + 1);
                if (line !== `echo:c${c}m${i}`) return reject(new Error(`wrong reply ${line}`));
                if (++i === perClient) return resolve();
                next();
              }
            });
            next();
          }),
      ),
    );
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return (clients * perClient) / seconds;
  } finally {
    for (const s of sockets) s.destroy();
  }
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
      const raw = await rawThroughput(peer.port, n, per);
      const pooled = await pooledThroughput(peer.port, n, per);
      rows.push({ name: `request/reply through ${n} pooled StreamPersister(s)`, unit: 'msg/s', value: Math.round(pooled), baseline: Math.round(raw), ratio: round(pooled / raw), target: 'baseline = raw Node sockets, same run' });
    }
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
