/**
 * JobNode's scheduling core (docs/components/job-node.md), free of queues and actors so that it can be
 * tested with a virtual clock and benchmarked on its own. Everything it depends on is injected: the
 * ruleset matcher (`select`), the key function (`keyOf`), a threshold provider per group, the clock,
 * the timers, and a port through which it starts jobs, queries and aborts them and reports events.
 *
 * Decisions never scan the pending jobs, and a long backlog stays cheap:
 *  - each group keeps its ready jobs in arrival order: fresh arrivals inline in a queue of pooled blocks
 *    (no object per pending job, read in the order written, so neither the garbage collector nor the
 *    cache pays for the backlog) plus a small min-heap (by job id = arrival order) of Job objects that re-enter out of
 *    order (released by dedup, redispatched, refused by a worker);
 *  - groups are ranked once (Priority descending, ties in definition order); two rank bitsets say which
 *    groups have ready jobs and which have room under their threshold, and the next group to serve is
 *    the lowest rank in both (O(groups / 32));
 *  - a job key is claimed by at most one job (active or ready); later jobs with a claimed key wait in
 *    that key's FIFO and the first of them is released when the holder ends (dedup = serialisation,
 *    the original's real behaviour) or, with the `drop` policy, are refused at once;
 *  - free workers form a FIFO, so the worker that has been free longest is used first (as the original).
 *
 * Fixes over the original: Threshold is a true cap (at most `threshold - active` dispatches per group per
 * pass, the original's bug; docs/components/job-node.md); a finishing job or a freed worker dispatches at once (docs/components/job-node.md); heartbeat and
 * TimeToLive run on per-job timers (docs/components/job-node.md); a worker failure is redispatched or reported, never lost.
 */
import { ArrivalBlockPool, ArrivalQueue, MinHeap, RankSet } from './job-node-structures';
import { Deque } from './deque';
import type { Clock } from '../../src/runtime/clock';

export type DuplicatePolicy = 'defer' | 'drop';
export type FailedJobPolicy = 'redispatch' | 'report';

/** The current maximum of active jobs of a group. */
export interface ThresholdProvider {
  /** True when the value depends on the time (ActiveTime): it is then re-read once per second. */
  readonly dynamic: boolean;
  /** A value of 0 (or below) pauses the group. */
  at(nowMs: number): number;
}

export function fixedThreshold(n: number): ThresholdProvider {
  return { dynamic: false, at: () => n };
}

export interface GroupSpec {
  readonly name: string;
  /** Bypass groups (nohit, PreferredOutLink rulesets) are not scheduled: submit() just says so. */
  readonly bypass: boolean;
  /** Larger is served first; ties go in definition order. */
  readonly priority: number;
  readonly threshold: ThresholdProvider;
  /** Query interval for active jobs, ms (> 0). */
  readonly heartbeatMs: number;
  /** Longest a job may be active, ms; 0 = no limit. */
  readonly ttlMs: number;
  readonly duplicates: DuplicatePolicy;
  readonly failedJobs: FailedJobPolicy;
  /** Dispatches a job may get when its worker fails (redispatch policy), >= 1. */
  readonly maxDispatch: number;
}

/** One-shot timers. The component adapts its actor context's timers; tests use a virtual clock. */
interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(token: unknown): void;
}

type JobState = 'pending' | 'deferred' | 'active' | 'ended';
export type JobEnd = 'completed' | 'failed' | 'expired';

export interface JobView<P> {
  /** Sequence number, increasing with arrival: the job's one identifier in every event. */
  readonly id: number;
  readonly group: number;
  /** KeyTemplate result; undefined = no template (the job is unique). */
  readonly key: string | undefined;
  readonly payload: P;
  readonly state: JobState;
  /** Worker index while active (and in the ended event), else -1. */
  readonly worker: number;
  readonly acceptedAt: number;
  readonly dispatchedAt: number;
  /** How many times the job was handed to a worker (1 after the first dispatch). */
  readonly dispatches: number;
  readonly queriesSent: number;
  readonly queriesAnswered: number;
  readonly queryOutstanding: boolean;
  /** Consecutive heartbeats that found the previous query unanswered. */
  readonly unanswered: number;
  readonly end: JobEnd | undefined;
}

