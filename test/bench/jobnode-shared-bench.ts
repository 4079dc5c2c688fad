/**
 * Benchmark of JobNode dispatch decisions per second with SharedState (issue 19), against the same
 * workload in-process (no SharedState) measured in the same run.
 *
 * One group (Threshold 64, 64 workers), 256 requests outstanding (an input of Capacity 256): each time
 * a worker gives a job back (a turn later, as an outlink would), the job completes and the next request
 * is submitted. Decisions per second = jobs dispatched and completed per second. Variants:
 *  - in-process: the scheduler alone (today's JobNode);
 *  - SharedState on Redis, no KeyTemplate: group slots shared (leases held while the group has work);
 *  - SharedState on Redis, a unique KeyTemplate per job: every job also claims and releases its key
 *    in Redis (two round trips per job, auto-pipelined) - the costly case.
 * Needs Redis on 127.0.0.1:6379 (XROUTE_TEST_REDIS); without it the suite fails.
 */
import { GroupSpec, JobScheduler, JobView, fixedThreshold } from '../../actors/nodes/job-node-scheduler';
import { SharedLimits } from '../../actors/nodes/job-node-shared-limits';
import { RedisSharedState } from '../../actors/nodes/job-node-shared-redis';
import type { BenchRow } from './bench-types';
import { median } from './interleaved';

const THRESHOLD = 64;
const WORKERS = 64;
const OUTSTANDING = 256;
const REDIS_URL = process.env.XROUTE_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';

interface Req {
  readonly key: string;
}

type Variant = 'in-process' | 'redis' | 'redis-keys';

async function run(variant: Variant, jobs: number): Promise<number> {
  const timers = new Set<NodeJS.Timeout>();
  const spec: GroupSpec = {
    name: 'g',
    bypass: false,
    priority: 0,
    threshold: fixedThreshold(THRESHOLD),
    heartbeatMs: 3_600_000,
    ttlMs: 0,
    duplicates: 'defer',
    failedJobs: 'report',
    maxDispatch: 1,
  };
  let state: RedisSharedState | undefined;
  if (variant !== 'in-process') {
    state = new RedisSharedState({ url: REDIS_URL, namespace: `xroute-bench:${process.pid}:${Date.now()}:${variant}`, leaseMs: 30_000 });
    await state.ready(3000).catch((e) => {
      void state?.close();
      throw new Error(`the jobnode-shared bench needs Redis on ${REDIS_URL}: ${(e as Error).message}`);
    });
  }
  const keyed = variant === 'redis-keys';
  let limits: SharedLimits | undefined;
  const returned: JobView<Req>[] = [];
  let flushing = false;
  let issued = 0;
  let done = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const submit = (): void => {
    const req: Req = { key: `job-${issued++}` };
    if (limits !== undefined && keyed) {
      const shared = limits;
      shared.withKey(req.key, {
        duplicates: 'defer',
        submit: () => {
          scheduler.submit(req);
          shared.balance(0); // as JobNode does once a request enters the scheduler
          return true;
        },
        drop: () => undefined,
      });
      return;
    }
    scheduler.submit(req);
    limits?.balance(0);
  };
  const flush = (): void => {
    flushing = false;
    for (const job of returned.splice(0)) {
      scheduler.complete(job, job.dispatches);
      done++;
      if (issued < jobs) submit();
    }
    limits?.balance(0);
    if (done === jobs) finish();
  };
  if (state !== undefined) {
    limits = new SharedLimits(
      state,
      [spec],
      {
        demand: (g) => scheduler.activeIn(g) + scheduler.readyIn(g),
        active: (g) => scheduler.activeIn(g),
        thresholdsChanged: () => scheduler?.poke(),
        thresholdsStale: () => scheduler.invalidateThresholds(),
        later: (fn, ms) => {
          const t = setTimeout(() => {
            timers.delete(t);
            fn();
          }, ms);
          timers.add(t);
        },
        deliver: (fn) => fn(),
        log: () => undefined,
        clock: Date.now,
      },
      { leaseMs: 30_000, retryMs: 5 },
    );
  }
  const scheduler: JobScheduler<Req> = new JobScheduler<Req>({
    groups: [limits === undefined ? spec : { ...spec, threshold: limits.thresholdFor(0) }],
    workers: WORKERS,
    select: () => 0,
    keyOf: (_g, r) => (keyed ? r.key : undefined),
    clock: { now: Date.now },
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (t) => clearTimeout(t as NodeJS.Timeout) },
    port: {
      start: (job) => {
        returned.push(job);
        if (!flushing) {
          flushing = true;
          setImmediate(flush);
        }
        return true;
      },
      query: () => true,
      abort: () => true,
      notify: (e) => {
        if (e.type === 'ended' && keyed && e.job.key !== undefined) limits?.keyEnded(e.job.key);
      },
    },
  });
  const started = process.hrtime.bigint();
  for (let i = 0; i < Math.min(OUTSTANDING, jobs); i++) submit();
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  scheduler.close();
  for (const t of timers) clearTimeout(t);
  await limits?.close();
  return jobs / seconds;
}

export async function benchJobNodeShared(options: { jobs: number; rounds?: number }): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 3;
  const perRound = new Map<Variant, number[]>();
  // Rounds alternate the order of the variants; each figure is the median of its rounds.
  for (let r = 0; r < rounds; r++) {
    const order: Variant[] = r % 2 === 0 ? ['in-process', 'redis', 'redis-keys'] : ['redis-keys', 'redis', 'in-process'];
    for (const v of order) perRound.set(v, [...(perRound.get(v) ?? []), await run(v, options.jobs)]);
  }
  const best = new Map<Variant, number>([...perRound].map(([v, xs]) => [v, median(xs)]));
  const base = best.get('in-process') as number;
  const row = (name: string, v: Variant): BenchRow => {
    const value = Math.round(best.get(v) as number);
    return { name, unit: 'decisions/s', value, baseline: Math.round(base), ratio: Math.round((value / base) * 1000) / 1000, target: 'value >= 10000' };
  };
  return [
    { name: 'jobnode dispatch decisions per second, in-process (no SharedState)', unit: 'decisions/s', value: Math.round(base) },
    row('jobnode dispatch decisions per second, SharedState on Redis, no KeyTemplate (baseline: in-process)', 'redis'),
    row('jobnode dispatch decisions per second, SharedState on Redis, a key per job (baseline: in-process)', 'redis-keys'),
  ];
}
