/**
 * The SharedState contract (actors/nodes/job-node-shared-state.ts), one set of tests for both implementations: the
 * in-process store in virtual time (test/unit/nodes/job-node/shared-state-memory.test.ts) and Redis in real time
 * (test/integration/jobnode/shared-state.test.ts). Leases are LEASE_MS long.
 */
import { SharedState } from '../../actors/nodes/job-node-shared-state';

export const LEASE_MS = 300;

/** Instances sharing one namespace, and the time that passes for their leases. */
export interface SharedStateCluster {
  /** A new instance on the test's namespace. */
  instance(leaseMs?: number): Promise<SharedState>;
  /** Lets `ms` pass for the leases: a virtual clock advanced, or real time for Redis (its own clock). */
  pass(ms: number): Promise<void>;
  dispose(): Promise<void>;
}

export function describeSharedStateContract(name: string, makeCluster: () => SharedStateCluster): void {
  describe(`SharedState contract (${name})`, () => {
    let cluster: SharedStateCluster;
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
      await cluster.pass(LEASE_MS + 100);
      expect(await b.acquireSlots('g', 2, 2)).toBe(2);
    });

    test('renewing keeps slots and keys beyond the lease', async () => {
      const [a, b] = [await cluster.instance(), await cluster.instance()];
      await a.acquireSlots('g', 1, 1);
      expect(await a.claimKey('k')).toBe(true);
      for (let i = 0; i < 4; i++) {
        await cluster.pass(LEASE_MS / 3);
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
      await cluster.pass(LEASE_MS + 100);
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
}
