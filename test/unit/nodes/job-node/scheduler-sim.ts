/**
 * A scheduler under test: groups from a compact table, payloads naming their group and key, a port
 * that records every start, query, abort and event, and a virtual clock.
 */
import {
  GroupSpec,
  JobScheduler,
  JobView,
  SchedulerEvent,
  SchedulerPort,
  ThresholdProvider,
  fixedThreshold,
} from '../../../../actors/nodes/job-node-scheduler';
import { VirtualClock } from '../../../support/virtual-clock';

export interface Req {
  readonly name: string;
  readonly group: string;
  readonly key?: string;
}

export type GroupRow = Partial<Omit<GroupSpec, 'threshold'>> & { name: string; threshold?: number | ThresholdProvider };

function group(row: GroupRow): GroupSpec {
  const t = row.threshold ?? 1;
  return {
    name: row.name,
    bypass: row.bypass ?? false,
    priority: row.priority ?? 0,
    threshold: typeof t === 'number' ? fixedThreshold(t) : t,
    heartbeatMs: row.heartbeatMs ?? 30_000,
    ttlMs: row.ttlMs ?? 0,
    duplicates: row.duplicates ?? 'defer',
    failedJobs: row.failedJobs ?? 'redispatch',
    maxDispatch: row.maxDispatch ?? 3,
  };
}

export class Sim {
  readonly clock: VirtualClock;
  readonly scheduler: JobScheduler<Req>;
  readonly started: { job: string; worker: number }[] = [];
  readonly queries: { job: string; worker: number }[] = [];
  readonly aborts: { job: string; worker: number }[] = [];
  readonly events: SchedulerEvent<Req>[] = [];
  /** Workers whose outlink refuses new jobs. */
  readonly refusing = new Set<number>();
  /** What abort() answers (true = request withdrawn, worker free at once). */
  abortWithdraws = false;
  /** Whether query() succeeds. */
  querySends = true;
  private readonly byName = new Map<string, JobView<Req>>();

  /** `clock`: another Sim's, for a scheduler that takes over from it (a reload). */
  constructor(groups: GroupRow[], workers: number, start = 0, clock?: VirtualClock) {
    this.clock = clock ?? new VirtualClock(start);
    const specs = groups.map(group);
    const index = new Map(specs.map((g, i) => [g.name, i]));
    const port: SchedulerPort<Req> = {
      start: (job, worker) => {
        if (this.refusing.has(worker)) return false;
        this.started.push({ job: job.payload.name, worker });
        this.byName.set(job.payload.name, job);
        return true;
      },
      query: (job, worker) => {
        if (!this.querySends) return false;
        this.queries.push({ job: job.payload.name, worker });
        return true;
      },
      abort: (job, worker) => {
        this.aborts.push({ job: job.payload.name, worker });
        return this.abortWithdraws;
      },
      notify: (event) => this.events.push(event),
    };
    this.scheduler = new JobScheduler<Req>({
      groups: specs,
      workers,
      select: (p) => index.get(p.group) ?? 0,
      keyOf: (_g, p) => p.key,
      clock: this.clock,
      timers: this.clock,
      port,
    });
  }

  /** Submits "name:group[:key]" requests in order. */
  submit(...specs: string[]): void {
    for (const s of specs) {
      const [name, groupName, key] = s.split(':');
      const admission = this.scheduler.submit({ name, group: groupName, key });
      if (admission.kind === 'pending' || admission.kind === 'deferred') this.byName.set(name, admission.job);
    }
  }

  /** The latest view of a job: the active job once dispatched, else its admission snapshot. */
  job(name: string): JobView<Req> {
    const job = this.byName.get(name);
    if (job === undefined) throw new Error(`no job ${name}`);
    return job;
  }

  /** Takes over `from`'s active job `name` (after `from` closed) into group `groupName` on `worker`. */
  adopt(from: Sim, name: string, groupName: string, worker: number): void {
    const job = from.job(name);
    const index = this.scheduler.snapshot().groups.findIndex((g) => g.name === groupName);
    this.scheduler.adoptActive(job, index, worker);
    this.byName.set(name, job);
  }

  complete(...names: string[]): void {
    for (const n of names) this.scheduler.complete(this.job(n), this.job(n).dispatches);
  }

  fail(name: string, reason = 'worker crashed'): void {
    this.scheduler.workerFailed(this.job(name), this.job(name).dispatches, reason);
  }

  startedNames(): string[] {
    return this.started.map((s) => s.job);
  }

  endings(): string[] {
    return this.events.flatMap((e) => (e.type === 'ended' ? [`${e.job.payload.name}:${e.end}`] : []));
  }

  activeNames(): string[] {
    return this.scheduler
      .snapshot()
      .active.map((j) => j.payload.name)
      .sort();
  }
}
