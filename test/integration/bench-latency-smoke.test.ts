/**
 * The latency suite (`npm run bench -- --only latency`, docs/benchmarks.md) runs end to end at smoke sizes
 * against the RabbitMQ on 5672: every path delivers every message once and reports finite percentiles beside
 * its raw-client baseline. The figures themselves are not judged here (a shared machine is too noisy).
 */
import { benchLatency, latencyDetails } from '../bench/latency-bench';
import type { BenchRow } from '../bench/bench-types';

describe('latency bench (smoke)', () => {
  let rows: BenchRow[];
  beforeAll(async () => {
    // The ActiveMQ path has its own smoke test in the activemq project (test/activemq/bench-latency-jms.test.ts).
    rows = await benchLatency({ blockMs: 100, pairs: 2, hopMessages: 2_000, backlog: 300, roundTrips: 50, activemq: false });
  }, 180_000);

  it('measures each broker path at 10, 50 and 90 % of its maximum rate', () => {
    for (const path of ['AmqpReceiver -> AmqpPersister', 'CollectNode + MessageEvaluator']) {
      const loads = rows.filter((r) => r.name.includes(path) && r.unit === 'ms p99').map((r) => /at (\d+) %/.exec(r.name)?.[1]);
      expect(loads).toEqual(['10', '50', '90']);
    }
  });

  it('reports p99 for xroute and its raw baseline, and their ratio, as finite positive numbers', () => {
    for (const row of rows.filter((r) => r.unit === 'ms p99')) {
      expect(row.value).toBeGreaterThan(0);
      expect(row.baseline).toBeGreaterThan(0);
      expect(Number.isFinite(row.ratio)).toBe(true);
    }
  });

  it('keeps p50 <= p99 <= p99.9 <= max for every run, on both sides', () => {
    expect(latencyDetails.length).toBeGreaterThanOrEqual(9);
    for (const d of latencyDetails) {
      for (const s of [d.xroute, d.raw]) {
        expect(s.p50).toBeLessThanOrEqual(s.p99);
        expect(s.p99).toBeLessThanOrEqual(s.p999);
        expect(s.p999).toBeLessThanOrEqual(s.max);
      }
    }
  });

  it('gives each 50 % p99 ratio its spread over the block pairs, and the GC pauses and loop delay of both sides', () => {
    for (const d of latencyDetails.filter((x) => x.load === 0.5)) {
      expect(d.p99?.pairs).toBe(2);
      expect(d.p99?.pairMin).toBeLessThanOrEqual(d.p99?.pairMax ?? NaN);
      expect(d.p99?.lo).toBeLessThanOrEqual(d.p99?.hi ?? NaN);
      for (const side of [d.pauses?.xroute, d.pauses?.raw]) expect(side?.loopDelayMaxMs).toBeGreaterThan(0);
    }
    expect(rows.filter((r) => /at 50 %: p99 ratio over 2 block pairs, 95 % bootstrap interval, (low|high)$/.test(r.name))).toHaveLength(4);
  });

  it('breaks each xroute broker run into a timeline of link events ending at the arrival, in time order', () => {
    const broker = latencyDetails.filter((d) => !Number.isNaN(d.load));
    expect(broker).toHaveLength(6);
    for (const d of broker) {
      const events = (d.hops ?? []).map((h) => h.event);
      expect(events).toEqual(
        expect.arrayContaining([
          'arrived at the destination queue',
          expect.stringMatching(/: added$/),
          expect.stringMatching(/: taken$/),
          expect.stringMatching(/: removed$/),
        ]),
      );
      const p50s = (d.hops ?? []).map((h) => h.p50);
      expect(p50s).toEqual([...p50s].sort((a, b) => a - b));
    }
  });

  it('prints the timeline of each broker path at 50 % load as rows', () => {
    const hopRows = rows.filter((r) => r.unit === 'ms p50 since publish');
    for (const path of ['AmqpReceiver -> AmqpPersister', 'CollectNode + MessageEvaluator']) {
      expect(hopRows.filter((r) => r.name.includes(path) && r.name.includes('at 50 %, hop ')).length).toBeGreaterThanOrEqual(4);
    }
  });

  it('times request/reply through a pooled StreamPersister beside a raw socket', () => {
    expect(rows.find((r) => /round trips\/s/.test(r.name))).toMatchObject({ unit: 'per s', target: '>= 0.9x raw socket' });
  });
});