export type Admission<P> =
  | { readonly kind: 'bypass'; readonly group: number }
  | { readonly kind: 'pending'; readonly job: JobView<P> }
  | { readonly kind: 'deferred'; readonly job: JobView<P>; readonly holderId: number }
  | { readonly kind: 'dropped'; readonly group: number; readonly key: string; readonly holderId: number };

export type SchedulerEvent<P> =
  | { readonly type: 'scheduled'; readonly job: JobView<P> }
  | { readonly type: 'redispatched'; readonly job: JobView<P>; readonly worker: number; readonly reason: string }
  | { readonly type: 'ended'; readonly job: JobView<P>; readonly end: JobEnd; readonly reason?: string }
  | { readonly type: 'stuck'; readonly job: JobView<P>; readonly unanswered: number };

/** What the scheduler asks of the outside world. Calls are synchronous. */
export interface SchedulerPort<P> {
  /** Hands the job to worker `worker`. false = the worker cannot take it now: it is blocked until workerReady(). */
  start(job: JobView<P>, worker: number): boolean;
  /** Sends a heartbeat query for an active job; false = could not be sent now (tried again next heartbeat). */
  query(job: JobView<P>, worker: number): boolean;
  /**
   * TimeToLive reached: tell the worker to stop. Returns true when the worker is already free (the
   * request was withdrawn before the worker took it); otherwise the worker stays unavailable until the
   * request comes back (complete() or workerFailed() for the ended job) or workerReady() is called.
   */
  abort(job: JobView<P>, worker: number): boolean;
  notify(event: SchedulerEvent<P>): void;
}

export interface SchedulerOptions<P> {
  readonly groups: readonly GroupSpec[];
  readonly workers: number;
  /** The ruleset matcher: index into `groups`. */
  select(payload: P): number;
  /** The key function (KeyTemplate + KeySubstitution); undefined = unique job. */
  keyOf(group: number, payload: P): string | undefined;
  /** Read only for the time (`now`): the scheduler's timers are `timers`, the actor's. */
  readonly clock: Pick<Clock, 'now'>;
  readonly timers: Timers;
  readonly port: SchedulerPort<P>;
}

export type WorkerState = 'free' | 'busy' | 'draining' | 'blocked';

interface GroupSnapshot {
  readonly name: string;
  readonly bypass: boolean;
  readonly priority: number;
  /** The threshold in force now. */
  readonly threshold: number;
  readonly active: number;
  /** Jobs ready to run (waiting for a worker or for room under the threshold). */
  readonly pending: number;
  /** Jobs waiting for an active (or earlier) job with the same key to end. */
  readonly deferred: number;
}

export interface SchedulerSnapshot<P> {
  readonly groups: readonly GroupSnapshot[];
  readonly workers: readonly WorkerState[];
  /** Active jobs, by worker. */
  readonly active: readonly JobView<P>[];
  /** Pending and deferred jobs, by group in arrival order. */
  readonly waiting: readonly JobView<P>[];
}

/**
 * A job that is active, or pending/deferred out of the arrival FIFO (released by dedup, redispatched,
 * refused by its worker). Fresh arrivals have no object until they are dispatched.
 */
class Job<P> implements JobView<P> {
  state: JobState = 'pending';
  worker = -1;
  dispatchedAt = 0;
  dispatches = 0;
  queriesSent = 0;
  queriesAnswered = 0;
  queryOutstanding = false;
  unanswered = 0;
  end: JobEnd | undefined = undefined;
  heartbeatTimer: unknown = undefined;
  ttlTimer: unknown = undefined;

  constructor(
    readonly id: number,
    /** Changes only when a reload's scheduler adopts the job (adoptActive): its ruleset's index there. */
    public group: number,
    readonly key: string | undefined,
    readonly payload: P,
    readonly acceptedAt: number,
  ) {}
}

