/**
 * JobNode with SharedState replaced by a reload (docs/components/job-node.md#at-a-reload): the Redis leases of its
 * running jobs are kept by the new incarnation and renewed by it, never given back and taken again (needs Redis
 * on 127.0.0.1:6379; fails saying so when it is not there).
 */
import Redis from 'ioredis';
import { REDIS_URL, deleteRedisPrefix, requireRedis } from '../../support/redis';
import { HandWorker, Rig, rig, waitFor } from '../../unit/nodes/job-node/component-support';

const NIGHTLY = { Name: 'nightly', Threshold: '1', KeyTemplate: '##JobID##' };

let namespace = '';
let r: Rig | undefined;
let redis: Redis;

beforeAll(requireRedis);
beforeEach(() => {
  namespace = `xroute-test:jobnode-reload:${process.pid}:${Date.now()}`;
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
});
afterEach(async () => {
  await r?.stop();
  r = undefined;
  redis.disconnect();
  await deleteRedisPrefix(namespace);
});

const config = (ruleset: Record<string, string>) => ({ SharedState: REDIS_URL, SharedStateNamespace: namespace, SharedStateLease: '2', Ruleset: [ruleset] });
/** The slot ids held for a group and their lease deadlines (Redis server time, ms). */
const slots = async (group: string): Promise<Map<string, number>> => {
  const flat = await redis.zrange(`${namespace}:slots:${group}`, 0, -1, 'WITHSCORES');
  const m = new Map<string, number>();
  for (let i = 0; i < flat.length; i += 2) m.set(flat[i], Number(flat[i + 1]));
  return m;
};

describe('JobNode SharedState across a reload (Redis)', () => {
  it('keeps the slot and the key of a running job: the same lease ids, held by the same instance', async () => {
    r = rig(config(NIGHTLY), { workers: 2 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'K' });
    await w0.take();
    const slotBefore = [...(await slots('nightly')).keys()];
    const holderBefore = await redis.get(`${namespace}:key:K`);
    expect(slotBefore).toHaveLength(1);
    expect(holderBefore).not.toBeNull();

    expect(await r.reload(config({ ...NIGHTLY, Threshold: '2' }))).toEqual({});

    expect([...(await slots('nightly')).keys()]).toEqual(slotBefore);
    expect(await redis.get(`${namespace}:key:K`)).toBe(holderBefore);
  });

  it('renews the kept leases from the new incarnation on', async () => {
    r = rig(config(NIGHTLY), { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'K' });
    await w0.take();
    await r.reload(config({ ...NIGHTLY, Threshold: '2' }));
    const [slot, deadline] = [...(await slots('nightly'))][0];
    // A lease of 2 s renewed every third of it: the deadline moves on while the job runs.
    await waitFor(async () => ((await slots('nightly')).get(slot) ?? 0) > deadline + 1000, 'the kept slot lease renewed by the new incarnation', 5_000);
    expect(await redis.pttl(`${namespace}:key:K`)).toBeGreaterThan(0);
  });

  it('gives the slot and the key back when the adopted job ends', async () => {
    r = rig(config(NIGHTLY), { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'K' });
    const job = await w0.take();
    await r.reload(config({ ...NIGHTLY, Threshold: '2' }));
    w0.finish(job);
    await waitFor(async () => (await redis.exists(`${namespace}:key:K`)) === 0 && (await slots('nightly')).size === 0, 'the key and the slot given back');
    expect(r.upstream.get('K')).toEqual(['done']);
  });
});
