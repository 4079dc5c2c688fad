/**
 * Benchmark of the pools (issue 7), in process on loopback:
 *  - request → handle latency: a PoolClient request (ObjectMessage into the pool's XQueue, the pool
 *    resolves, checks limits, spawns a StreamPersister child, removes the request) until the handle is
 *    back; median and p99 over sequential requests. Target ≤ 1 ms median.
 *  - request/reply throughput through 1, 64 and 512 pooled StreamPersisters (operation request, one
 *    request in flight per child) against a line-echo TCP server, compared with raw Node socket clients
 *    doing the same sequential request/reply over as many connections in the same run;
 *  - pipelined request/reply through ONE pooled StreamPersister with 64 requests in flight (its
 *    multiplexed mode), compared with one raw socket keeping 64 requests in flight;
 *  - the sequential rows again against raw sockets that read as the persister does, into one buffer the process
 *    shares (SharedReadSocket), where the raw sockets above get a new buffer per read from Node's 'data' events.
 * Each throughput row sets up its pool and its raw sockets once, warms both by one untimed block, then alternates 12
 * timed blocks of each in A-B-B-A order; values are the medians of the blocks' rates and the ratio the median of the
 * per-pair ratios (interleaved.ts). A pool kept across blocks is what a running router has, and on a noisy machine the
 * per-pair ratios of one pool spread less than those of a new pool per round (issue 32; docs/benchmarks.md, pools).
 * One more row keeps the design before for the largest pool: a new pool (and new sockets) per round, 3 rounds.
 *
 * Both sides do the same work per request (issue 32): build the numbered request text, send it, get the reply cut at
 * the same newline, and check it against the expected text built from a counter of the replies received. Both send the
 * next request from the callback that delivers a reply: the raw client from its socket's 'data' listener, the xroute
 * client from the completion callback of XQueue.put (docs/api.md, "A link's XQueue, and a pool's input"), one callback
 * per sender, not one per request. Neither wraps a request in a promise of its own: the docs' `send` helper does,
 * and a raw client written the same way would pay that promise as well.
 */
import { startPool } from '../unit/pools/pool-support';
import { startTcpPeer } from '../unit/pools/peers';
import { PoolHandle } from '../../actors/pools/pool-handle';
import type { BenchRow } from './bench-types';
import { compareRates, RateComparison } from './interleaved';
import { ChainSide, SocketReads, pooledSide, rawSide } from './pool-sides';
import { percentile } from './latency';

export interface PoolBenchOptions {
  children: number[];
  /** request/reply round trips per timed block, spread over the children (default 5000; the pipelined row 4×) */
  messages?: number;
  /** timed blocks of each side per row (default 12) */
  blocks?: number;
  /** how the sides are set up (default kept: once per row) */
  design?: PoolBenchDesign;
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

/** A side of a throughput row, set up once: `block` times `perChild` round trips on each of its connections. */
interface ThroughputSide {
  /** Round trips per second of one block. */
  block(perChild: number): Promise<number>;
  stop(): Promise<void>;
}

/** Times `children` chains started together; round trips per second. */
async function timedRate(children: number, perChild: number, chain: (c: number) => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: children }, (_, c) => chain(c)));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return (children * perChild) / seconds;
}

/** A side of `children` connections (pool-sides.ts) timed by blocks: every connection's chain started together. */
async function timedSide(open: Promise<ChainSide>, children: number): Promise<ThroughputSide> {
  const side = await open;
  return { block: (perChild) => timedRate(children, perChild, (c) => side.chain(c, perChild)), stop: () => side.stop() };
}

/**
 * How a row compares the two sides (issue 32). `kept`: each side is set up once, warmed by one untimed block, then
 * `blocks` timed blocks of each alternate in A-B-B-A order on the same pool and sockets; the ratio is the median of
 * the per-pair ratios. `fresh`: each round sets up a new pool (or new sockets), times one block and stops it.
 */
export type PoolBenchDesign = 'kept' | 'fresh';