const byArrival = (j: Job<unknown>): number => j.id;

class Group<P> {
  /** Fresh arrivals in arrival order, stored inline. */
  readonly arrivals: ArrivalQueue<P>;
  /** Jobs re-entering out of arrival order; the next job is the older of the two heads. */
  readonly returned = new MinHeap<Job<P>>(byArrival);
  active = 0;
  deferred = 0;
  threshold: number;

  constructor(
    readonly spec: GroupSpec,
    readonly index: number,
    readonly rank: number,
    now: number,
    pool: ArrivalBlockPool,
  ) {
    this.threshold = spec.threshold.at(now);
    this.arrivals = new ArrivalQueue<P>(pool);
  }

  get ready(): number {
    return this.arrivals.size + this.returned.size;
  }

  takeNext(): Job<P> {
    const r = this.returned.peek();
    const a = this.arrivals;
    if (r !== undefined && (a.size === 0 || r.id < a.frontId())) return this.returned.pop() as Job<P>;
    const job = new Job<P>(a.frontId(), this.index, a.frontKey(), a.frontPayload(), a.frontAcceptedAt());
    a.dropFront();
    return job;
  }

  /** A snapshot of a pending arrival as a JobView. */
  arrivalView(id: number, acceptedAt: number, key: string | undefined, payload: P): JobView<P> {
    return {
      id,
      group: this.index,
      key,
      payload,
      state: 'pending',
      worker: -1,
      acceptedAt,
      dispatchedAt: 0,
      dispatches: 0,
      queriesSent: 0,
      queriesAnswered: 0,
      queryOutstanding: false,
      unanswered: 0,
      end: undefined,
    };
  }

  readyViews(): JobView<P>[] {
    const views: JobView<P>[] = [];
    this.arrivals.forEach((id, acceptedAt, key, payload) => views.push(this.arrivalView(id, acceptedAt, key, payload)));
    return [...views, ...this.returned.values()];
  }
}

const FREE = 0;
const BUSY = 1;
const DRAINING = 2;
const BLOCKED = 3;
const WORKER_STATES: readonly WorkerState[] = ['free', 'busy', 'draining', 'blocked'];

export class JobScheduler<P> {
  private readonly groups: Group<P>[];
  private readonly byRank: Group<P>[];
  private readonly dynamicGroups: Group<P>[];
  private readonly hasReady: RankSet;
  private readonly underCap: RankSet;
  /** Job key -> id of the job holding it (active or ready). */
  private readonly holders = new Map<string, number>();
  /** Job key -> the jobs waiting for it, oldest first. */
  private readonly waitingForKey = new Map<string, Deque<Job<P>>>();
  private readonly freeWorkers = new Deque<number>();
  private readonly workerState: Uint8Array;
  private readonly workerJob: (Job<P> | undefined)[];
  /** Ended (expired) jobs whose worker still holds the request: job id -> worker. */
  private readonly draining = new Map<number, number>();
  /** Jobs accepted and not yet ended. */
  private live = 0;
  private nextId = 1;
  private thresholdsValidUntil = 0;
  private thresholdTimer: unknown = undefined;
  private pumping = false;
  private pumpAgain = false;
  private closed = false;
  /** holdDispatch(): a draining node starts no job. */
  private holding = false;
  /** While submit() pumps: the id it accepted, and the Job if that job was dispatched at once. */
  private submittingId = 0;
  private submittedJob: Job<P> | undefined = undefined;

