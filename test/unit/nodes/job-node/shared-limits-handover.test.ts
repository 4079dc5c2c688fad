/**
 * SharedLimits across a JobNode reload (docs/components/job-node.md#at-a-reload), on the in-process shared state: the
 * successor starts from the slots and keys handed over, and gives back what none of its jobs holds again.
 */
import { SharedGroup, SharedInheritance, SharedLimits, SharedLimitsHost } from '../../../../actors/nodes/job-node-shared-limits';
import { MemorySharedState, MemorySharedStore } from '../../../../actors/nodes/job-node-shared-state';
import { fixedThreshold } from '../../../../actors/nodes/job-node-scheduler';
import { VirtualClock } from '../../../support/virtual-clock';

const LEASE_MS = 3_000;
const settle = () => new Promise((r) => setImmediate(r));

function limits(state: MemorySharedState, clock: VirtualClock, groups: SharedGroup[], demand: number[], inherited?: SharedInheritance): SharedLimits {
  const host: SharedLimitsHost = {
    demand: (g) => demand[g],
    active: (g) => demand[g],
    thresholdsChanged: () => undefined,
    thresholdsStale: () => undefined,
    later: (fn, ms) => void clock.set(fn, ms),
    deliver: (run) => run(),
    log: () => undefined,
    clock: () => clock.now(),
  };
  return new SharedLimits(state, groups, host, { leaseMs: LEASE_MS, retryMs: 50 }, inherited);
}

const group = (name: string, threshold = 5): SharedGroup => ({ name, bypass: false, threshold: fixedThreshold(threshold) });

describe('SharedLimits handed over at a reload', () => {
  let clock: VirtualClock;
  let store: MemorySharedStore;
  let state: MemorySharedState;
  beforeEach(() => {
    clock = new VirtualClock(1_000);
    store = new MemorySharedStore(() => clock.now());
    state = new MemorySharedState(store, LEASE_MS, 'me');
  });

  it('lets the successor dispatch on the slots handed over, without asking again', async () => {
    await state.acquireSlots('work', 5, 2);
    const next = limits(state, clock, [group('work')], [2], { held: new Map([['work', 2]]), keyRefs: new Map(), keys: [] });
    expect(next.thresholdFor(0).at(clock.now())).toBe(2);
    expect(store.liveSlots('work').size).toBe(2);
  });

  it('gives back the slots of a ruleset the new configuration no longer has', async () => {
    await state.acquireSlots('gone', 5, 1);
    limits(state, clock, [group('work')], [0], { held: new Map([['gone', 1]]), keyRefs: new Map(), keys: [] });
    await settle();
    expect(store.liveSlots('gone').size).toBe(0);
  });

  it('keeps the keys of adopted jobs and gives back, at the first renewal, a handed-over key no job holds again', async () => {
    await state.claimKey('running');
    await state.claimKey('was-pending');
    limits(state, clock, [group('work')], [1], { held: new Map(), keyRefs: new Map([['running', 1]]), keys: ['running', 'was-pending'] });
    clock.advance(LEASE_MS / 3);
    await settle();
    await settle();
    expect([...store.keys.keys()]).toEqual(['running']);
  });

  it('asks for no slot once quiesced, and hands over the slots it holds', async () => {
    const old = limits(state, clock, [group('work')], [3]);
    old.quiesce();
    old.balance(0);
    await settle();
    expect(old.idle).toBe(true);
    expect(store.liveSlots('work').size).toBe(0);
    expect(old.handOver()).toMatchObject({ held: new Map(), keys: [] });
  });
});
