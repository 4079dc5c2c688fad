/**
 * The SharedState contract (test/support/shared-state-contract.ts) against the in-process store, its leases on a
 * virtual clock: a lease lapses exactly when the clock passes it, in no wall time. Redis runs the same tests in
 * test/integration/jobnode/shared-state.test.ts.
 */
import { MemorySharedState, MemorySharedStore } from '../../../../actors/nodes/job-node-shared-state';
import { LEASE_MS, SharedStateCluster, describeSharedStateContract } from '../../../support/shared-state-contract';
import { VirtualClock } from '../../../support/virtual-clock';

function memoryCluster(): SharedStateCluster {
  const clock = new VirtualClock();
  const store = new MemorySharedStore(() => clock.now());
  return {
    instance: async (leaseMs = LEASE_MS) => new MemorySharedState(store, leaseMs),
    pass: async (ms) => clock.advance(ms),
    dispose: async () => undefined,
  };
}

describeSharedStateContract('in-process', memoryCluster);

describe('SharedState leases (in-process, virtual time)', () => {
  it('keeps a slot until its lease has passed to the millisecond, then gives it to another instance', async () => {
    const clock = new VirtualClock();
    const store = new MemorySharedStore(() => clock.now());
    const [dead, b] = [new MemorySharedState(store, LEASE_MS), new MemorySharedState(store, LEASE_MS)];
    await dead.acquireSlots('g', 1, 1);
    clock.advance(LEASE_MS - 1);
    expect(await b.acquireSlots('g', 1, 1)).toBe(0);
    clock.advance(1);
    expect(await b.acquireSlots('g', 1, 1)).toBe(1);
  });
});