  constructor(private readonly options: SchedulerOptions<P>) {
    if (!Number.isInteger(options.workers) || options.workers < 1) throw new RangeError(`JobScheduler needs at least one worker, got ${options.workers}`);
    const now = options.clock.now();
    const order = options.groups.map((spec, index) => ({ spec, index })).sort((a, b) => b.spec.priority - a.spec.priority || a.index - b.index);
    const rankOf = new Array<number>(options.groups.length);
    order.forEach((o, rank) => (rankOf[o.index] = rank));
    const pool = new ArrivalBlockPool();
    this.groups = options.groups.map((spec, index) => new Group<P>(spec, index, rankOf[index], now, pool));
    this.byRank = order.map((o) => this.groups[o.index]);
    this.dynamicGroups = this.groups.filter((g) => !g.spec.bypass && g.spec.threshold.dynamic);
    this.hasReady = new RankSet(this.groups.length);
    this.underCap = new RankSet(this.groups.length);
    for (const g of this.groups) if (!g.spec.bypass) this.updateCap(g);
    this.workerState = new Uint8Array(options.workers);
    this.workerJob = new Array<Job<P> | undefined>(options.workers).fill(undefined);
    for (let w = 0; w < options.workers; w++) this.freeWorkers.pushBack(w);
    this.thresholdsValidUntil = nextSecond(now);
  }

  // ------------------------------------------------------------------ inputs

  /**
   * A new request: bypass, pending (the returned view is the active job when it was dispatched at once),
   * deferred behind its key, or dropped (DuplicatePolicy drop).
   */
  submit(payload: P): Admission<P> {
    const index = this.options.select(payload);
    const group = this.groups[index];
    if (group === undefined) throw new RangeError(`ruleset matcher returned ${index}, outside 0..${this.groups.length - 1}`);
    if (group.spec.bypass) return { kind: 'bypass', group: index };
    const key = this.options.keyOf(index, payload);
    const holderId = key === undefined ? undefined : this.holders.get(key);
    if (holderId !== undefined && group.spec.duplicates === 'drop') return { kind: 'dropped', group: index, key: key as string, holderId };
    const id = this.nextId++;
    const now = this.options.clock.now();
    this.live++;
    if (holderId !== undefined) {
      const job = new Job<P>(id, index, key, payload, now);
      job.state = 'deferred';
      let waiting = this.waitingForKey.get(key as string);
      if (waiting === undefined) this.waitingForKey.set(key as string, (waiting = new Deque<Job<P>>(4)));
      waiting.pushBack(job);
      group.deferred++;
      return { kind: 'deferred', job, holderId };
    }
    if (key !== undefined) this.holders.set(key, id);
    group.arrivals.pushBack(id, now, key, payload);
    this.hasReady.set(group.rank, true);
    this.submittingId = id;
    this.submittedJob = undefined;
    this.pump();
    this.submittingId = 0;
    const started = this.submittedJob;
    this.submittedJob = undefined;
    return { kind: 'pending', job: started ?? group.arrivalView(id, now, key, payload) };
  }

  /**
   * The worker gave the request back: the job is done. `job` is the view start() received and
   * `dispatch` its dispatch number then (a return from an earlier dispatch is stale). Returns the job,
   * or undefined when stale.
   */
  complete(job: JobView<P>, dispatch: number): JobView<P> | undefined {
    const current = this.current(job, dispatch);
    if (current === undefined) {
      this.releaseDrained(job.id);
      return undefined;
    }
    const worker = current.worker;
    this.end(current, 'completed');
    this.freeWorker(worker);
    this.pump();
    return current;
  }

  /**
   * The request left its worker as failed (the worker crashed on it repeatedly, or gave up). Per the
   * group's policy the job is dispatched again (while it has dispatches left) or ends as failed.
   */
  workerFailed(job: JobView<P>, dispatch: number, reason: string): JobView<P> | undefined {
    const current = this.current(job, dispatch);
    if (current === undefined) {
      this.releaseDrained(job.id);
      return undefined;
    }
    const worker = current.worker;
    const spec = this.groups[current.group].spec;
    if (spec.failedJobs === 'redispatch' && current.dispatches < spec.maxDispatch) {
      this.deactivate(current);
      current.state = 'pending';
      current.worker = -1;
      this.workerJob[worker] = undefined;
      this.requeue(current);
      this.freeWorker(worker);
      this.notify({ type: 'redispatched', job: current, worker, reason });
    } else {
      this.end(current, 'failed', reason);
      this.freeWorker(worker);
    }
    this.pump();
    return current;
  }

