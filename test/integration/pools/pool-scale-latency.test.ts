/**
 * A speed measurement, so not a unit test (the unit project neither needs a broker nor measures speed): a PersisterPool
 * with 512 live children answers requests and moves messages about as fast as an empty one. It needs no broker either
 * (a TCP peer in this process); the test of the pool at scale itself is test/unit/pools/pool-scale.test.ts.
 */
import { PoolHandle } from '../../../actors/pools/pool-handle';
import { REQUEST_QUERY, peerAndPoolPerTest, send, startPool } from '../../unit/pools/pool-support';

jest.setTimeout(60_000);

const t = peerAndPoolPerTest();

/** The median of `n` sequential runs of `op`, in ms. */
async function medianMs(n: number, op: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await op();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

describe('PersisterPool at scale', () => {
  it('is not slowed by 512 live children: request latency and message round trips stay within 3x of an empty pool', async () => {
    t.pool = startPool('persister', { MaxNumberPersister: '1000', DefaultPoolSize: '1000' }, [], 64);
    const p = t.pool;
    const probe = await p.client.request({ URI: `${t.peer.uri}?${REQUEST_QUERY}` });
    const requestAndRelease = async () => (await p.client.request({ URI: 'file://-' })).release();
    const roundTrip = () => send(probe.transmit, 'x\n');
    await medianMs(50, requestAndRelease); // warm-up
    await medianMs(200, roundTrip);
    const emptyRequest = await medianMs(100, requestAndRelease);
    const emptyTrip = await medianMs(500, roundTrip);
    const live: PoolHandle[] = await Promise.all(Array.from({ length: 512 }, () => p.client.request({ URI: `${t.peer.uri}?${REQUEST_QUERY}`, capacity: 2 })));
    expect(p.active()).toBe(513);
    const busyRequest = await medianMs(100, requestAndRelease);
    const busyTrip = await medianMs(500, roundTrip);
    expect(busyRequest).toBeLessThan(3 * emptyRequest + 0.5);
    expect(busyTrip).toBeLessThan(3 * emptyTrip + 0.5);
    await Promise.all(live.map((h) => h.release()));
  });
});
