/**
 * The SharedState contract (test/support/shared-state-contract.ts) against Redis on 127.0.0.1:6379 (unique key prefix
 * per test); the in-process store runs the same tests in the unit project. Redis must be reachable: these tests fail,
 * saying so, when it is not.
 */
import { REDIS_URL, deleteRedisPrefix, redisUnreachable } from '../../support/redis';
import { RedisSharedState } from '../../../actors/nodes/job-node-shared-redis';
import { LEASE_MS, SharedStateCluster, describeSharedStateContract } from '../../support/shared-state-contract';
import { sleep } from '../../support/wait';

let namespaceCounter = 0;
function redisCluster(): SharedStateCluster {
  const namespace = `xroute-test:shared-state:${process.pid}:${Date.now()}:${++namespaceCounter}`;
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

describeSharedStateContract('Redis', redisCluster);