  /** A query came back. Returns the job when it answers the current dispatch's outstanding query. */
  queryReturned(job: JobView<P>, dispatch: number): JobView<P> | undefined {
    const current = this.current(job, dispatch);
    if (current === undefined || !current.queryOutstanding) return undefined;
    current.queryOutstanding = false;
    current.unanswered = 0;
    current.queriesAnswered++;
    return current;
  }

  /** A blocked or draining worker can take a job again (its outlink has room, or the late request came back). */
  workerReady(worker: number): void {
    const s = this.workerState[worker];
    if (s !== BLOCKED && s !== DRAINING) return;
    if (s === DRAINING) for (const [id, w] of this.draining) if (w === worker) this.draining.delete(id);
    this.freeWorker(worker);
    this.pump();
  }

  /** A free worker cannot take a job for now (e.g. its outlink still holds work of a previous incarnation). */
  workerUnavailable(worker: number): void {
    if (this.workerState[worker] !== FREE) return;
    this.freeWorkers.removeFirst((w) => w === worker);
    this.workerState[worker] = BLOCKED;
  }

  /**
   * Takes over an active job of the scheduler a reload replaces (docs/components/job-node.md#at-a-reload): it stays
   * on `worker`, counts against `group`'s threshold under this scheduler's settings, holds its key, and keeps its
   * TimeToLive clock (its dispatch time). `job` must be the view that scheduler gave, and that scheduler closed.
   */
  adoptActive(job: JobView<P>, group: number, worker: number): void {
    if (!(job instanceof Job) || job.state !== 'active') throw new RangeError(`job ${job.id} is not an active job of a JobScheduler`);
    const g = this.groups[group];
    if (g === undefined || g.spec.bypass) throw new RangeError(`job ${job.id}: group ${group} is not a scheduled group`);
    if (this.workerState[worker] !== FREE) throw new RangeError(`job ${job.id}: worker ${worker} is ${this.workerStateOf(worker)}, not free`);
    const adopted = job as Job<P>;
    adopted.group = group;
    adopted.worker = worker;
    adopted.queryOutstanding = false;
    adopted.unanswered = 0;
    this.freeWorkers.removeFirst((w) => w === worker);
    this.workerState[worker] = BUSY;
    this.workerJob[worker] = adopted;
    g.active++;
    this.updateCap(g);
    this.live++;
    if (adopted.key !== undefined) this.holders.set(adopted.key, adopted.id);
    if (adopted.id >= this.nextId) this.nextId = adopted.id + 1;
    this.armJobTimers(adopted);
  }

  /** Re-evaluates thresholds and dispatches what can run (e.g. after a clock change). */
  poke(): void {
    this.thresholdsValidUntil = 0;
    this.pump();
  }

  /** Thresholds changed outside (a shared slot was given back): re-read them before the next dispatch, without dispatching now. */
  invalidateThresholds(): void {
    this.thresholdsValidUntil = 0;
  }

  /** Starts no job from now on (a draining node); active jobs go on: queries, completion, expiry. */
  holdDispatch(): void {
    this.holding = true;
  }

  /** Stops every timer; the scheduler must not be used afterwards. */
  close(): void {
    this.closed = true;
    if (this.thresholdTimer !== undefined) this.options.timers.clear(this.thresholdTimer);
    this.thresholdTimer = undefined;
    for (const job of this.workerJob) if (job !== undefined) this.clearJobTimers(job);
  }

  // ------------------------------------------------------------------ queries

  workerStateOf(worker: number): WorkerState {
    return WORKER_STATES[this.workerState[worker]];
  }

  /** Jobs accepted and not yet ended (pending, deferred or active). */
  get size(): number {
    return this.live;
  }

