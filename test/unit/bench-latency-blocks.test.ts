import { blockedP99Ratio } from '../bench/latency-blocks';

/** `n` samples 1..n ms, times `scale`. */
function block(n: number, scale = 1): number[] {
  return Array.from({ length: n }, (_, i) => (i + 1) * scale);
}

describe('blocked p99 ratio of the latency bench (test/bench/latency-blocks.ts)', () => {
  it('gives the ratio of the pooled p99s, with an interval that holds it to within a bin (0.5 %)', () => {
    const r = blockedP99Ratio([block(1000, 2), block(1000, 2)], [block(1000), block(1000)]);
    expect(r.ratio).toBe(2);
    expect(r.lo).toBeLessThanOrEqual(2 * 1.005);
    expect(r.hi).toBeGreaterThanOrEqual(2 / 1.005);
    expect([r.pairMin, r.pairMax, r.pairs]).toEqual([2, 2, 2]);
  });

  it('reads the bootstrap percentiles from bins of 0.5 %', () => {
    const r = blockedP99Ratio([block(1000, 3)], [block(1000)]);
    expect(r.lo).toBeCloseTo(3, 1);
    expect(r.hi).toBeCloseTo(3, 1);
  });

  it('widens the interval when one block pair stalls and the others do not', () => {
    const steady = blockedP99Ratio(
      Array.from({ length: 8 }, () => block(500)),
      Array.from({ length: 8 }, () => block(500)),
    );
    const stalled = blockedP99Ratio(
      [block(500, 10), ...Array.from({ length: 7 }, () => block(500))],
      Array.from({ length: 8 }, () => block(500)),
    );
    expect(steady.hi - steady.lo).toBeLessThan(0.05);
    expect(stalled.hi - stalled.lo).toBeGreaterThan(1);
    expect(stalled.pairMax).toBeCloseTo(10, 6);
  });

  it('gives the same interval for the same samples', () => {
    const ours = [block(300, 1.5), block(300, 1.1), block(300, 1.3)];
    const raw = [block(300), block(300, 1.2), block(300, 0.9)];
    expect(blockedP99Ratio(ours, raw)).toEqual(blockedP99Ratio(ours, raw));
  });

  it('refuses sides with different numbers of blocks', () => {
    expect(() => blockedP99Ratio([block(10)], [])).toThrow(/same number of blocks/);
  });
});
