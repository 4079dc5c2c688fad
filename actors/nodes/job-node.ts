/**
 * JobNode (operation `schedule`; docs/components/job-node.md): the actor around JobScheduler. It takes every job
 * request from its input XQueue and keeps it TAKEN there while the job is pending or active, so pending
 * jobs use input capacity and a full input pushes back upstream. Outlinks by position: notice (first,
 * escalations), bypass (second: nohit and PreferredOutLink rulesets, no flow control), workers (the rest).
 *
 * Life of a job: scheduled onto a free worker outlink (the request itself is added there, with a
 * completion callback); queried every Heartbeat with a query event on the same outlink; complete when
 * the worker removes the request (its RCField tells FINISHED from FAILED) - then the request is removed
 * from JobNode's input, so the original receiver acknowledges only now (XA end to end).
 *
 * Policies (documented in docs/components/job-node.md):
 *  - Worker failure: a request removed with outcome 'failed' (the worker crashed on it repeatedly) is
 *    dispatched again, up to MaxDispatch dispatches, else reported FAILED and removed from the input as
 *    'failed' (FailedJobPolicy "report" reports at once). Never lost.
 *  - TimeToLive: at expiry an abort event goes to the worker outlink (or, if the worker has not taken
 *    the request yet, the request is withdrawn), the job ends EXPIRED and its input is removed as
 *    'failed'. The group and the key are released at once; the worker outlink gets no new job until the
 *    worker lets go of the expired request.
 *  - Restart: the runtime puts every input message back; untaken requests and queries in the outlinks
 *    are withdrawn on stop; a worker still busy with a job of the old incarnation gets no new job until
 *    its outlink is empty. Jobs that were running are dispatched again (at-least-once, docs/components/job-node.md).
 *  - Every completion signal waits in the node's inbox (job-node-handover.ts) and is handled in this actor's turn
 *    (never inside another actor's turn).
 *  - Drain before a stop (docs/operations.md#stopping): no job is dispatched any more; pending and deferred
 *    requests are put back into the input (their receiver gives them back to the broker unacknowledged); active
 *    jobs run on and are acknowledged when they complete (OnStop "wait"), or are put back too ("kill").
 *  - A reload that replaces the node (docs/components/job-node.md#at-a-reload): the drain dispatches nothing more,
 *    then handOver puts the pending requests back into the input in their order and hands the active jobs (still
 *    running on their workers), their requests, the inbox and the shared-state leases to the successor, which
 *    adopts them under its own settings. refuseReplace refuses new settings that drop a ruleset or worker outlink
 *    with active jobs; refuseRemove refuses a topology without the node while it has any.
 */
import { ActorContext, ActorRef, Behaviour, QueueConsumer, TimerHandle } from '../../src/runtime/actor';
import { DrainRequest, untilDoneOrDeadline } from '../../src/runtime/drain';
import { ComponentDefinition, ComponentEnv, inputOf } from '../../src/runtime/component';
import { Message } from '../../src/message/message';
import { Outcome, XQueue } from '../../src/xqueue/xqueue';
import { Partition, parsePartition } from '../../src/xqueue/partition';
import { displayFields, displayMessage } from '../../src/logging/display';
import { describe as describeError } from '../../src/runtime/actor';
import { OutlinkSender, tryReserveCell } from './outlink-sender';
import { JobScheduler, JobView, SchedulerEvent, SchedulerPort, WorkerState } from './job-node-scheduler';
import { BYPASS_OUTLINK, FIRST_WORKER_OUTLINK, JobNodeSettings, NOTICE_OUTLINK, parseJobNodeSettings } from './job-node-config';
import { rulesetMatcher } from './ruleset-matcher';
import { JobIdentity, NoticeDetails, jobName, noticeEvent, queryEvent, queryResultEvent } from './job-node-events';
import { EventPriority, JOB_EVENT_PROPERTY, QueryOperation } from './job-event-protocol';
import { JOB_NODE_SCHEMA, unknownRulesetKeys } from './job-node-schema';
import { SharedHandover, SharedLimits } from './job-node-shared-limits';
import { RedisSharedState } from './job-node-shared-redis';
import { SharedState } from './job-node-shared-state';
import { redactText } from '../../src/logging/redact';
import { JobEvent, JobInbox, JobNodeHandover, Request, claimHandover, makeHandover, removeRefusal, replaceRefusal, sameSharedState } from './job-node-handover';
import { traceIdOf } from '../../src/runtime/message-trace';
import { debugEnabled } from '../../src/logging/logger';
import { traceJobEnd, traceJobStart, tracesMessage } from '../../src/tracing/message-trace';

/** One job as a status query shows it. */
interface JobSummary {
  readonly id: number;
  readonly ruleset: string;
  readonly name: string;
  readonly state: 'pending' | 'deferred' | 'active';
  /** Worker outlink name while active. */
  readonly worker?: string;
  /** ISO time of arrival (pending) or dispatch (active). */
  readonly since: string;
  readonly attempt: number;
  /** The node-level StringProperty names read from the request. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface JobNodeStatus {
  readonly name: string;
  readonly groups: readonly { name: string; priority: number; threshold: number; active: number; pending: number; deferred: number; bypass: boolean }[];
  readonly workers: readonly { link: string; state: WorkerState; jobId?: number }[];
  readonly active: readonly JobSummary[];
  readonly pending: readonly JobSummary[];
  readonly counters: Readonly<Record<string, number>>;
  /** With SharedState: whether dispatch is paused (Redis unreachable), the slots held per group, and jobs waiting for a key held elsewhere. */
  readonly shared?: { readonly paused: boolean; readonly slots: Readonly<Record<string, number>>; readonly waitingForKeys: number };
}