  /** Active jobs of a group (cheap, for callers that hold per-group resources). */
  activeIn(group: number): number {
    return this.groups[group].active;
  }

  /** Jobs of a group ready to run (pending, not deferred behind a key). */
  readyIn(group: number): number {
    return this.groups[group].ready;
  }

  snapshot(): SchedulerSnapshot<P> {
    const groups = this.groups.map((g): GroupSnapshot => ({
      name: g.spec.name,
      bypass: g.spec.bypass,
      priority: g.spec.priority,
      threshold: g.spec.bypass ? 0 : g.threshold,
      active: g.active,
      pending: g.ready,
      deferred: g.deferred,
    }));
    const active = this.workerJob.filter((j): j is Job<P> => j !== undefined);
    const deferred = [...this.waitingForKey.values()].flatMap((d) => [...d]);
    const waiting = [...this.groups.flatMap((g) => g.readyViews()), ...deferred].sort((a, b) => a.group - b.group || a.id - b.id);
    return { groups, workers: [...this.workerState].map((s) => WORKER_STATES[s]), active, waiting };
  }

  // ------------------------------------------------------------------ dispatch

  private pump(): void {
    if (this.closed || this.holding) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.dispatchWhilePossible();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
    this.armThresholdTimer();
  }

  private dispatchWhilePossible(): void {
    const { clock, port } = this.options;
    while (this.freeWorkers.size > 0) {
      const now = clock.now();
      if (now >= this.thresholdsValidUntil) this.refreshThresholds(now);
      const rank = RankSet.firstCommon(this.hasReady, this.underCap);
      if (rank < 0) return;
      const group = this.byRank[rank];
      const job = group.takeNext();
      if (group.ready === 0) this.hasReady.set(rank, false);
      const worker = this.freeWorkers.popFront() as number;
      if (job.id === this.submittingId) this.submittedJob = job;
      job.state = 'active';
      job.dispatches++;
      job.worker = worker;
      job.dispatchedAt = now;
      this.workerState[worker] = BUSY;
      this.workerJob[worker] = job;
      group.active++;
      this.updateCap(group);
      if (!port.start(job, worker)) {
        // The worker's outlink cannot take it: the job keeps its place, the worker waits for workerReady().
        group.active--;
        this.updateCap(group);
        job.state = 'pending';
        job.dispatches--;
        job.worker = -1;
        this.requeue(job);
        this.workerJob[worker] = undefined;
        this.workerState[worker] = BLOCKED;
        continue;
      }
      this.armJobTimers(job);
      this.notify({ type: 'scheduled', job });
    }
  }

  private refreshThresholds(now: number): void {
    this.thresholdsValidUntil = nextSecond(now);
    for (const g of this.dynamicGroups) {
      g.threshold = g.spec.threshold.at(now);
      this.updateCap(g);
    }
  }

  /** While a time-windowed group waits only for its window, re-check at the next second. */
  private armThresholdTimer(): void {
    if (this.closed || this.thresholdTimer !== undefined || this.freeWorkers.size === 0) return;
    let waitingForWindow = false;
    for (const g of this.dynamicGroups) {
      if (g.ready > 0 && g.active >= g.threshold) {
        waitingForWindow = true;
        break;
      }
    }
    if (!waitingForWindow) return;
    const delay = Math.max(1, this.thresholdsValidUntil - this.options.clock.now());
    this.thresholdTimer = this.options.timers.set(() => {
      this.thresholdTimer = undefined;
      this.pump();
    }, delay);
  }

  private updateCap(g: Group<P>): void {
    this.underCap.set(g.rank, g.active < g.threshold);
  }

  /** A job re-enters its group out of arrival order. */
  private requeue(job: Job<P>): void {
    const g = this.groups[job.group];
    g.returned.push(job);
    this.hasReady.set(g.rank, true);
  }

  private freeWorker(worker: number): void {
    this.workerState[worker] = FREE;
    this.workerJob[worker] = undefined;
    this.freeWorkers.pushBack(worker);
  }

