/**
 * How much the pools rows' ratio moves from run to run with each bench design (pool-bench.ts, issue 32): `runs` runs of
 * each design, alternated in one process, the same code and peer. `fresh` is the bench as it was (a new pool or new
 * sockets per round, 3 rounds of 20 000 round trips); `kept` is the bench now (one pool and one set of sockets per row,
 * 12 A-B-B-A blocks of 5 000). Prints each run's ratio per row, then per design and row the median and the spread
 * (max − min) over runs.
 * Usage: node --max-semi-space-size=64 dist/test/bench/pool-spread.js <runs> [children, comma-separated; default 1,64,512]
 */
import { startTcpPeer } from '../unit/pools/peers';
import { compareSides, PoolBenchDesign, ThroughputRow } from './pool-bench';
import { median } from './interleaved';

function rowOf(design: PoolBenchDesign, children: number): ThroughputRow {
  return design === 'fresh'
    ? { design, children, window: 1, blocks: 3, perChild: Math.max(20, Math.ceil(20_000 / children)) }
    : { design, children, window: 1, blocks: 12, perChild: Math.max(20, Math.ceil(5_000 / children)) };
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2]);
  const children = (process.argv[3] ?? '1,64,512').split(',').map(Number);
  if (!(runs > 0) || children.some((n) => !(n > 0))) throw new Error('usage: pool-spread <runs> [children,...]');
  const designs: PoolBenchDesign[] = ['fresh', 'kept'];
  const ratios = new Map<string, number[]>();
  const peer = await startTcpPeer();
  try {
    for (let r = 0; r < runs; r++) {
      for (const design of r % 2 === 0 ? designs : [...designs].reverse()) {
        for (const n of children) {
          const t0 = Date.now();
          const c = await compareSides(peer.port, rowOf(design, n));
          peer.received.length = 0;
          const key = `${design} ${n}`;
          ratios.set(key, [...(ratios.get(key) ?? []), c.ratio]);
          console.log(
            `run ${r + 1} ${design}, ${n} children: ratio ${c.ratio.toFixed(3)} (pooled ${Math.round(c.subject)}/s, raw ${Math.round(c.baseline)}/s; ${Date.now() - t0} ms)`,
          );
        }
      }
    }
  } finally {
    await peer.close();
  }
  for (const [key, xs] of ratios)
    console.log(
      `${key}: median ${median(xs).toFixed(3)}, min ${Math.min(...xs).toFixed(3)}, max ${Math.max(...xs).toFixed(3)}, spread ${(Math.max(...xs) - Math.min(...xs)).toFixed(3)} over ${xs.length} runs`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