/** Messages JobNode's actor understands. Only `status` is for other components; the rest it sends itself. */
export type JobNodeMessage =
  | { readonly type: 'status'; readonly reply: (status: JobNodeStatus) => void }
  | { readonly type: 'worker-drained'; readonly token: object; readonly worker: number }
  | { readonly type: 'shared-state'; readonly token: object; readonly run: () => void };

/** Asks a running JobNode for its pending and active jobs. */
export function queryJobNodeStatus(ref: ActorRef<unknown>, timeoutMs = 5000): Promise<JobNodeStatus> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`JobNode ${ref.name} did not answer a status query within ${timeoutMs} ms`)), timeoutMs);
    (ref as ActorRef<JobNodeMessage>).tell({
      type: 'status',
      reply: (s) => {
        clearTimeout(timer);
        resolve(s);
      },
    });
  });
}

/** Where a job's messages sit in its worker outlink (for withdrawing what the worker has not taken). */
interface Placement {
  worker: number;
  cell: number;
}

const STUCK_LOG_EVERY = 4;

class JobNodeBehaviour implements Behaviour<JobNodeMessage> {
  /** Identifies this incarnation in the completion messages it receives. */
  private readonly token = {};
  private ctx!: ActorContext<JobNodeMessage>;
  private scheduler!: JobScheduler<Request>;
  private readonly input: XQueue<Message>;
  private readonly notice: XQueue<Message>;
  private readonly bypass: XQueue<Message>;
  private readonly workers: XQueue<Message>[];
  private partitions: Partition[] = [];
  private readonly requests = new Map<number, Placement>();
  private readonly queries = new Map<number, Placement>();
  private readonly lastProgress = new Map<number, string>();
  private bypassSender!: OutlinkSender<Request>;
  private readonly retryTimers = new Map<number, TimerHandle>();
  private readonly stopSignal = new AbortController();
  /** Cluster-wide limits (SharedState); undefined = this process alone. */
  private shared: SharedLimits | undefined;
  /** With SharedState: each request's group and key, computed once before it enters the scheduler. */
  private readonly matcher: (msg: Message) => number;
  /** Debug lines (the ruleset matched, what became of the job, the worker chosen) are built only when the log writes them. */
  private readonly debug: boolean;
  private readonly routes = new WeakMap<Request, { group: number; key: string | undefined }>();
  private consumer!: QueueConsumer;
  /** Set by drain(): requests put back into the input, whose later returns are ignored. */
  private draining: WeakSet<Request> | undefined;
  /** Where workers' answers wait for this incarnation (handed on at a reload). */
  private inbox = new JobInbox();
  /** Worker outlink index by name (a reload's successor may order its outlinks differently). */
  private readonly workerIndex: ReadonlyMap<string, number>;
  /** Jobs adopted at a reload whose ruleset the new settings dropped: only their completion is awaited. */
  private readonly unowned = new Set<JobView<Request>>();
  /** drain() for a reload's replacement began: what is held goes on to the successor. */
  private forSuccessor = false;
  /** With SharedState: requests taken and waiting for their key to be claimed (not yet in the scheduler). */
  private readonly awaitingKey = new Set<Request>();
  /** Requests a replaced predecessor put back (a reload): taken again, they are not counted as received again. */
  private requeued = new WeakSet<Message>();
  /** handOver ran: this incarnation handles nothing more. */
  private handedOver = false;

  constructor(
    private readonly env: ComponentEnv,
    private readonly settings: JobNodeSettings,
  ) {
    this.input = inputOf(env);
    this.notice = env.outlinks[NOTICE_OUTLINK];
    this.bypass = env.outlinks[BYPASS_OUTLINK];
    this.workers = env.outlinks.slice(FIRST_WORKER_OUTLINK);
    this.workerIndex = new Map(this.workers.map((q, i) => [q.name, i]));
    this.debug = debugEnabled(env.logger);
    this.matcher = rulesetMatcher(settings.rulesets, (ruleset, error) =>
      env.logger.error('ruleset filter failed; message goes to nohit', { ruleset, error: describeError(error) }),
    );
  }

