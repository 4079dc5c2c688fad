/** The core benchmark runs end to end with tiny sizes and reports well-formed, positive figures. */
import { benchCore } from '../bench/core-bench';
import type { BenchRow } from '../bench/bench-types';

describe('benchCore (smoke)', () => {
  let rows: BenchRow[];
  beforeAll(async () => {
    // 20,000 messages of 1 KiB: the unbounded side holds about 20 MB of backlog at its peak.
    rows = await benchCore({ messages: 500, overloadMessages: 20_000, rounds: 1 });
  }, 120_000);

  it('reports one-hop, chain and overload rows', () => {
    const names = rows.map((r) => r.name);
    expect(names.some((n) => /one XQueue hop.*vs raw nact dispatch/.test(n))).toBe(true);
    expect(names.some((n) => /chain of 4/.test(n))).toBe(true);
    expect(names.some((n) => /peak memory growth/.test(n))).toBe(true);
  });

  it('gives every row a name, a unit and a finite value', () => {
    for (const row of rows) {
      expect(row.name.length).toBeGreaterThan(0);
      expect(row.unit.length).toBeGreaterThan(0);
      expect(Number.isFinite(row.value)).toBe(true);
    }
  });

  it('reports positive throughputs, baselines and ratios', () => {
    for (const row of rows.filter((r) => r.unit === 'msgs/s')) {
      expect(row.value).toBeGreaterThan(0);
      expect(row.baseline).toBeGreaterThan(0);
      expect(row.ratio).toBeGreaterThan(0);
    }
  });

  it('reports the memory growth of the unbounded baseline as positive', () => {
    const rss = rows.find((r) => r.unit === 'MB');
    expect(rss?.baseline).toBeGreaterThan(0);
    expect(rss?.value).toBeGreaterThanOrEqual(0);
  });

  it('states the targets of the one-hop, counting and overload rows', () => {
    expect(
      rows
        .filter((r) => r.target !== undefined)
        .map((r) => r.unit)
        .sort(),
    ).toEqual(['MB', 'msgs/s', 'msgs/s']);
  });

  it('measures the cost of per-component counting against the same hop uncounted', () => {
    expect(rows.find((r) => /with per-component counting/.test(r.name))).toMatchObject({ unit: 'msgs/s', target: 'ratio >= 0.97' });
  });
});
