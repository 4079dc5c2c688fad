import fc from 'fast-check';
import { JobScheduler, JobView, fixedThreshold, GroupSpec } from '../../../../actors/nodes/job-node-scheduler';
import { VirtualClock } from '../../../support/virtual-clock';

interface Req {
  group: number;
  key: string | undefined;
}

type Op =
  | { t: 'submit'; group: number; key: number }
  | { t: 'complete'; pick: number }
  | { t: 'fail'; pick: number }
  | { t: 'answer'; pick: number }
  | { t: 'tick'; ms: number }
  | { t: 'refuse'; worker: number }
  | { t: 'ready'; worker: number };

const WORKERS = 3;

const groupArb = fc.record({
  priority: fc.integer({ min: 0, max: 3 }),
  threshold: fc.integer({ min: 1, max: 3 }),
  ttlMs: fc.constantFrom(0, 0, 5_000),
  duplicates: fc.constantFrom<'defer' | 'drop'>('defer', 'defer', 'drop'),
  failedJobs: fc.constantFrom<'redispatch' | 'report'>('redispatch', 'report'),
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('submit' as const), group: fc.nat(3), key: fc.integer({ min: -1, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('complete' as const), pick: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('fail' as const), pick: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('answer' as const), pick: fc.nat(10) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 4_000 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('refuse' as const), worker: fc.nat(WORKERS - 1) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('ready' as const), worker: fc.nat(WORKERS - 1) }) },
);

type GroupRow = { priority: number; threshold: number; ttlMs: number; duplicates: 'defer' | 'drop'; failedJobs: 'redispatch' | 'report' };

function run(groupRows: GroupRow[], ops: Op[]): void {
  const clock = new VirtualClock();
  const specs: GroupSpec[] = groupRows.map((r, i) => ({
    name: `g${i}`,
    bypass: false,
    priority: r.priority,
    threshold: fixedThreshold(r.threshold),
    heartbeatMs: 1_000,
    ttlMs: r.ttlMs,
    duplicates: r.duplicates,
    failedJobs: r.failedJobs,
    maxDispatch: 2,
  }));
  const active = new Map<number, JobView<Req>>();
  const activePerGroup = new Array<number>(specs.length).fill(0);
  const endings = new Map<number, number>();
  const accepted = new Set<number>();
  const refusing = new Set<number>();
  const started = new Set<number>();
  const violations: string[] = [];

  const scheduler = new JobScheduler<Req>({
    groups: specs,
    workers: WORKERS,
    select: (p) => p.group,
    keyOf: (_g, p) => p.key,
    clock,
    timers: clock,
    port: {
      start: (job, worker) => {
        if (refusing.has(worker)) return false;
        if (activePerGroup[job.group] + 1 > specs[job.group].threshold.at(clock.now())) violations.push(`group ${job.group} over its threshold`);
        for (const other of active.values()) if (job.key !== undefined && other.key === job.key) violations.push(`key ${job.key} active twice`);
        if (endings.has(job.id)) violations.push(`job ${job.id} started after it ended`);
        started.add(job.id);
        active.set(job.id, job);
        activePerGroup[job.group]++;
        return true;
      },
      query: () => true,
      abort: () => false,
      notify: (e) => {
        if (e.type === 'ended' || e.type === 'redispatched') {
          if (active.delete(e.job.id)) activePerGroup[e.job.group]--;
        }
        if (e.type === 'ended') endings.set(e.job.id, (endings.get(e.job.id) ?? 0) + 1);
      },
    },
  });

  const pickActive = (pick: number): JobView<Req> | undefined => {
    const list = [...active.values()];
    return list.length === 0 ? undefined : list[pick % list.length];
  };

  for (const op of ops) {
    switch (op.t) {
      case 'submit': {
        const a = scheduler.submit({ group: op.group % specs.length, key: op.key < 0 ? undefined : `k${op.key}` });
        if (a.kind === 'pending' || a.kind === 'deferred') accepted.add(a.job.id);
        break;
      }
      case 'complete': {
        const j = pickActive(op.pick);
        if (j) scheduler.complete(j, j.dispatches);
        break;
      }
      case 'fail': {
        const j = pickActive(op.pick);
        if (j) scheduler.workerFailed(j, j.dispatches, 'crash');
        break;
      }
      case 'answer': {
        const j = pickActive(op.pick);
        if (j) scheduler.queryReturned(j, j.dispatches);
        break;
      }
      case 'tick':
        clock.advance(op.ms);
        break;
      case 'refuse':
        refusing.add(op.worker);
        break;
      case 'ready':
        refusing.delete(op.worker);
        scheduler.workerReady(op.worker);
        break;
    }
  }
  // Drain: every worker accepts again, every job that runs completes, expired jobs' workers let go.
  refusing.clear();
  for (let w = 0; w < WORKERS; w++) scheduler.workerReady(w);
  for (let guard = 0; scheduler.size > 0 && guard < 10_000; guard++) {
    const j = pickActive(0);
    if (j) scheduler.complete(j, j.dispatches);
    else clock.advance(1_000);
    for (let w = 0; w < WORKERS; w++) scheduler.workerReady(w);
  }
  scheduler.close();

  expect(violations).toEqual([]);
  expect(scheduler.size).toBe(0);
  for (const id of accepted) expect(endings.get(id)).toBe(1);
  expect(endings.size).toBe(accepted.size);
  for (const id of started) expect(accepted.has(id)).toBe(true);
}

describe('JobScheduler under random arrivals, completions, failures and time', () => {
  it('never exceeds a threshold, never runs two jobs with one key, and ends every accepted job exactly once', () => {
    fc.assert(
      fc.property(fc.array(groupArb, { minLength: 1, maxLength: 4 }), fc.array(opArb, { maxLength: 120 }), (groups, ops) => run(groups, ops)),
      { numRuns: 300 },
    );
  });
});