  start(ctx: ActorContext<JobNodeMessage>): void {
    const env = this.env;
    this.ctx = ctx;
    const s = this.settings;
    if (env.outlinks.length !== s.outlinkNames.length)
      throw new Error(`${env.name}: ${s.outlinkNames.length} OutLink entries configured but ${env.outlinks.length} links given`);
    this.partitions = env.outlinks.map((q, i) => parsePartition(s.outlinkPartitions[i], q.capacity, q.name));
    this.bypassSender = new OutlinkSender(this.bypass, this.partitions[BYPASS_OUTLINK], this.stopSignal.signal, (e) => ctx.fail(e));
    const matcher = this.matcher;
    const handover = claimHandover(env.inherited, this.input);
    if (handover !== undefined) {
      this.inbox = handover.inbox;
      this.requeued = handover.requeued;
    }
    const keptShared =
      handover?.shared !== undefined && s.shared !== undefined && sameSharedState(handover.shared.settings, s.shared) ? handover.shared.limits : undefined;
    if (handover?.shared !== undefined && keptShared === undefined) this.closeSharedState(handover.shared.limits.state);
    if (s.shared !== undefined) this.shared = this.startSharedLimits(keptShared, handover);
    const shared = this.shared;
    this.scheduler = new JobScheduler<Request>({
      groups: shared === undefined ? s.rulesets.map((r) => r.spec) : s.rulesets.map((r, i) => ({ ...r.spec, threshold: shared.thresholdFor(i) })),
      workers: this.workers.length,
      select: shared === undefined ? (req) => matcher(req.item) : (req) => this.routeOf(req).group,
      keyOf: shared === undefined ? (group, req) => s.rulesets[group].keyOf?.(req.item) : (_group, req) => this.routeOf(req).key,
      clock: ctx.clock,
      timers: { set: (fn, ms) => ctx.setTimeout(fn, ms), clear: (t) => ctx.clearTimer(t as TimerHandle) },
      port: this.port(),
    });
    if (handover !== undefined) this.adoptJobs(handover);
    this.adoptOrphanedWorkers();
    // A reload's successor: this consume takes over the requests the predecessor held (SpawnOptions.adopt).
    this.consumer = ctx.consume(this.input, (taken) => this.onRequest(taken));
    // The inbox wakes the actor once until it takes its events; the wake runs as an XQueue pull does, on the fast
    // path when the node is idle (ActorContext.waker; issue 32).
    this.inbox.attach(
      this.token,
      ctx.waker(() => this.takeEvents()),
    );
  }

  /** Every completion signal that arrived since the last turn, in order of arrival; none once handed over. */
  private takeEvents(): void {
    if (this.handedOver) return;
    for (const event of this.inbox.take(this.token)) this.onEvent(event);
  }

  drain(_ctx: ActorContext<JobNodeMessage>, request: DrainRequest): void | Promise<void> {
    if (request.forReplace === true) return this.drainForSuccessor(request);
    this.draining = new WeakSet();
    this.consumer.stopTaking();
    this.scheduler.holdDispatch();
    const snap = this.scheduler.snapshot();
    for (const job of snap.waiting) this.giveBack(job.payload);
    if (request.onStop === 'kill') for (const job of snap.active) this.giveBack(job.payload);
    this.env.logger.info('draining: no job is dispatched any more', {
      pendingGivenBack: snap.waiting.length,
      running: snap.active.length,
      runningJobs: request.onStop === 'kill' ? 'given back (OnStop kill)' : 'finish until the drain deadline',
    });
  }

  /** Draining: the request goes back into the input for its receiver to give back to the broker (or a successor to take). */
  private giveBack(request: Request): void {
    this.draining?.add(request);
    if (this.input.putback(request) && !this.forSuccessor) this.env.status.count('givenBack');
  }

  /**
   * A reload replaces this node: dispatch nothing more and ask the shared state nothing new; running jobs go on
   * for the successor (handOver). Resolves once no shared-state call is unanswered (or at the deadline).
   */
  private async drainForSuccessor(request: DrainRequest): Promise<void> {
    this.stopForSuccessor();
    this.env.logger.info('draining for a reload: no job is dispatched any more; running and pending jobs go to the new incarnation', {
      running: this.scheduler.snapshot().active.length,
    });
    const shared = this.shared;
    if (shared !== undefined) await untilDoneOrDeadline(request.deadline, () => shared.idle);
  }

  private stopForSuccessor(): void {
    if (this.forSuccessor) return;
    this.forSuccessor = true;
    this.draining ??= new WeakSet();
    this.consumer.stopTaking();
    this.scheduler.holdDispatch();
    this.shared?.quiesce();
  }

  /**
   * After the drain: the state the successor continues from (ComponentEnv.inherited). Pending requests go back into
   * the input in their order; active jobs, the inbox and the shared-state leases are handed on. The requests of the
   * active jobs and of the bypassed ones in flight stay taken: the runtime hands them to the successor's consumer
   * (SpawnOptions.adopt). This incarnation handles nothing more.
   */
  handOver(): JobNodeHandover {
    this.stopForSuccessor();
    this.handedOver = true;
    this.inbox.detach();
    const snap = this.scheduler.snapshot();
    this.scheduler.close();
    const requeued = new WeakSet<Message>();
    const requeue = (request: Request): void => {
      requeued.add(request.item);
      this.giveBack(request);
    };
    snap.waiting.forEach((job) => requeue(job.payload));
    this.env.status.count('pending', -snap.waiting.length);
    this.env.status.count('active', -snap.active.length);
    this.awaitingKey.forEach(requeue); // the successor claims their keys again
    this.awaitingKey.clear();
    const active = snap.active.map((job) => ({
      job,
      ruleset: this.rulesetName(job),
      workerLink: this.workers[job.worker].name,
      cell: this.requests.get(job.id)?.cell,
    }));
    this.requests.clear();
    for (const id of [...this.queries.keys()]) this.withdrawQuery(id); // the successor queries on its own heartbeat
    const bypassed = this.bypassSender.handOver();
    bypassed.waiting.forEach(requeue);
    const shared =
      this.shared !== undefined && this.settings.shared !== undefined ? { settings: this.settings.shared, limits: this.shared.handOver() } : undefined;
    this.shared = undefined;
    this.env.logger.info('handed over to the new incarnation', {
      activeJobs: active.length,
      pendingPutBack: snap.waiting.length,
      bypassInFlight: bypassed.placed.length,
      sharedLeasesKept: shared !== undefined,
    });
    return makeHandover({ node: this.env.name, input: this.input, inbox: this.inbox, active, requeued, shared });
  }

