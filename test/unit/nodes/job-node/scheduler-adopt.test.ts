/** A reload's scheduler takes over the active jobs of the one it replaces (docs/components/job-node.md#at-a-reload). */
import { Sim } from './scheduler-sim';

/** The old scheduler with `active` jobs running, closed as a handover closes it, and its successor on the same clock. */
function handedOver(groups: ConstructorParameters<typeof Sim>[0], workers: number, arrivals: string[]): { before: Sim; after: Sim } {
  const before = new Sim(groups, workers);
  before.submit(...arrivals);
  before.scheduler.holdDispatch();
  before.scheduler.close();
  return { before, after: new Sim(groups, workers, 0, before.clock) };
}

describe('JobScheduler.adoptActive', () => {
  it('counts an adopted job against the threshold of its group under the new settings', () => {
    const { before } = handedOver([{ name: 'A', threshold: 3 }], 3, ['a1:A', 'a2:A']);
    const after = new Sim([{ name: 'A', threshold: 2 }], 3, 0, before.clock);
    after.adopt(before, 'a1', 'A', 0);
    after.adopt(before, 'a2', 'A', 1);
    after.submit('a3:A');
    expect(after.startedNames()).toEqual([]);
    after.complete('a1');
    expect(after.startedNames()).toEqual(['a3']);
  });

  it("gives the adopted job's worker no other job until the job ends", () => {
    const { before, after } = handedOver([{ name: 'A', threshold: 5 }], 2, ['a1:A']);
    after.adopt(before, 'a1', 'A', 0);
    after.submit('a2:A', 'a3:A');
    expect(after.started).toEqual([{ job: 'a2', worker: 1 }]);
    expect(after.scheduler.snapshot().workers).toEqual(['busy', 'busy']);
  });

  it('keeps the key of an adopted job: a later job with the same key waits for it', () => {
    const { before, after } = handedOver([{ name: 'A', threshold: 5 }], 2, ['a1:A:k']);
    after.adopt(before, 'a1', 'A', 0);
    after.submit('dup:A:k');
    expect(after.startedNames()).toEqual([]);
    after.complete('a1');
    expect(after.startedNames()).toEqual(['dup']);
  });

  it('keeps the TimeToLive clock of an adopted job: it expires TimeToLive after its first dispatch', () => {
    const { before, after } = handedOver([{ name: 'A', ttlMs: 10_000 }], 1, ['a1:A']);
    before.clock.advance(6_000);
    after.adopt(before, 'a1', 'A', 0);
    after.clock.advance(3_999);
    expect(after.endings()).toEqual([]);
    after.clock.advance(1);
    expect(after.endings()).toEqual(['a1:expired']);
  });

  it('moves an adopted job to the group of its ruleset in the new order of rulesets', () => {
    const { before } = handedOver([{ name: 'A' }], 1, ['a1:A']);
    const after = new Sim([{ name: 'new' }, { name: 'A' }], 1, 0, before.clock);
    after.adopt(before, 'a1', 'A', 0);
    expect(after.scheduler.snapshot().groups.map((g) => [g.name, g.active])).toEqual([
      ['new', 0],
      ['A', 1],
    ]);
  });

  it('numbers new jobs after the adopted ones', () => {
    const { before, after } = handedOver([{ name: 'A', threshold: 5 }], 2, ['a1:A']);
    after.adopt(before, 'a1', 'A', 0);
    after.submit('a2:A');
    expect(after.job('a2').id).toBeGreaterThan(after.job('a1').id);
  });

  it('refuses a job that is not active', () => {
    const { before, after } = handedOver([{ name: 'A' }], 1, ['a1:A', 'a2:A']);
    expect(() => after.adopt(before, 'a2', 'A', 0)).toThrow(/not an active job/);
  });
});
