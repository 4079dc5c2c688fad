/**
 * The SharedState contract (test/support/shared-state-contract.ts) against Redis on 127.0.0.1:6379 (unique key prefix
 * per test); the in-process store runs the same tests in the unit project. Redis must be reachable: these tests fail,
 * saying so, when it is not.
 */
import { REDIS_URL, deleteRedisPrefix, redisKeys, redisUnreachable } from '../../support/redis';
import { RedisSharedState } from '../../../actors/nodes/job-node-shared-redis';
import { LEASE_MS, SharedStateCluster, describeSharedStateContract } from '../../support/shared-state-contract';
import { sleep } from '../../support/wait';

let namespaceCounter = 0;
function redisCluster(namespace = `xroute-test:shared-state:${process.pid}:${Date.now()}:${++namespaceCounter}`): SharedStateCluster {
  const made: RedisSharedState[] = [];
  return {
    async instance(leaseMs = LEASE_MS) {
      const s = new RedisSharedState({ url: REDIS_URL, namespace, leaseMs });
      made.push(s);
      try {
        await s.ready(3000);
      } catch (e) {
        throw redisUnreachable(e);
      }
      return s;
    },
    pass: sleep,
    async dispose() {
      for (const s of made) await s.close().catch(() => undefined);
      await deleteRedisPrefix(namespace);
    },
  };
}

describeSharedStateContract('Redis', () => redisCluster());

describe('the Redis store', () => {
  it('keeps its slots and claimed keys in Redis under its namespace, where any other client sees them', async () => {
    const namespace = `xroute-test:shared-state:${process.pid}:${Date.now()}:visible`;
    const cluster = redisCluster(namespace);
    try {
      const store = await cluster.instance();
      expect(await store.acquireSlots('g', 2, 1)).toBe(1);
      expect(await store.claimKey('order-7')).toBe(true);
      expect(await redisKeys(namespace)).toEqual(expect.arrayContaining([`${namespace}:slots:g`, `${namespace}:key:order-7`]));
    } finally {
      await cluster.dispose();
    }
    expect(await redisKeys(namespace)).toEqual([]);
  });
});