  /** Why `nextSettings` cannot replace this node now (docs/components/job-node.md#at-a-reload), or undefined. */
  refuseReplace(_ctx: ActorContext<JobNodeMessage>, nextSettings: unknown): string | undefined {
    const active = this.scheduler.snapshot().active.map((job) => ({ ruleset: this.rulesetName(job), workerLink: this.workers[job.worker].name }));
    return replaceRefusal(this.env.name, active, nextSettings);
  }

  /** Why a reload cannot remove this node now: it has active jobs (docs/components/job-node.md#at-a-reload). */
  refuseRemove(): string | undefined {
    return removeRefusal(
      this.env.name,
      this.scheduler.snapshot().active.map((job) => ({ ruleset: this.rulesetName(job), name: jobName(job) })),
    );
  }

  // ------------------------------------------------------------------ adopting a predecessor's jobs (reload)

  /** The handed-over active jobs keep running: the new scheduler counts them under the new settings. */
  private adoptJobs(handover: JobNodeHandover): void {
    for (const handed of handover.active) {
      const group = this.settings.rulesets.findIndex((r) => r.name === handed.ruleset && !r.bypass);
      const worker = this.workerIndex.get(handed.workerLink);
      if (group < 0 || worker === undefined) {
        // Only when refuseReplace was not asked: the job runs on, its completion releases its request.
        this.unowned.add(handed.job);
        this.env.logger.error("a running job's ruleset or worker outlink is gone after the reload: its completion is awaited, nothing more", {
          job: handed.job.id,
          ruleset: handed.ruleset,
          worker: handed.workerLink,
        });
        continue;
      }
      this.scheduler.adoptActive(handed.job, group, worker);
      if (handed.cell !== undefined) this.requests.set(handed.job.id, { worker, cell: handed.cell });
      this.env.status.count('active');
    }
    if (handover.active.length > 0) this.env.logger.info('took over running jobs from the previous incarnation', { jobs: handover.active.length });
  }

  receive(msg: JobNodeMessage): void {
    if (msg.type === 'status') {
      msg.reply(this.statusReport());
      return;
    }
    if (msg.token !== this.token) return; // from an earlier incarnation: its state is gone
    // Handed over: only the shared state's late answers still run (they give back what the successor does not count).
    if (this.handedOver && msg.type !== 'shared-state') return;
    switch (msg.type) {
      case 'worker-drained':
        this.scheduler.workerReady(msg.worker);
        return;
      case 'shared-state':
        if (!this.stopSignal.signal.aborted) msg.run();
        return;
    }
  }

  stop(): void {
    this.stopSignal.abort();
    this.scheduler?.close();
    if (this.shared !== undefined) this.closeSharedState(this.shared);
    // Withdraw what no consumer has taken: the input messages go back to the input queue (runtime), so
    // these copies would otherwise run twice.
    for (const p of [...this.requests.values(), ...this.queries.values()]) this.workers[p.worker]?.takeback(p.cell);
    this.bypassSender?.close();
  }

  private closeSharedState(shared: SharedLimits | SharedState): void {
    shared.close().catch((e) => this.env.logger.warn('cannot give back shared slots and keys; they lapse with their lease', { error: describeError(e) }));
  }

  private onEvent(event: JobEvent): void {
    switch (event.type) {
      case 'job-returned':
        this.onJobReturned(event.job, event.dispatch, event.workerLink, event.outcome);
        return;
      case 'query-returned':
        this.onQueryReturned(event.job, event.dispatch, event.workerLink, event.event, event.who);
        return;
      case 'bypass-returned':
        this.input.remove(event.request, event.outcome);
        return;
    }
  }

  // ------------------------------------------------------------------ arrivals

  private onRequest(request: Request): void {
    if (!this.requeued.has(request.item)) this.env.status.count('received');
    const shared = this.shared;
    if (shared === undefined) {
      this.admit(request);
      return;
    }
    const route = this.routeOf(request);
    const rs = this.settings.rulesets[route.group];
    if (route.key === undefined || rs.bypass) {
      this.admit(request);
      return;
    }
    const key = route.key;
    this.awaitingKey.add(request);
    shared.withKey(key, {
      duplicates: rs.spec.duplicates,
      submit: () => this.awaitingKey.delete(request) && this.admit(request),
      drop: () => {
        if (this.awaitingKey.delete(request)) this.dropDuplicate(request, route.group, key, 'a job with the same key is active or waiting on another instance');
      },
    });
  }