  private releaseDrained(jobId: number): void {
    const worker = this.draining.get(jobId);
    if (worker === undefined) return;
    this.draining.delete(jobId);
    if (this.workerState[worker] === DRAINING) {
      this.freeWorker(worker);
      this.pump();
    }
  }

  /** The scheduler's own job object when `view` is one of its jobs, active in dispatch `dispatch`. */
  private current(view: JobView<P>, dispatch: number): Job<P> | undefined {
    return view instanceof Job && view.state === 'active' && view.dispatches === dispatch ? (view as Job<P>) : undefined;
  }

  // ------------------------------------------------------------------ heartbeat and TimeToLive

  private armJobTimers(job: Job<P>): void {
    const spec = this.groups[job.group].spec;
    const beat = (): void => {
      job.heartbeatTimer = undefined;
      if (job.state !== 'active') return;
      if (job.queryOutstanding) {
        job.unanswered++;
        this.notify({ type: 'stuck', job, unanswered: job.unanswered });
      } else if (this.options.port.query(job, job.worker)) {
        job.queryOutstanding = true;
        job.queriesSent++;
      }
      if (job.state === 'active') job.heartbeatTimer = this.options.timers.set(beat, spec.heartbeatMs);
    };
    job.heartbeatTimer = this.options.timers.set(beat, spec.heartbeatMs);
    if (spec.ttlMs > 0) {
      // From the dispatch: an adopted job (adoptActive) keeps the time it has already run.
      const left = Math.max(0, job.dispatchedAt + spec.ttlMs - this.options.clock.now());
      job.ttlTimer = this.options.timers.set(() => {
        job.ttlTimer = undefined;
        if (job.state === 'active') this.expire(job);
      }, left);
    }
  }

  private expire(job: Job<P>): void {
    const worker = job.worker;
    const freeNow = this.options.port.abort(job, worker);
    this.end(job, 'expired', `active longer than TimeToLive ${this.groups[job.group].spec.ttlMs / 1000} s`);
    if (freeNow) {
      this.freeWorker(worker);
    } else {
      this.workerState[worker] = DRAINING;
      this.workerJob[worker] = undefined;
      this.draining.set(job.id, worker);
    }
    this.pump();
  }

  private clearJobTimers(job: Job<P>): void {
    if (job.heartbeatTimer !== undefined) this.options.timers.clear(job.heartbeatTimer);
    if (job.ttlTimer !== undefined) this.options.timers.clear(job.ttlTimer);
    job.heartbeatTimer = undefined;
    job.ttlTimer = undefined;
  }

  // ------------------------------------------------------------------ ending

  /** Leaves the active state: the group regains room, timers stop. */
  private deactivate(job: Job<P>): void {
    const g = this.groups[job.group];
    g.active--;
    this.updateCap(g);
    this.clearJobTimers(job);
    job.queryOutstanding = false;
  }

  private end(job: Job<P>, end: JobEnd, reason?: string): void {
    this.deactivate(job);
    job.state = 'ended';
    job.end = end;
    this.live--;
    this.releaseKey(job.key, job.id);
    this.notify(reason === undefined ? { type: 'ended', job, end } : { type: 'ended', job, end, reason });
  }

  /** The key passes to the oldest job waiting for it, which becomes ready in its group. */
  private releaseKey(key: string | undefined, holderId: number): void {
    if (key === undefined || this.holders.get(key) !== holderId) return;
    const waiting = this.waitingForKey.get(key);
    const next = waiting?.popFront();
    if (next === undefined) {
      this.holders.delete(key);
      return;
    }
    if ((waiting as Deque<Job<P>>).size === 0) this.waitingForKey.delete(key);
    this.holders.set(key, next.id);
    next.state = 'pending';
    this.groups[next.group].deferred--;
    this.requeue(next);
  }

  private notify(event: SchedulerEvent<P>): void {
    this.options.port.notify(event);
  }
}

function nextSecond(now: number): number {
  return (Math.floor(now / 1000) + 1) * 1000;
}
