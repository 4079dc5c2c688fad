/**
 * The SharedState contract, run against the in-process store and against Redis on 127.0.0.1:6379
 * (unique key prefix per test). Redis must be reachable: these tests fail, saying so, when it is not.
 */
import { REDIS_URL, deleteRedisPrefix, redisUnreachable } from '../../support/redis';
import { MemorySharedState, MemorySharedStore, SharedState } from '../../../actors/nodes/job-node-shared-state';
import { RedisSharedState } from '../../../actors/nodes/job-node-shared-redis';

const LEASE_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Cluster {
  /** A new instance on the test's namespace. */
  instance(leaseMs?: number): Promise<SharedState>;
  dispose(): Promise<void>;
}

function memoryCluster(): Cluster {
  const store = new MemorySharedStore();
  return { instance: async (leaseMs = LEASE_MS) => new MemorySharedState(store, leaseMs), dispose: async () => undefined };
}

let namespaceCounter = 0;
function redisCluster(): Cluster {
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
    async dispose() {
      for (const s of made) await s.close().catch(() => undefined);
      await deleteRedisPrefix(namespace);
    },
  };
}

describe.each([
  ['in-process', memoryCluster],
  ['Redis', redisCluster],
])('SharedState contract (%s)', (_name, makeCluster) => {
  let cluster: Cluster;
  beforeEach(() => {
    cluster = makeCluster();
  });
  afterEach(async () => {
    await cluster.dispose();
  });

  test('slots of a group are capped over all instances', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    expect(await a.acquireSlots('g', 3, 2)).toBe(2);
    expect(await b.acquireSlots('g', 3, 2)).toBe(1);
    expect(await b.acquireSlots('g', 3, 1)).toBe(0);
  });

  test('groups have separate caps', async () => {
    const a = await cluster.instance();
    expect(await a.acquireSlots('g1', 1, 1)).toBe(1);
    expect(await a.acquireSlots('g2', 1, 1)).toBe(1);
  });

  test('a released slot can be taken by another instance', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    await a.acquireSlots('g', 1, 1);
    await a.releaseSlots('g', 1);
    expect(await b.acquireSlots('g', 1, 1)).toBe(1);
  });

  test('concurrent acquisitions never exceed the cap', async () => {
    const instances = await Promise.all([1, 2, 3, 4, 5].map(() => cluster.instance()));
    const granted = await Promise.all(instances.flatMap((s) => [s.acquireSlots('g', 4, 3), s.acquireSlots('g', 4, 2)]));
    expect(granted.reduce((a, b) => a + b, 0)).toBe(4);
  });

  test('an instance that waits for a slot gets the next one freed before an instance that had not asked', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    expect(await a.acquireSlots('g', 1, 1)).toBe(1);
    expect(await b.acquireSlots('g', 1, 1)).toBe(0);
    await a.releaseSlots('g', 1);
    expect(await a.acquireSlots('g', 1, 1)).toBe(0);
    expect(await b.acquireSlots('g', 1, 1)).toBe(1);
  });

  test('renew tells a holder that another instance waits for a slot of its group', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    await a.acquireSlots('g', 1, 1);
    expect((await a.renew()).contended.has('g')).toBe(false);
    await b.acquireSlots('g', 1, 1);
    expect((await a.renew()).contended.has('g')).toBe(true);
  });

  test('slots of an instance that stops renewing come back after the lease', async () => {
    const [dead, b] = [await cluster.instance(), await cluster.instance()];
    await dead.acquireSlots('g', 2, 2);
    expect(await b.acquireSlots('g', 2, 1)).toBe(0);
    await sleep(LEASE_MS + 100);
    expect(await b.acquireSlots('g', 2, 2)).toBe(2);
  });

  test('renewing keeps slots and keys beyond the lease', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    await a.acquireSlots('g', 1, 1);
    expect(await a.claimKey('k')).toBe(true);
    for (let i = 0; i < 4; i++) {
      await sleep(LEASE_MS / 3);
      const r = await a.renew();
      expect(r.lostSlots.size).toBe(0);
      expect(r.lostKeys).toEqual([]);
    }
    expect(await b.acquireSlots('g', 1, 1)).toBe(0);
    expect(await b.claimKey('k')).toBe(false);
  });

  test('renew reports slots and keys that lapsed and were taken by another instance', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    await a.acquireSlots('g', 1, 1);
    await a.claimKey('k');
    await sleep(LEASE_MS + 100);
    expect(await b.acquireSlots('g', 1, 1)).toBe(1);
    expect(await b.claimKey('k')).toBe(true);
    const r = await a.renew();
    expect(r.lostSlots.get('g')).toBe(1);
    expect(r.lostKeys).toEqual(['k']);
  });

  test('a key is held by one instance at a time, and again by its holder', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    expect(await a.claimKey('job-1')).toBe(true);
    expect(await b.claimKey('job-1')).toBe(false);
    expect(await a.claimKey('job-1')).toBe(true);
    expect(await b.claimKey('job-2')).toBe(true);
  });

  test('only the holder releases a key', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    await a.claimKey('k');
    await b.releaseKey('k');
    expect(await b.claimKey('k')).toBe(false);
    await a.releaseKey('k');
    expect(await b.claimKey('k')).toBe(true);
  });

  test('close gives back every slot and key', async () => {
    const [a, b] = [await cluster.instance(), await cluster.instance()];
    await a.acquireSlots('g', 2, 2);
    await a.claimKey('k');
    await a.close();
    expect(await b.acquireSlots('g', 2, 2)).toBe(2);
    expect(await b.claimKey('k')).toBe(true);
  });
});