  /** Hands a request to the scheduler; true when it became a live job (pending, deferred or active). */
  private admit(request: Request): boolean {
    const env = this.env;
    if (this.draining !== undefined) {
      this.giveBack(request); // cleared for admission (SharedState) after the drain began
      return false;
    }
    const again = this.requeued.delete(request.item); // put back by a replaced predecessor: counted once already
    if (this.debug) env.logger.debug('ruleset matched', { id: traceIdOf(request.item), ruleset: this.settings.rulesets[this.routeOf(request).group].name });
    const admission = this.scheduler.submit(request);
    if (this.shared !== undefined && admission.kind !== 'bypass') this.shared.balance(admission.kind === 'dropped' ? admission.group : admission.job.group);
    switch (admission.kind) {
      case 'bypass':
        env.status.count('bypassed');
        displayMessage(
          env.logger,
          `bypassed (${this.settings.rulesets[admission.group].name})`,
          request.item,
          this.settings.displayMask,
          this.settings.stringProperty,
        );
        env.status.totals.trace?.routed(request.item, this.bypass.name);
        if (this.debug)
          env.logger.debug('outlink chosen', { id: traceIdOf(request.item), ruleset: this.settings.rulesets[admission.group].name, outlink: this.bypass.name });
        this.sendBypass(request);
        return false;
      case 'pending':
        if (!again) env.status.count('accepted');
        env.status.count('pending');
        return true;
      case 'deferred':
        if (!again) env.status.count('accepted');
        env.status.count('pending');
        if (!again) env.status.count('deferred');
        env.logger.debug('job deferred: a job with the same key is active or waiting', {
          job: admission.job.id,
          key: admission.job.key,
          ruleset: this.rulesetName(admission.job),
          holder: admission.holderId,
        });
        return true;
      case 'dropped':
        this.dropDuplicate(request, admission.group, admission.key, `job ${admission.holderId} with the same key is active or waiting`);
        return false;
    }
  }

  private dropDuplicate(request: Request, group: number, key: string, reason: string): void {
    const env = this.env;
    env.status.count('dropped');
    const rs = this.settings.rulesets[group];
    const who: JobIdentity = {
      node: env.name,
      ruleset: rs.name,
      job: { id: 0, key, dispatches: 0, dispatchedAt: 0 },
      worker: -1,
      workerLink: '',
      request: request.item,
      copy: rs.stringProperty,
    };
    this.escalate(noticeEvent(who, { status: 'DUPLICATE', priority: 'WARNING', reason }, Date.now()), rs.displayMask);
    this.input.remove(request, 'done');
  }

  // ------------------------------------------------------------------ SharedState

  /** `kept`: the predecessor's connection and leases (a reload), continued instead of a new connection. */
  private startSharedLimits(kept: SharedHandover | undefined, handover: JobNodeHandover | undefined): SharedLimits {
    const env = this.env;
    const cfg = this.settings.shared as NonNullable<JobNodeSettings['shared']>;
    const self = this.ctx.self;
    const token = this.token;
    const state = kept?.state ?? this.connectSharedState(cfg);
    if (kept !== undefined)
      env.logger.info('scheduling limits shared through Redis: leases of the previous incarnation kept', {
        namespace: cfg.namespace,
        slots: Object.fromEntries(kept.held),
      });
    return new SharedLimits(
      state,
      this.settings.rulesets.map((r) => r.spec),
      {
        demand: (g) => this.scheduler.activeIn(g) + this.scheduler.readyIn(g),
        active: (g) => this.scheduler.activeIn(g),
        thresholdsChanged: () => this.scheduler?.poke(),
        thresholdsStale: () => this.scheduler.invalidateThresholds(),
        later: (fn, ms) => void this.ctx.setTimeout(fn, ms),
        deliver: (run) => self.tell({ type: 'shared-state', token, run }),
        log: (level, text, fields) => env.logger[level](text, fields),
        clock: () => this.ctx.clock.now(),
      },
      { leaseMs: cfg.leaseMs, retryMs: this.settings.waitTimeMs },
      kept === undefined ? undefined : { held: kept.held, keyRefs: keyRefsOf(handover?.active.map((h) => h.job.key) ?? []), keys: kept.keys },
    );
  }

  private connectSharedState(cfg: NonNullable<JobNodeSettings['shared']>): SharedState {
    const env = this.env;
    let lastError = '';
    const state = new RedisSharedState({
      url: cfg.url,
      namespace: cfg.namespace,
      leaseMs: cfg.leaseMs,
      onError: (e) => {
        const text = redactText(e.message);
        if (text !== lastError) env.logger.warn('shared state (Redis) connection error; reconnecting', { error: text });
        lastError = text;
      },
    });
    env.logger.info('scheduling limits shared through Redis', {
      url: redactText(cfg.url),
      namespace: cfg.namespace,
      instance: state.instance,
      leaseMs: cfg.leaseMs,
    });
    return state;
  }

