/**
 * The pools benchmark (test/bench/pool-bench.ts) runs end to end with tiny sizes: both designs (a kept pool in
 * alternating blocks, a new pool per round) report well-formed, positive figures beside raw sockets.
 */
import { benchPools } from '../bench/pool-bench';
import type { BenchRow } from '../bench/bench-types';

describe('benchPools (smoke)', () => {
  let rows: BenchRow[];
  beforeAll(async () => {
    rows = await benchPools({ children: [1, 4], messages: 200, blocks: 2, requests: 20 });
  }, 120_000);

  it('reports a sequential row per pool size, the new-pool row for the largest, the pipelined row, then each size against raw sockets reading into a shared buffer', () => {
    expect(rows.filter((r) => r.unit === 'msg/s').map((r) => r.name)).toEqual([
      'request/reply through 1 pooled StreamPersister(s)',
      'request/reply through 4 pooled StreamPersister(s)',
      'request/reply through 4 pooled StreamPersister(s), a new pool per round',
      'pipelined request/reply through 1 pooled StreamPersister, 64 in flight',
      'request/reply through 1 pooled StreamPersister(s), raw sockets reading into a shared buffer',
      'request/reply through 4 pooled StreamPersister(s), raw sockets reading into a shared buffer',
    ]);
  });

  it('names the raw sockets each throughput row is measured against', () => {
    const targets = rows.filter((r) => r.unit === 'msg/s').map((r) => [r.name.endsWith('shared buffer'), r.target]);
    for (const [shared, target] of targets)
      expect(target).toBe(shared ? 'baseline = raw Node sockets reading as the persister does (onread), same run' : 'baseline = raw Node sockets, same run');
  });

  it('gives every throughput row a positive rate, raw-socket baseline and ratio', () => {
    for (const row of rows.filter((r) => r.unit === 'msg/s')) {
      expect(row.value).toBeGreaterThan(0);
      expect(row.baseline).toBeGreaterThan(0);
      expect(row.ratio).toBeGreaterThan(0);
    }
  });

  it('reports the request → handle latency in milliseconds', () => {
    const median = rows.find((r) => r.name === 'pool request → handle latency (median)');
    expect(median?.unit).toBe('ms');
    expect(median?.value).toBeGreaterThan(0);
  });
});
