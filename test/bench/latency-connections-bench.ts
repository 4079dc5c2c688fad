/**
 * Does a second connection cost the move path latency (issue 32)? xroute's AmqpReceiver and AmqpPersister each open
 * their own connection, where the latency suite's raw loop runs its consume and its confirm channel on one. This
 * runs the raw loop on two connections against itself on one, as the suite runs a path (latency-bench.ts
 * `brokerPath`: maximum rate, then 10 %, 50 % and 90 % of it in alternating blocks), and prints the rows as JSON
 * lines: a p99 ratio near 1 at 50 % says the connection count is not part of xroute's gap.
 *   node --max-semi-space-size=64 dist/test/bench/latency-connections-bench.js
 */
import type { BenchRow } from './bench-types';
import { brokerPath, LatencyDetail, RABBITMQ, rawMover } from './latency-bench';
import { runScript } from './script-args';

async function main(): Promise<void> {
  const rows: BenchRow[] = [];
  const details: LatencyDetail[] = [];
  const opts = { blockMs: 1_000, pairs: 12, hopMessages: 0, backlog: 20_000, roundTrips: 0 };
  await brokerPath(RABBITMQ, 'raw amqplib on two connections vs one', rawMover(2), rawMover(1), opts, rows, details);
  for (const row of rows) if (row.unit !== 'ms p50 since publish') console.log(JSON.stringify(row));
}

if (require.main === module) runScript(main);