  private sharedStatus(): JobNodeStatus['shared'] {
    const shared = this.shared;
    if (shared === undefined) return undefined;
    const slots: Record<string, number> = {};
    this.settings.rulesets.forEach((r, g) => {
      if (!r.bypass) slots[r.name] = shared.heldSlots(g);
    });
    return { paused: shared.paused, slots, waitingForKeys: shared.waitingForKeys };
  }

  private routeOf(request: Request): { group: number; key: string | undefined } {
    let route = this.routes.get(request);
    if (route === undefined) {
      const group = this.matcher(request.item);
      route = { group, key: this.settings.rulesets[group].keyOf?.(request.item) };
      this.routes.set(request, route);
    }
    return route;
  }

  // ------------------------------------------------------------------ what the scheduler asks of us

  private port(): SchedulerPort<Request> {
    return {
      start: (job, worker) => this.startJob(job, worker),
      query: (job, worker) => this.queryJob(job, worker),
      abort: (job, worker) => this.abortJob(job, worker),
      notify: (event) => this.onSchedulerEvent(event),
    };
  }

  private queryJob(job: JobView<Request>, worker: number): boolean {
    if (this.draining !== undefined) return false; // a draining JobPersister takes nothing, so no query could be answered
    const sent = this.sendQuery(job, worker, 'query');
    if (sent) this.env.status.count('queries');
    return sent;
  }

  private abortJob(job: JobView<Request>, worker: number): boolean {
    this.withdrawQuery(job.id);
    const placed = this.requests.get(job.id);
    if (placed !== undefined && this.workers[worker].takeback(placed.cell) !== undefined) {
      this.requests.delete(job.id);
      return true; // the worker never saw it
    }
    if (this.sendQuery(job, worker, 'abort')) this.env.status.count('aborts');
    else this.env.logger.error('cannot send abort: worker outlink full', { job: job.id, worker: this.workers[worker].name });
    return false;
  }

  private onSchedulerEvent(event: SchedulerEvent<Request>): void {
    const env = this.env;
    const now = Date.now();
    switch (event.type) {
      case 'scheduled': {
        env.status.count('scheduled');
        env.status.count('pending', -1);
        env.status.count('active');
        displayMessage(
          env.logger,
          `scheduled (${this.rulesetName(event.job)}) on ${this.workers[event.job.worker].name}`,
          event.job.payload.item,
          this.settings.displayMask,
          this.settings.stringProperty,
        );
        env.status.totals.trace?.routed(event.job.payload.item, this.workers[event.job.worker].name);
        if (this.debug)
          env.logger.debug('outlink chosen', {
            id: traceIdOf(event.job.payload.item),
            job: event.job.id,
            ruleset: this.rulesetName(event.job),
            outlink: this.workers[event.job.worker].name,
          });
        this.escalateFor(event.job, event.job.worker, { status: 'SCHEDULED', priority: 'INFO', progress: '0' }, now);
        return;
      }
      case 'redispatched':
        if (this.draining !== undefined) this.giveBack(event.job.payload);
        traceJobEnd(event.job.payload.item, 'redispatched', event.reason);
        env.status.count('redispatched');
        env.status.count('active', -1);
        env.status.count('pending');
        this.requests.delete(event.job.id);
        this.withdrawQuery(event.job.id);
        this.escalateFor(event.job, event.worker, { status: 'REDISPATCHED', priority: 'WARNING', reason: event.reason }, now);
        return;
      case 'stuck':
        if (event.unanswered % STUCK_LOG_EVERY === 0)
          env.logger.warn('job seems stuck: its queries are not answered', {
            job: event.job.id,
            name: jobName(event.job),
            ruleset: this.rulesetName(event.job),
            unanswered: event.unanswered,
          });
        return;
      case 'ended':
        this.onEnded(event.job, event.end, event.reason, now);
        return;
    }
  }

  // ------------------------------------------------------------------ jobs on workers

  private startJob(job: JobView<Request>, worker: number): boolean {
    const q = this.workers[worker];
    const cell = tryReserveCell(q, this.partitions[FIRST_WORKER_OUTLINK + worker]);
    if (cell < 0) {
      this.retryWorkerLater(worker);
      return false;
    }
    const dispatch = job.dispatches;
    if (tracesMessage(job.payload.item))
      traceJobStart(job.payload.item, this.env.name, this.rulesetName(job), {
        'xroute.job.id': job.id,
        'xroute.job.group': job.group,
        'xroute.job.worker': q.name,
        'xroute.job.dispatch': dispatch,
        ...(job.key !== undefined ? { 'xroute.job.key': job.key } : {}),
      });
    const inbox = this.inbox;
    const workerLink = q.name;
    q.add(cell, job.payload.item, (_item, outcome) => inbox.push({ type: 'job-returned', job, dispatch, workerLink, outcome }));
    this.requests.set(job.id, { worker, cell });
    return true;
  }

