import { ArrivalLog, bodyFor, openLoop, percentile, sequenceOf, summarise } from '../bench/latency';

describe('latency bench statistics (test/bench/latency.ts)', () => {
  it('takes nearest-rank percentiles', () => {
    const s = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect([percentile(s, 0.5), percentile(s, 0.99), percentile(s, 0.999), percentile(s, 1)]).toEqual([500, 990, 999, 1000]);
  });

  it('summarises unsorted samples', () => {
    expect(summarise([3, 1, 2])).toEqual({ n: 3, p50: 2, p99: 3, p999: 3, max: 3 });
  });

  it('measures latency from the intended send time and counts a second arrival as a duplicate', () => {
    const log = new ArrivalLog(2);
    log.sent(0, 100);
    log.sent(1, 110);
    log.arrive(1, 115);
    log.arrive(0, 130);
    log.arrive(0, 140);
    expect([log.latencies(), log.arrivals, log.duplicated]).toEqual([[30, 5], 2, 1]);
  });

  it('reads the sequence number back from a body, after a prefix a transform added', () => {
    expect([sequenceOf(bodyFor(17)), sequenceOf('ORDER:' + bodyFor(4, 10)), bodyFor(3, 8)]).toEqual([17, 4, '3|xxxxxx']);
  });

  it('sends open loop: every message, in order, none before its intended time', async () => {
    const seen: Array<[number, number, number]> = [];
    await openLoop(2000, 50, (seq, at) => seen.push([seq, at, performance.now()]));
    expect(seen.map(([seq]) => seq)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    for (const [, intended, actual] of seen) expect(actual).toBeGreaterThanOrEqual(intended);
    expect(seen[49][1] - seen[0][1]).toBeCloseTo(49 * 0.5, 6);
  });
});