export interface ThroughputRow {
  children: number;
  /** Round trips per connection and block. */
  perChild: number;
  /** Requests in flight per connection. */
  window: number;
  /** Timed blocks (kept) or rounds (fresh) of each side. */
  blocks: number;
  design: PoolBenchDesign;
  /** How the raw sockets read (default 'data'). */
  rawReads?: SocketReads;
}

/** The pooled and raw rates of one row, and their ratio (interleaved.ts). */
export async function compareSides(port: number, row: ThroughputRow): Promise<RateComparison> {
  const { children, perChild, window, blocks } = row;
  const reads = row.rawReads ?? 'data';
  if (row.design === 'fresh') {
    const once = async (open: () => Promise<ThroughputSide>): Promise<number> => {
      const side = await open();
      try {
        return await side.block(perChild);
      } finally {
        await side.stop();
      }
    };
    return compareRates(
      blocks,
      () => once(() => timedSide(pooledSide(port, children, window), children)),
      () => once(() => timedSide(rawSide(port, children, window, reads), children)),
    );
  }
  const pooled = await timedSide(pooledSide(port, children, window), children);
  try {
    const raw = await timedSide(rawSide(port, children, window, reads), children);
    try {
      await pooled.block(perChild);
      await raw.block(perChild);
      return await compareRates(
        blocks,
        () => pooled.block(perChild),
        () => raw.block(perChild),
      );
    } finally {
      await raw.stop();
    }
  } finally {
    await pooled.stop();
  }
}

function throughputRow(name: string, c: RateComparison, reads: SocketReads = 'data'): BenchRow {
  return {
    name,
    unit: 'msg/s',
    value: Math.round(c.subject),
    baseline: Math.round(c.baseline),
    ratio: round(c.ratio),
    target: reads === 'data' ? 'baseline = raw Node sockets, same run' : 'baseline = raw Node sockets reading as the persister does (onread), same run',
  };
}

export async function benchPools(opts: PoolBenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const lat = await requestLatency(opts.requests ?? 500);
  rows.push({ name: 'pool request → handle latency (median)', unit: 'ms', value: round(lat.median), target: '≤ 1 ms' });
  rows.push({ name: 'pool request → handle latency (p99)', unit: 'ms', value: round(lat.p99) });
  const perBlock = opts.messages ?? 5_000;
  /** A sequential row's round trips per child and block: the block's share, at least 20. */
  const perChildOf = (children: number): number => Math.max(20, Math.ceil(perBlock / children));
  const blocks = opts.blocks ?? 12;
  const design = opts.design ?? 'kept';
  const peer = await startTcpPeer();
  try {
    for (const n of opts.children) {
      const c = await compareSides(peer.port, { children: n, perChild: perChildOf(n), window: 1, blocks, design });
      rows.push(throughputRow(`request/reply through ${n} pooled StreamPersister(s)`, c));
    }
    // A new pool per round, as the bench measured before: at 512 children the timed part then also copies the new
    // children's young state (--trace-gc; docs/benchmarks.md, pools), a cost the kept design leaves out.
    const most = Math.max(...opts.children);
    const fresh = await compareSides(peer.port, {
      children: most,
      perChild: Math.max(20, Math.ceil((4 * perBlock) / most)),
      window: 1,
      blocks: 3,
      design: 'fresh',
    });
    rows.push(throughputRow(`request/reply through ${most} pooled StreamPersister(s), a new pool per round`, fresh));
    const window = 64;
    const c = await compareSides(peer.port, { children: 1, perChild: 4 * perBlock, window, blocks, design });
    rows.push(throughputRow(`pipelined request/reply through 1 pooled StreamPersister, ${window} in flight`, c));
    // The persister reads into one buffer the process shares (SharedReadSocket, net's onread), where the raw sockets
    // above get a new buffer per read, as a socket client is usually written: the same rows against raw sockets that
    // read as the persister does show what the actor, the XQueue and the persister themselves cost.
    for (const n of opts.children) {
      const shared = await compareSides(peer.port, { children: n, perChild: perChildOf(n), window: 1, blocks, design, rawReads: 'shared' });
      rows.push(throughputRow(`request/reply through ${n} pooled StreamPersister(s), raw sockets reading into a shared buffer`, shared, 'shared'));
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