  private sendQuery(job: JobView<Request>, worker: number, operation: QueryOperation): boolean {
    const q = this.workers[worker];
    const cell = tryReserveCell(q, this.partitions[FIRST_WORKER_OUTLINK + worker]);
    if (cell < 0) return false;
    const who = this.identity(job, worker);
    const dispatch = job.dispatches;
    const inbox = this.inbox;
    const workerLink = q.name;
    q.add(cell, queryEvent(who, operation, Date.now()), (event) => inbox.push({ type: 'query-returned', job, dispatch, workerLink, event, who }));
    if (operation === 'query') this.queries.set(job.id, { worker, cell });
    return true;
  }

  private onJobReturned(job: JobView<Request>, dispatch: number, workerLink: string, outcome: Outcome): void {
    this.requests.delete(job.id);
    if (this.draining?.has(job.payload) === true) return; // given back (OnStop kill): its receiver no longer has it
    const worker = this.workerIndex.get(workerLink) ?? -1;
    if (this.unowned.delete(job) || worker < 0) {
      this.input.remove(job.payload, outcome);
      if (worker >= 0) this.scheduler.workerReady(worker);
      return;
    }
    const current =
      outcome === 'done'
        ? this.scheduler.complete(job, dispatch)
        : this.scheduler.workerFailed(job, dispatch, `worker ${this.workers[worker].name} gave the request back as failed`);
    if (current === undefined) {
      this.env.status.count('lateReturns');
      this.env.logger.debug('a worker returned a request that had already ended (expired)', { job: job.id, worker: this.workers[worker].name, outcome });
    }
    this.scheduler.workerReady(worker); // a cell was freed in that outlink
  }

  private onQueryReturned(job: JobView<Request>, dispatch: number, workerLink: string, event: Message, who: JobIdentity): void {
    const worker = this.workerIndex.get(workerLink);
    if (worker === undefined) return; // a query of a worker outlink the reload removed
    const placed = this.queries.get(job.id);
    if (placed !== undefined && placed.worker === worker) this.queries.delete(job.id);
    this.scheduler.queryReturned(job, dispatch);
    if (job.state !== 'active' && event.getProperty(JOB_EVENT_PROPERTY) === 'query') {
      // A query (not an abort) that crossed the job's end (the worker answered after it had finished the job, typically
      // NOTFOUND): its final escalation is already out, so a query result after it would only mislead.
      this.env.status.count('lateQueryResults');
      this.env.logger.debug('query result for a job that has ended; not escalated', { job: job.id, status: event.getProperty('status') });
      this.scheduler.workerReady(worker);
      return;
    }
    const progress = event.getProperty('progress');
    if (progress !== undefined) this.lastProgress.set(job.id, progress);
    this.env.status.count('queryResults');
    const rs = this.settings.rulesets.find((r) => r.name === who.ruleset);
    this.escalate(queryResultEvent(event, who, Date.now()), rs?.displayMask ?? 0);
    this.scheduler.workerReady(worker);
  }

  private onEnded(job: JobView<Request>, end: 'completed' | 'failed' | 'expired', reason: string | undefined, now: number): void {
    const env = this.env;
    traceJobEnd(job.payload.item, end, reason);
    env.status.count('active', -1);
    this.requests.delete(job.id);
    if (this.shared !== undefined) {
      if (job.key !== undefined) this.shared.keyEnded(job.key);
      this.shared.jobEnded(job.group);
      const shared = this.shared;
      // Not inside the scheduler's own call: give back or ask for slots once it has settled.
      this.ctx.self.tell({ type: 'shared-state', token: this.token, run: () => shared.balance(job.group) });
    }
    this.withdrawQuery(job.id);
    const progress = this.lastProgress.get(job.id);
    this.lastProgress.delete(job.id);
    const rcField = this.settings.rcField;
    if (end === 'completed') {
      const rc = job.payload.item.getField(rcField);
      const ok = rc === '0';
      env.status.count(ok ? 'completed' : 'failed');
      this.escalateFor(
        job,
        job.worker,
        ok
          ? { status: 'FINISHED', priority: 'INFO', progress: '100', rcField, rc }
          : { status: 'FAILED', priority: 'ERR', progress, rcField, rc, reason: rc === undefined ? `the worker set no ${rcField}` : undefined },
        now,
      );
      this.input.remove(job.payload, 'done');
    } else if (end === 'failed') {
      env.status.count('failed');
      this.escalateFor(job, job.worker, { status: 'FAILED', priority: 'ERR', progress, reason }, now);
      this.input.remove(job.payload, 'failed');
    } else {
      env.status.count('expired');
      env.logger.warn('job expired (running away): TimeToLive reached', { job: job.id, name: jobName(job), ruleset: this.rulesetName(job) });
      this.escalateFor(job, job.worker, { status: 'EXPIRED', priority: 'ERR', progress, reason }, now);
      this.input.remove(job.payload, 'failed');
    }
  }

  private withdrawQuery(jobId: number): void {
    const q = this.queries.get(jobId);
    if (q === undefined) return;
    this.queries.delete(jobId);
    this.workers[q.worker].takeback(q.cell); // a query the worker already took comes back later and is escalated as late
  }

  private retryWorkerLater(worker: number): void {
    if (this.retryTimers.has(worker)) return;
    this.retryTimers.set(
      worker,
      this.ctx.setTimeout(() => {
        this.retryTimers.delete(worker);
        this.scheduler.workerReady(worker);
      }, this.settings.waitTimeMs),
    );
  }

