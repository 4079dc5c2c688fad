/**
 * The ActiveMQ path of the latency suite (test/bench/latency-activemq.ts) runs end to end at smoke sizes on the
 * ActiveMQ at ACTIVEMQ_URL: JMSReceiver -> JMSPersister and raw rhea each deliver every message once at 10, 50
 * and 90 % of the path's maximum rate, and xroute's 50 % run is broken into its link events. The figures
 * themselves are not judged here (a shared machine is too noisy).
 */
import { brokerPath, LatencyDetail, xrouteMover } from '../bench/latency-bench';
import { ACTIVEMQ, jmsMoveTopology, rawRheaMover } from '../bench/latency-activemq';
import type { BenchRow } from '../bench/bench-types';

describe('latency bench, ActiveMQ path (smoke)', () => {
  const rows: BenchRow[] = [];
  const details: LatencyDetail[] = [];
  beforeAll(async () => {
    await brokerPath(
      ACTIVEMQ,
      'ActiveMQ -> JMSReceiver -> JMSPersister -> ActiveMQ',
      xrouteMover(jmsMoveTopology(64)),
      rawRheaMover(64),
      { blockMs: 100, pairs: 2, hopMessages: 0, backlog: 200, roundTrips: 0 },
      rows,
      details,
    );
  }, 180_000);

  it('measures JMSReceiver -> JMSPersister beside raw rhea at 10, 50 and 90 % of the maximum rate', () => {
    expect(details.map((d) => d.load)).toEqual([0.1, 0.5, 0.9]);
    for (const d of details) {
      expect(d.xroute.n).toBeGreaterThan(0);
      expect(d.raw.p99).toBeGreaterThan(0);
    }
  });

  it('prints the 50 % run as a timeline from the link add to the arrival', () => {
    const hops = rows.filter((r) => r.unit === 'ms p50 since publish' && r.name.includes('at 50 %, hop ')).map((r) => /hop \d+: ([^(]+) \(/.exec(r.name)?.[1]);
    // The arrival and the confirm that removes the message race each other: their order varies.
    expect(hops.slice(0, 2)).toEqual(['move: added', 'move: taken']);
    expect(hops.slice(2).sort()).toEqual(['arrived at the destination queue', 'move: removed']);
  });
});