  /** Worker outlinks still busy with a previous incarnation's jobs get no job until they are empty. */
  private adoptOrphanedWorkers(): void {
    const self = this.ctx.self;
    const token = this.token;
    this.workers.forEach((q, worker) => {
      if (q.size === 0 && q.stats().reserved === 0) return;
      if (this.scheduler.workerStateOf(worker) === 'busy') return; // runs a job adopted at a reload
      this.scheduler.workerUnavailable(worker);
      this.env.logger.warn('worker outlink still holds work from before a restart; no new job until it is empty', { worker: q.name, size: q.size });
      void q.whenEmpty().then(() => self.tell({ type: 'worker-drained', token, worker }));
    });
  }

  // ------------------------------------------------------------------ bypass (no flow control, back pressure only)

  private sendBypass(request: Request): void {
    const inbox = this.inbox;
    this.bypassSender.send(request, request.item, (_request, _item, outcome) => inbox.push({ type: 'bypass-returned', request, outcome }));
  }

  // ------------------------------------------------------------------ escalations

  private escalateFor(job: JobView<Request>, worker: number, details: NoticeDetails, now: number): void {
    const rs = this.settings.rulesets[job.group];
    this.escalate(noticeEvent(this.identity(job, worker), details, now), rs.displayMask);
  }

  /** Escalations go to notice untracked; a full notice drops them with an error log (as the original). */
  private escalate(event: Message, displayMask: number): void {
    if (displayMask > 0) this.logEscalation(event);
    const cell = tryReserveCell(this.notice, this.partitions[NOTICE_OUTLINK]);
    if (cell < 0) {
      this.env.status.count('noticeDropped');
      this.env.logger.error('notice outlink full: escalation dropped', { event: Object.fromEntries(event.properties) });
      return;
    }
    this.notice.add(cell, event);
    this.env.status.count('escalations');
  }

  private logEscalation(event: Message): void {
    const level: Record<string, 'info' | 'warn' | 'error'> = { INFO: 'info', WARNING: 'warn', ERR: 'error' };
    const priority = (event.getProperty('priority') ?? 'INFO') as EventPriority;
    this.env.logger[level[priority] ?? 'info']('job escalation', displayFields(event, 64));
  }

  private identity(job: JobView<Request>, worker: number): JobIdentity {
    const rs = this.settings.rulesets[job.group];
    return {
      node: this.env.name,
      ruleset: rs.name,
      job: { id: job.id, key: job.key, dispatches: job.dispatches, dispatchedAt: job.dispatchedAt },
      worker,
      workerLink: worker >= 0 ? this.workers[worker].name : '',
      request: job.payload.item,
      copy: rs.stringProperty,
    };
  }

  private rulesetName(job: JobView<Request>): string {
    return this.settings.rulesets[job.group].name;
  }

  // ------------------------------------------------------------------ status

  private statusReport(): JobNodeStatus {
    const snap = this.scheduler.snapshot();
    const summary = (job: JobView<Request>, state: JobSummary['state']): JobSummary => {
      const fields: Record<string, string> = {};
      for (const n of this.settings.stringProperty) {
        const v = job.payload.item.getField(n);
        if (v !== undefined) fields[n] = v;
      }
      return {
        id: job.id,
        ruleset: this.rulesetName(job),
        name: jobName(job),
        state,
        worker: state === 'active' ? this.workers[job.worker].name : undefined,
        since: new Date(state === 'active' ? job.dispatchedAt : job.acceptedAt).toISOString(),
        attempt: job.dispatches,
        fields,
      };
    };
    return {
      name: this.env.name,
      groups: snap.groups.map((g) => ({ ...g })),
      workers: snap.workers.map((state, w) => ({ link: this.workers[w].name, state, jobId: snap.active.find((j) => j.worker === w)?.id })),
      active: snap.active.map((j) => summary(j, 'active')),
      pending: snap.waiting.map((j) => summary(j, j.state === 'deferred' ? 'deferred' : 'pending')),
      counters: this.env.status.get().counters,
      shared: this.sharedStatus(),
    };
  }
}

export const jobNodeComponent: ComponentDefinition<JobNodeMessage, JobNodeSettings> = {
  className: 'node.JobNode',
  role: 'node',
  needsInput: true,
  runsOnStart: true,
  operations: ['schedule'],
  description:
    'Schedules job requests onto worker outlinks by ruleset priority, per-group threshold (optionally by time window) and job key; queries active jobs every heartbeat and escalates scheduling, query results, completion and expiry to the notice outlink.',
  schema: JOB_NODE_SCHEMA,
  settings: (name, config, _baseDir, context) => parseJobNodeSettings(name, config, { warn: context.warn }),
  validate: (config) => unknownRulesetKeys(config),
  create: (env, settings) => new JobNodeBehaviour(env, settings),
};

/** How many of the adopted jobs hold each key (SharedLimits counts its keys' live jobs). */
function keyRefsOf(keys: readonly (string | undefined)[]): Map<string, number> {
  const refs = new Map<string, number>();
  for (const key of keys) if (key !== undefined) refs.set(key, (refs.get(key) ?? 0) + 1);
  return refs;
}
