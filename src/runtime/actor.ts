/**
 * The one typed wrapper over nact that every component uses (supervision as operators see it: docs/operations.md).
 *
 * Each actor is a real nact actor: it gets its own mailbox and handles one message at a time. An idle consumer woken
 * by its XQueue, or an idle actor woken by its own waker (ActorContext.waker, e.g. a node's inbox), skips nact's
 * `setImmediate` turn (the fast path, ActorCell.deliver; bounded per event-loop turn by
 * src/runtime/fast-turn-budget.ts), still one message at a time. The wrapper
 * works around these nact 7.6.2 defects (each found by a test against nact itself):
 *  - supervision is done here, inside the handler: a crash never reaches nact's onCrash, so a throwing
 *    supervisor hook cannot kill the process, stateless actors cannot ignore the policy, and a parent is
 *    never resumed/reset by nact while it is busy (the escalation concurrency bug);
 *  - restart with back-off exists (nact has none): the behaviour is rebuilt from its factory after a delay;
 *  - the supervision tree is kept here and children are stopped explicitly, deepest first (nact's stop
 *    orphans children and leaves their timers running);
 *  - every nact actor is spawned directly under the system, so no actor pays nact's per-message copy of
 *    its children map (a pool with 512 children would otherwise slow down ~25x);
 *  - no nact query is used (its 32-bit temp ids collide under load); replies go through promises.
 * Timers started through the context are owned by the actor incarnation and cleared on restart and stop,
 * so a stopped flow leaves nothing behind and the process can exit by itself. They, the restart delays and the
 * crash window all run on the runtime's Clock (src/runtime/clock.ts): the real one, or a test's virtual one.
 */
import { dispatch, spawn, start as startNact, stop as stopNact, Ref, ActorSystemRef } from 'nact';
import { Backoff } from '../foundation/backoff';
import { Clock, ClockTimer, REAL_CLOCK } from './clock';
import { DEFAULT_POLICY, SupervisionPolicy } from './supervision-policy';
import { Logger, silentLogger } from '../logging/logger';
import { ConsumerHandle, ConsumerWaker, MessageTally, Taken, XQueue } from '../xqueue/xqueue';
import { addReports, DrainReport, DrainRequest } from './drain';
import { ChildFailedError, TooManyCrashesError } from './errors';
import { FAST_TURNS } from './fast-turn-budget';
import { Latch } from './latch';

type ActorStatus = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped' | 'failed';
export type StopReason = 'stop' | 'restart' | 'crash';

/** What a component implements. A new instance is made by the factory at start and at every restart. */
export interface Behaviour<Msg> {
  start?(ctx: ActorContext<Msg>): void | Promise<void>;
  receive?(msg: Msg, ctx: ActorContext<Msg>): void | Promise<void>;
  /**
   * Drain before a stop (src/runtime/drain.ts): take no new work, finish or give back what was taken, resolve
   * by the request's deadline. A receiver reports what it acknowledged and gave back. Stop follows.
   */
  drain?(ctx: ActorContext<Msg>, request: DrainRequest): void | DrainReport | Promise<void | DrainReport>;
  /** Release resources (connections, sockets). Called on stop and before a restart. Must not throw. */
  stop?(ctx: ActorContext<Msg>, reason: StopReason): void | Promise<void>;
  /**
   * On a reload that replaces this component, after its drain and before its stop: the state the next
   * incarnation continues from (ComponentEnv.inherited). Work still running is handed over, not ended.
   */
  handOver?(ctx: ActorContext<Msg>): unknown;
  /**
   * Asked while a reload is planned, before anything changes: why this running incarnation cannot be replaced by
   * one with `nextSettings` (e.g. a JobNode ruleset with active jobs that the new settings drop), or undefined.
   */
  refuseReplace?(ctx: ActorContext<Msg>, nextSettings: unknown): string | undefined;
  /**
   * Asked while a reload is planned, before anything changes: why this running incarnation cannot be removed now
   * (e.g. a JobNode with active jobs, which a drain as at a stop would give back to run again), or undefined.
   */
  refuseRemove?(ctx: ActorContext<Msg>): string | undefined;
}

export type BehaviourFactory<Msg> = () => Behaviour<Msg>;

export interface SpawnOptions {
  policy?: SupervisionPolicy;
  logger?: Logger;
  /** Counts the messages this actor takes from its queues and how it finishes them (kept across restarts). */
  tally?: MessageTally;
  /**
   * A reload's new incarnation: the consumers its predecessor handed over (HandedOver.consumers). The first
   * consume() of each queue takes over what they hold; those not taken over by the end of start are put back.
   */
  adopt?: readonly HeldConsumer[];
  /** Told of each crash (before supervision acts on it), e.g. to keep the component's recent errors. */
  onCrash?: (error: unknown) => void;
}

/** A consumer whose taken messages wait, still taken, for the next incarnation (XQueue.holdForHandOver). */
export interface HeldConsumer {
  readonly queue: XQueue<unknown>;
  readonly handle: ConsumerHandle;
  /** Messages it holds. */
  readonly held: number;
}

/** What a replaced incarnation handed over (ActorRef.handOver): its behaviour's state and its held messages. */
export interface HandedOver {
  readonly state: unknown;
  readonly consumers: readonly HeldConsumer[];
}

export interface TimerHandle {
  readonly id: number;
}

/**
 * Handed to a behaviour: its own identity, timers, children and XQueue consumers. Its methods, like an ActorRef's, are
 * shared on a prototype (issue 32): call them on the context (`ctx.guard(fn)`) or bind them; taken off it
 * (`const { guard } = ctx`) they have no `this`.
 */
export interface ActorContext<Msg> {
  readonly name: string;
  readonly path: string;
  readonly self: ActorRef<Msg>;
  readonly logger: Logger;
  /** 0 for the first incarnation, +1 per restart. */
  readonly incarnation: number;
  readonly policy: SupervisionPolicy;
  /** The runtime's clock: read the time here (not Date.now) so that a test's virtual clock drives this actor too. */
  readonly clock: Clock;
  tell(msg: Msg): void;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  setInterval(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle | undefined): void;
  spawn<M>(name: string, factory: BehaviourFactory<M>, options?: SpawnOptions): ActorRef<M>;
  children(): ActorRef<unknown>[];
  /**
   * Wraps a callback from outside the actor (a socket or broker event): a throw becomes a crash of this actor. With
   * `self`, `fn` is called as its method (`fn.call(self, ...)`): a method guarded with no closure made around it.
   */
  guard<A extends unknown[]>(fn: (...args: A) => void | Promise<void>, self?: object): (...args: A) => void;
  /** Reports an asynchronous failure as a crash of this actor (supervision decides). */
  fail(error: unknown): void;
  /** Stops this actor once the current message is handled (never await your own stop inside receive). */
  stopSelf(): void;
  /**
   * Pulls from an XQueue (the consumer pulls; docs/architecture.md): `onMessage` runs for each taken message, one at a time, inside this
   * actor. The handler removes the message itself (now, or later for pipelined work). A crash puts every
   * message this actor holds back into the queue. Attachments end with the incarnation. With `self`, `onMessage` is
   * called as its method (`onMessage.call(self, ...)`), as guard's: a method consumes with no bound function made.
   */
  consume<T>(queue: XQueue<T>, onMessage: (taken: Taken<T>, queue: XQueue<T>) => void | Promise<void>, options?: ConsumeOptions, self?: object): QueueConsumer;
  /**
   * A wake-up of this incarnation, for a signal from outside its turns (an inbox whose events arrived, actors/nodes/inbox.ts):
   * each call of the returned function runs `onWake` in a turn of this actor, handled as an XQueue pull is: when the
   * actor is idle with nothing queued, in a microtask of the calling turn (the fast path, within its per-turn budget),
   * else through nact after what is queued. `onWake` must be synchronous; a throw is a crash of this actor. A wake
   * reaching a later incarnation is ignored.
   */
  waker(onWake: () => void): () => void;
}

interface ConsumeOptions {
  /** Messages handled per actor turn before yielding to the event loop (default 256). */
  batch?: number;
  /** Stop taking while this many messages taken by this consumer are not yet removed (default unlimited). */
  maxInFlight?: number;
}

export interface QueueConsumer {
  readonly handle: ConsumerHandle;
  /** Call after removing a message when maxInFlight is used, so taking resumes (a no-op unless maxInFlight held taking back). */
  poke(): void;
  /** Messages this consumer has taken and not yet removed. */
  inFlight(): number;
  /** Takes nothing more from the queue (a draining component); what it holds stays held. */
  stopTaking(): void;
}

export interface ActorRef<Msg> {
  readonly name: string;
  readonly path: string;
  tell(msg: Msg): void;
  /** Stops the actor and its children (deepest first). Resolves when every behaviour's stop has run. */
  stop(): Promise<void>;
  /** Asks the running behaviour and its children's to drain (Behaviour.drain); their reports added up. */
  drain(request: DrainRequest): Promise<DrainReport | undefined>;
  /** This actor and its children take nothing more from their queues; what they hold stays held (a reload's drain). */
  stopTaking(): void;
  /** Messages this actor and its children have taken from their queues and not yet removed or put back. */
  held(): number;
  /**
   * Between two messages, Behaviour.refuseReplace of the running incarnation: why it cannot be replaced by one
   * with `nextSettings`, or undefined (also when it is not running or does not implement it).
   */
  refuseReplace(nextSettings: unknown): Promise<string | undefined>;
  /** Between two messages, Behaviour.refuseRemove of the running incarnation (undefined as for refuseReplace). */
  refuseRemove(): Promise<string | undefined>;
  /**
   * Between two messages, Behaviour.handOver of the running incarnation. When it implements one, the messages
   * it holds stay taken through its stop, for the next incarnation to adopt (SpawnOptions.adopt). Undefined when
   * the behaviour has no handOver or is not running.
   */
  handOver(): Promise<HandedOver | undefined>;
  /** The running incarnation implements Behaviour.handOver (a reload hands its work over instead of waiting for it). */
  handsOver(): boolean;
  status(): ActorStatus;
  restarts(): number;
  /** The error of the last crash (or of the failure that ended the actor), if any. */
  lastError(): unknown;
  /** Resolves when the actor has stopped (for any reason). */
  terminated(): Promise<void>;
}

/** A consumer's wake-up: the XQueue signals that it may take. The consumer's entry is its own envelope. */
type Pull = ConsumerEntry<unknown>;

/** A behaviour's wake-up (ActorContext.waker): run `onWake` in a turn of the incarnation that made it. */
interface Wake {
  kind: 'wake';
  onWake: () => void;
  incarnation: number;
}

/** The envelopes the fast path may run: wake-ups whose handling is synchronous and needs no behaviour message. */
type FastEnvelope = Pull | Wake;

type Envelope<Msg> =
  | { kind: 'start' }
  | { kind: 'user'; msg: Msg }
  | Pull
  | Wake
  | { kind: 'crash'; error: unknown; incarnation: number }
  | { kind: 'child-failed'; child: string; error: unknown };

/** Where a consumer entry's wake-up goes: its actor (ActorCell.deliver). */
interface PullTarget {
  deliver(env: Pull): void;
}

/**
 * An actor's consumer of one queue. It is also its own wake-up envelope (kind 'pull') and the queue's waker: a wake
 * hands the entry itself to its actor, with no envelope, closure or context per consumer for a wake to read (issue 32).
 */
class ConsumerEntry<T> implements ConsumerWaker {
  readonly kind = 'pull';
  handle: ConsumerHandle;
  /**
   * The last drain stopped at maxInFlight: the consumer is still marked scheduled in its queue, and poke() parks it.
   * Otherwise it is idle (the queue wakes it) or a pull of it is on its way, and a park would wake it a second time.
   */
  heldBack = false;
  active = true;
  /**
   * Its behaviour stopped taking (QueueConsumer.stopTaking), carried over to the next entry on a resume: kept here, not
   * on the binding, so that a pull reads no object beside the entry (with 512 pooled children each is a cache miss per
   * message; issue 32).
   */
  stopped = false;
  /** The QueueConsumer given to the behaviour follows the entry across a resume. */
  binding: ConsumerBinding<T> | undefined = undefined;

  constructor(
    private readonly target: PullTarget,
    readonly queue: XQueue<T>,
    readonly onMessage: (taken: Taken<T>, queue: XQueue<T>) => void | Promise<void>,
    /** What `onMessage` is called on (ActorContext.consume's `self`): held here, where a pull reads it anyway. */
    readonly self: object | undefined,
    readonly batch: number,
    readonly maxInFlight: number,
    readonly incarnation: number,
    name: string,
    tally: MessageTally | undefined,
  ) {
    this.handle = queue.attach(name, this, tally);
  }

  wake(): void {
    this.target.deliver(this as ConsumerEntry<unknown>);
  }
}

/**
 * The QueueConsumer a behaviour holds: a class, not an object literal with a getter, which V8 keeps in dictionary mode
 * (a hash lookup for each poke(), per message, and 700 bytes per consumer; issue 32).
 */
class ConsumerBinding<T> implements QueueConsumer {
  constructor(
    /** Replaced when the consumer is attached again (a resume); the entry's `binding` points back here. */
    public entry: ConsumerEntry<T>,
    private readonly queue: XQueue<T>,
  ) {
    entry.binding = this;
  }

  get handle(): ConsumerHandle {
    return this.entry.handle;
  }

  poke(): void {
    const entry = this.entry;
    if (!entry.active || !entry.heldBack) return;
    entry.heldBack = false;
    this.queue.park(entry.handle);
  }

  inFlight(): number {
    return this.entry.active ? this.queue.heldBy(this.entry.handle) : 0;
  }

  stopTaking(): void {
    this.entry.stopped = true;
  }
}

let nactNameCounter = 0;

/** The children of every actor that has spawned none, shared: spawnChild gives an actor its own map before adding. */
const NO_CHILDREN = new Map<string, ActorCell<unknown>>();
/** The crash times and predecessor consumers of every actor that has none, shared (always empty: never pushed to). */
const NO_CRASHES: readonly number[] = [];
const NO_HELD: readonly HeldConsumer[] = [];

/** What the fast path schedules its microtask on (ActorCell.deliver). */
const RESOLVED: Promise<void> = Promise.resolve();

/**
 * How often each message has crashed a consumer, per queue. Kept outside the actor so that a poison message
 * is recognised whichever actor takes it next: the same one restarted, a new child spawned by a parent after
 * an escalation, or a replacement after a stop (a per-actor count would start again at 0 and loop forever).
 */
const messageFailures = new WeakMap<XQueue<unknown>, WeakMap<object, number>>();

/** The root of a supervision tree: owns the nact system. */
export class ActorRuntime {
  readonly nact: ActorSystemRef;
  private readonly roots = new Map<string, ActorCell<unknown>>();
  private stopped = false;

  constructor(
    readonly name = 'xroute',
    readonly logger: Logger = silentLogger,
    /** Every timer and time reading of the runtime's actors (a test passes a virtual clock). */
    readonly clock: Clock = REAL_CLOCK,
  ) {
    // nact 7.6.2's start() ignores a plain string name (its typings say otherwise); the object form works at runtime.
    this.nact = (startNact as unknown as (o: { name: string }) => ActorSystemRef)({ name: `${name}-${process.pid}-${++nactNameCounter}` });
  }

  spawn<M>(name: string, factory: BehaviourFactory<M>, options: SpawnOptions = {}): ActorRef<M> {
    if (this.stopped) throw new Error(`actor runtime ${this.name} is stopped`);
    if (this.roots.has(name)) throw new Error(`an actor named ${name} already exists`);
    const cell = new ActorCell<M>(
      this,
      undefined,
      name,
      factory,
      options.policy ?? DEFAULT_POLICY,
      options.logger ?? this.logger.child({ actor: name }),
      options.tally,
      options.adopt,
      options.onCrash,
    );
    this.roots.set(name, cell as ActorCell<unknown>);
    cell.terminated().then(() => {
      if (this.roots.get(name) === (cell as ActorCell<unknown>)) this.roots.delete(name);
    });
    cell.begin();
    return cell.ref;
  }

  actors(): ActorRef<unknown>[] {
    return [...this.roots.values()].map((c) => c.ref);
  }

  /** Stops every actor, deepest first, then the nact system. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([...this.roots.values()].map((c) => c.stopNow('stop')));
    stopNact(this.nact);
  }
}

class ActorCell<Msg> {
  // The fields every message reads (deliver, the fast turn, drain, guard) come first, so that they share the object's
  // first cache lines: with 512 pooled children each line is a miss per message (issue 32).
  state: ActorStatus = 'starting';
  /**
   * 0 for the first incarnation, +1 per restart; the context holds a copy for the behaviour. The cell reads its own on
   * every pull and guarded callback: one object fewer per message than reading the context's (issue 32).
   */
  incarnation = 0;
  /** Envelopes handed to nact and not yet handled. The fast path is taken only when there are none. */
  private queued = 0;
  /** A fast turn is running (see deliver): what is delivered meanwhile waits in `deferred`, then goes to nact in order. */
  private fast = false;
  private fastPull: FastEnvelope | undefined;
  /** Guarded callbacks of this actor running now (nested ones count): a fast turn woken meanwhile runs when they end. */
  private guarded = 0;
  /** A fast turn woken inside a guarded callback, to run when it returns (instead of in a microtask). */
  private fastAtGuardEnd = false;
  /** Made at the first envelope a fast turn defers (most turns defer none). */
  private deferred: Envelope<Msg>[] | undefined;
  private readonly runtime: ActorRuntime;
  private readonly parent: ActorCell<unknown> | undefined;
  readonly name: string;
  private readonly factory: BehaviourFactory<Msg>;
  readonly policy: SupervisionPolicy;
  readonly logger: Logger;
  private readonly tally: MessageTally | undefined;
  private readonly onCrash: ((error: unknown) => void) | undefined;
  readonly path: string;
  readonly ref: ActorRef<Msg>;
  private readonly nactRef: Ref<Envelope<Msg>>;
  /** NO_CHILDREN (shared, always empty) until the first child: most actors have none (a pool's 512 children). */
  children: Map<string, ActorCell<unknown>> = NO_CHILDREN;
  behaviour: Behaviour<Msg> | undefined;
  restartCount = 0;
  private crashTimes: readonly number[] = NO_CRASHES;
  lastError: unknown;
  /** Made at the first restart: most actors never crash. */
  private backoff: Backoff | undefined;
  /** Live timers of this incarnation by id; an interval re-arms its entry's one-shot timer at each tick. */
  private readonly timers = new Map<number, { timer: ClockTimer }>();
  private timerIds = 0;
  private consumers: ConsumerEntry<unknown>[] = [];
  /** Consumers of a predecessor whose held messages this actor's first consume() of their queue takes over. */
  private adoptable: readonly HeldConsumer[];
  private sleeping: { timer: ClockTimer; wake: () => void } | undefined;
  /** The envelope being handled, or a settled promise (the shared one: a cell keeps no promise of its own while idle). */
  private busy: Promise<void> = RESOLVED;
  private readonly fastTurn = (): void => this.runFastTurn();
  private stopPromise: Promise<void> | undefined;
  /** Opens once the first start has been handled (or the actor stopped before it). */
  private readonly begun = new Latch();
  private readonly stoppedLatch = new Latch();
  readonly ctx: CellContext<Msg>;

  constructor(
    runtime: ActorRuntime,
    parent: ActorCell<unknown> | undefined,
    name: string,
    factory: BehaviourFactory<Msg>,
    policy: SupervisionPolicy,
    logger: Logger,
    tally?: MessageTally,
    adopt: readonly HeldConsumer[] = [],
    onCrash?: (error: unknown) => void,
  ) {
    this.runtime = runtime;
    this.parent = parent;
    this.name = name;
    this.factory = factory;
    this.policy = policy;
    this.logger = logger;
    this.tally = tally;
    this.onCrash = onCrash;
    this.adoptable = adopt.length === 0 ? NO_HELD : [...adopt];
    this.path = parent ? `${parent.path}/${name}` : name;
    const nactName = `a${++nactNameCounter}-${name.replace(/[^a-z0-9-$_.+!*'(),]/gi, '_')}`.slice(0, 200);
    this.nactRef = spawn(runtime.nact, (state: number, env: Envelope<Msg>) => this.handleQueued(state, env), nactName, {
      initialState: 0,
      // Never reached (handle() catches everything); guarded anyway so a surprise cannot kill the process.
      onCrash: stopOnNactCrash,
    } as never) as Ref<Envelope<Msg>>;
    this.ref = new CellRef(this);
    this.ctx = new CellContext(this, runtime.clock);
  }

  begin(): void {
    this.deliver({ kind: 'start' });
  }

  terminated(): Promise<void> {
    return this.stoppedLatch.wait();
  }

  /**
   * Hands an envelope to nact, which runs it in a `setImmediate` turn once the ones before it are handled. The fast
   * path: an XQueue waking this actor while it has nothing queued or running (an idle consumer and a message just
   * added), or a wake-up of its own (ActorContext.waker: an inbox's completions), runs the pull or wake in a microtask
   * of the waking turn instead, within the process's FastTurnBudget. It is still
   * one envelope at a time: whatever is delivered while it runs waits and goes to nact, in order, when it ends.
   * Woken from inside one of its own guarded callbacks (a reply a persister reads completes a request, whose producer
   * puts the next one from its completion callback), the pull runs as that callback returns: still not inside the
   * behaviour's code, and without a microtask per message (issue 32).
   */
  deliver(env: Envelope<Msg>): void {
    if (this.state === 'stopped' || this.state === 'stopping' || this.state === 'failed') return;
    if (this.fast) (this.deferred ??= []).push(env);
    else if ((env.kind === 'pull' || env.kind === 'wake') && this.queued === 0 && FAST_TURNS.available()) {
      this.fast = true;
      this.fastPull = env;
      if (this.guarded > 0) this.fastAtGuardEnd = true;
      // A reaction to a resolved promise, not queueMicrotask: the same microtask queue, without the AsyncResource and
      // bound function Node makes for each queueMicrotask, per message (issue 32).
      // runFastTurn never throws (pullNow supervises), so no rejection can come of it.
      else void RESOLVED.then(this.fastTurn);
    } else this.toNact(env);
  }

  private toNact(env: Envelope<Msg>): void {
    this.queued++;
    dispatch(this.nactRef, env);
  }

  /**
   * A pull on the fast path. While its handlers return synchronously it ends synchronously (the next wake can take
   * the fast path again at once); an asynchronous handler makes the rest of it a promise, awaited like a nact turn.
   */
  private runFastTurn(): void {
    const env = this.fastPull as FastEnvelope;
    this.fastPull = undefined;
    const rest = env.kind === 'pull' ? this.pullNow(env) : this.wakeNow(env);
    if (rest === undefined) this.endFast();
    else this.endFastAfter(rest);
  }

  /** An asynchronous handler's fast turn ends when its promise does (a closure then only: most turns end at once). */
  private endFastAfter(rest: Promise<void>): void {
    void rest.then(() => this.endFast());
  }

  /** The fast turn is over: what was delivered during it goes to nact, in order. */
  private endFast(): void {
    this.fast = false;
    if (this.deferred === undefined || this.deferred.length === 0) return;
    for (const next of this.deferred.splice(0)) {
      if (this.state === 'stopped' || this.state === 'stopping' || this.state === 'failed') return;
      this.toNact(next);
    }
  }

  /** An envelope nact runs, one at a time; a pull whose handlers are synchronous is over when this returns. */
  private handleQueued(state: number, env: Envelope<Msg>): number | Promise<number> {
    const rest = env.kind === 'pull' ? this.pullNow(env) : env.kind === 'wake' ? this.wakeNow(env) : this.handle(env);
    if (rest === undefined) {
      this.queued--;
      return state;
    }
    return rest.then(() => {
      this.queued--;
      return state;
    });
  }

  /** Runs one envelope (from nact or the fast path, never two at once). Never throws. */
  private handle(env: Envelope<Msg>): Promise<void> {
    const run = this.process(env);
    this.busy = run;
    return run;
  }

  /**
   * A pull, synchronously as far as its handlers are: undefined once it is over, else the promise of the rest (then
   * also `busy`). Never throws: a crash is supervised, as in process().
   */
  private pullNow(pull: Pull): Promise<void> | undefined {
    if (this.state === 'stopped' || this.state === 'stopping' || this.state === 'failed') return undefined;
    let rest: Promise<void> | undefined;
    try {
      rest = this.drain(pull);
      if (rest !== undefined) rest = rest.catch((error: unknown) => this.supervise(error));
    } catch (error) {
      rest = this.supervise(error);
    }
    if (rest !== undefined) this.busy = rest;
    return rest;
  }

  /**
   * A wake-up, synchronously: undefined once `onWake` returned, else (it threw) the promise of the crash's supervision
   * (then also `busy`). On the fast path it spends one message of the turn's budget. Never throws.
   */
  private wakeNow(wake: Wake): Promise<void> | undefined {
    if (this.state !== 'running' || wake.incarnation !== this.incarnation) return undefined;
    if (this.fast) FAST_TURNS.spend();
    try {
      wake.onWake();
      return undefined;
    } catch (error) {
      const rest = this.supervise(error);
      this.busy = rest;
      return rest;
    }
  }

  private async process(env: Envelope<Msg>): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping' || this.state === 'failed') return;
    try {
      switch (env.kind) {
        case 'start':
          try {
            await this.startBehaviour();
          } finally {
            this.begun.open();
          }
          return;
        case 'user':
          if (this.behaviour?.receive) await this.behaviour.receive(env.msg, this.ctx);
          return;
        case 'pull':
          await this.pullNow(env);
          return;
        case 'wake':
          await this.wakeNow(env);
          return;
        case 'crash':
          if (env.incarnation === this.incarnation) throw env.error;
          return;
        case 'child-failed':
          throw new ChildFailedError(env.child, env.error);
      }
    } catch (error) {
      await this.supervise(error);
    }
  }

  private async startBehaviour(): Promise<void> {
    try {
      this.behaviour = this.factory();
      this.state = 'running';
      if (this.behaviour.start) await this.behaviour.start(this.ctx);
    } finally {
      this.releaseUnadopted();
    }
  }

  /** What a predecessor held and this incarnation's start did not take over goes back to its queue, in order. */
  private releaseUnadopted(): void {
    const left = this.adoptable;
    this.adoptable = NO_HELD;
    for (const held of left) held.queue.detach(held.handle);
  }

  // ------------------------------------------------------------------ supervision

  private async supervise(error: unknown): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    const now = this.runtime.clock.now();
    const { strategy, maxRetry, withinMs } = this.policy;
    if (this.crashTimes.length > 0 && now - this.crashTimes[this.crashTimes.length - 1] > withinMs) this.backoff?.reset();
    this.crashTimes = [...this.crashTimes.filter((t) => now - t <= withinMs), now];
    this.lastError = error;
    this.onCrash?.(error);
    this.logger.error('actor crashed', { actor: this.path, strategy, crashes: this.crashTimes.length, error: describe(error) });
    // Whatever the strategy, messages held by the crashed incarnation go back to their queues.
    this.releaseConsumers(strategy === 'resume');
    if (strategy === 'escalate' || ((strategy === 'restart' || strategy === 'resume') && this.crashTimes.length > maxRetry)) {
      const reason = strategy === 'escalate' ? error : new TooManyCrashesError(this.path, this.crashTimes.length, withinMs, error);
      this.lastError = reason;
      await this.escalate(reason);
      return;
    }
    if (strategy === 'resume') return;
    if (strategy === 'stop') {
      await this.stopNow('crash');
      return;
    }
    await this.restart();
  }

  private async restart(): Promise<void> {
    this.state = 'restarting';
    await this.teardown('restart');
    const delay = (this.backoff ??= new Backoff(this.policy.backoff)).next();
    await this.sleep(delay);
    if (this.state !== 'restarting') return;
    this.incarnation++;
    this.ctx.incarnation = this.incarnation;
    this.restartCount++;
    this.logger.info('actor restarting', { actor: this.path, restart: this.restartCount, delayMs: delay });
    try {
      await this.startBehaviour();
    } catch (error) {
      await this.supervise(error);
    }
  }

  /** Hands the failure to the parent (whose own policy then applies to it), or stops at the top. */
  private async escalate(error: unknown): Promise<void> {
    const parent = this.parent;
    await this.stopNow('crash', 'failed');
    if (parent) parent.deliver({ kind: 'child-failed', child: this.path, error });
    else this.logger.error('top-level actor stopped after failure', { actor: this.path, error: describe(error) });
  }

  reportCrash(error: unknown): void {
    this.deliver({ kind: 'crash', error, incarnation: this.incarnation });
  }

  guard<A extends unknown[]>(fn: (...args: A) => void | Promise<void>, self?: object): (...args: A) => void {
    const incarnation = this.incarnation;
    return (...args: A) => {
      if (incarnation !== this.incarnation || this.state === 'stopped') return;
      this.guarded++;
      try {
        const r = fn.apply(self, args);
        if (r && typeof (r as Promise<void>).then === 'function') (r as Promise<void>).catch((e) => this.reportCrash(e));
      } catch (e) {
        this.reportCrash(e);
      } finally {
        this.guarded--;
      }
      if (this.guarded === 0 && this.fastAtGuardEnd) {
        this.fastAtGuardEnd = false;
        this.runFastTurn();
      }
    };
  }

  // ------------------------------------------------------------------ drain and stop

  async drainNow(request: DrainRequest): Promise<DrainReport | undefined> {
    const own = async (): Promise<DrainReport | undefined> => {
      const b = this.behaviour;
      if (this.state !== 'running' || b?.drain === undefined) return undefined;
      try {
        return (await b.drain(this.ctx, request)) ?? undefined;
      } catch (error) {
        this.logger.warn('behaviour drain failed; it is stopped without one', { actor: this.path, error: describe(error) });
        return undefined;
      }
    };
    return addReports(await Promise.all([own(), ...[...this.children.values()].map((c) => c.drainNow(request))]));
  }

  stopTakingAll(): void {
    for (const e of this.consumers) e.stopped = true;
    for (const c of this.children.values()) c.stopTakingAll();
  }

  heldAll(): number {
    let n = 0;
    for (const e of this.consumers) if (e.active) n += e.queue.heldBy(e.handle);
    for (const c of this.children.values()) n += c.heldAll();
    return n;
  }

  /** Resolves at a moment no message of this actor is being handled (what a reload asks is asked between two). */
  private async betweenMessages(): Promise<void> {
    if (!this.begun.isOpen && !this.stoppedLatch.isOpen) await Promise.race([this.begun.wait(), this.stoppedLatch.wait()]);
    for (;;) {
      const current = this.busy;
      await current;
      if (current === this.busy) return;
    }
  }

  /** A reload's question to the running behaviour (refuseReplace, refuseRemove), between two messages. */
  async askBetweenMessages(ask: (b: Behaviour<Msg>) => string | undefined): Promise<string | undefined> {
    await this.betweenMessages();
    const b = this.behaviour;
    if (this.state !== 'running' || b === undefined) return undefined;
    return ask(b);
  }

  async handOverNow(): Promise<HandedOver | undefined> {
    await this.betweenMessages();
    const b = this.behaviour;
    if (this.state !== 'running' || b?.handOver === undefined) return undefined;
    const state: unknown = await b.handOver(this.ctx);
    // Taken out of this incarnation's consumers: its stop then leaves what they hold taken, for the next one.
    const handed = this.consumers.filter((e) => e.active);
    this.consumers = this.consumers.filter((e) => !e.active);
    const consumers = handed.map((e): HeldConsumer => {
      e.active = false;
      e.stopped = true;
      return { queue: e.queue, handle: e.handle, held: e.queue.holdForHandOver(e.handle) };
    });
    return { state, consumers };
  }

  stopNow(reason: StopReason, finalState: 'stopped' | 'failed' = 'stopped'): Promise<void> {
    if (!this.stopPromise) this.stopPromise = this.doStop(reason, finalState);
    return this.stopPromise;
  }

  private async doStop(reason: StopReason, finalState: 'stopped' | 'failed'): Promise<void> {
    const wasProcessing = this.busy;
    this.state = 'stopping';
    this.wakeFromSleep();
    // Let the message being handled finish unless we are called from inside it (a crash path).
    if (reason === 'stop') {
      let graceTimer: ClockTimer | undefined;
      const grace = new Promise<void>((r) => (graceTimer = this.runtime.clock.set(r, 5000, { unref: true })));
      await Promise.race([wasProcessing, grace]);
      this.runtime.clock.clear(graceTimer);
    }
    await this.teardown(reason);
    stopNact(this.nactRef);
    this.state = finalState;
    this.parent?.children.delete(this.name);
    this.stoppedLatch.open();
  }

  /** Children deepest first, then our own consumers, timers and behaviour. */
  private async teardown(reason: StopReason): Promise<void> {
    await Promise.all([...this.children.values()].map((c) => c.stopNow('stop')));
    this.children.clear();
    this.releaseConsumers(false);
    this.clearAllTimers();
    const b = this.behaviour;
    this.behaviour = undefined;
    if (b?.stop) {
      try {
        await b.stop(this.ctx, reason);
      } catch (error) {
        this.logger.warn('behaviour stop failed', { actor: this.path, error: describe(error) });
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.runtime.clock.set(() => {
        this.sleeping = undefined;
        resolve();
      }, ms);
      this.sleeping = { timer, wake: resolve };
    });
  }

  private wakeFromSleep(): void {
    if (this.sleeping) {
      this.runtime.clock.clear(this.sleeping.timer);
      const wake = this.sleeping.wake;
      this.sleeping = undefined;
      wake();
    }
  }

  // ------------------------------------------------------------------ children and timers

  spawnChild<M>(name: string, factory: BehaviourFactory<M>, options: SpawnOptions): ActorRef<M> {
    if (this.state === 'stopping' || this.state === 'stopped') throw new Error(`cannot spawn ${name}: ${this.path} is ${this.state}`);
    if (this.children.has(name)) throw new Error(`${this.path} already has a child named ${name}`);
    const child = new ActorCell<M>(
      this.runtime,
      this as ActorCell<unknown>,
      name,
      factory,
      options.policy ?? this.policy,
      options.logger ?? this.logger.child({ actor: `${this.path}/${name}` }),
      options.tally,
      options.adopt,
      options.onCrash,
    );
    if (this.children === NO_CHILDREN) this.children = new Map();
    this.children.set(name, child as ActorCell<unknown>);
    child.begin();
    return child.ref;
  }

  addTimer(fn: () => void, ms: number, interval: boolean): TimerHandle {
    const id = ++this.timerIds;
    const clock = this.runtime.clock;
    // An interval is a one-shot timer re-armed before each run (as Node's setInterval does), so a clock needs only
    // one kind of timer; clearTimer from inside fn clears the re-armed one.
    const guarded = this.guard(() => {
      if (interval) entry.timer = clock.set(guarded, ms);
      else this.timers.delete(id);
      fn();
    });
    const entry = { timer: clock.set(guarded, ms) };
    this.timers.set(id, entry);
    return { id };
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (!t) return;
    this.runtime.clock.clear(t.timer);
    this.timers.delete(handle.id);
  }

  private clearAllTimers(): void {
    for (const [id] of this.timers) this.clearTimer({ id });
  }

  // ------------------------------------------------------------------ XQueue consumers (pulling, docs/architecture.md)

  consume<T>(
    queue: XQueue<T>,
    onMessage: (taken: Taken<T>, queue: XQueue<T>) => void | Promise<void>,
    options: ConsumeOptions,
    self: object | undefined,
  ): QueueConsumer {
    const binding = new ConsumerBinding(this.attachEntry(queue, onMessage, self, options.batch ?? 256, options.maxInFlight ?? Infinity), queue);
    const predecessor = this.adoptable.findIndex((h) => h.queue === (queue as XQueue<unknown>));
    if (predecessor >= 0) {
      const held = this.adoptable[predecessor];
      this.adoptable = this.adoptable.filter((_, i) => i !== predecessor);
      queue.adopt(held.handle, binding.entry.handle);
    }
    return binding;
  }

  private attachEntry<T>(
    queue: XQueue<T>,
    onMessage: ConsumerEntry<T>['onMessage'],
    self: object | undefined,
    batch: number,
    maxInFlight: number,
  ): ConsumerEntry<T> {
    const entry = new ConsumerEntry<T>(this as PullTarget, queue, onMessage, self, batch, maxInFlight, this.incarnation, this.path, this.tally);
    this.consumers.push(entry as ConsumerEntry<unknown>);
    return entry;
  }

  /**
   * Takes and handles up to a batch of messages. Synchronous while the handlers are: returns undefined when it is
   * done, or a promise of the rest once a handler returned one.
   */
  private drain(entry: ConsumerEntry<unknown>, from = 0): Promise<void> | undefined {
    if (!takes(entry) || entry.incarnation !== this.incarnation) return undefined;
    const { queue, handle } = entry;
    for (let n = from; n < entry.batch; n++) {
      if (entry.maxInFlight !== Infinity && queue.heldBy(handle) >= entry.maxInFlight) {
        entry.heldBack = true;
        return undefined; // scheduled until poke()
      }
      if (this.fast && !FAST_TURNS.available()) break; // this turn's fast budget is spent: the rest through nact
      const taken = queue.take(handle);
      if (!taken) return undefined; // idle: the queue wakes us when work arrives
      if (this.fast) FAST_TURNS.spend();
      let r: void | Promise<void>;
      try {
        r = entry.onMessage.call(entry.self, taken, queue);
      } catch (error) {
        this.countMessageFailure(queue, taken);
        throw error;
      }
      if (r && typeof (r as Promise<void>).then === 'function') return this.drainAfter(entry, taken, r, n + 1);
      if (!takes(entry)) return undefined; // detached, or stopped taking, by the message's handler
    }
    // Batch done and maybe more waiting: yield to the event loop, then continue.
    this.deliver(entry);
    return undefined;
  }

  /** The rest of a drain once a handler's promise settles. */
  private async drainAfter(entry: ConsumerEntry<unknown>, taken: Taken<unknown>, handled: Promise<void>, next: number): Promise<void> {
    try {
      await handled;
    } catch (error) {
      this.countMessageFailure(entry.queue, taken);
      throw error;
    }
    if (!takes(entry)) return; // detached, or stopped taking, by the message's handler
    await this.drain(entry, next);
  }

  /** A message that keeps crashing its consumer is removed as failed (its producer decides what to do). */
  private countMessageFailure(queue: XQueue<unknown>, taken: Taken<unknown>): void {
    const item = taken.item;
    if (typeof item !== 'object' || item === null) return;
    let failures = messageFailures.get(queue);
    if (!failures) messageFailures.set(queue, (failures = new WeakMap()));
    const n = (failures.get(item) ?? 0) + 1;
    failures.set(item, n);
    if (n >= this.policy.maxMessageAttempts && queue.remove(taken, 'failed')) {
      this.logger.error('message removed as failed after repeated crashes', { actor: this.path, queue: queue.name, cell: taken.cell, attempts: n });
    }
  }

  /** Detach every consumer (their taken messages go back to the queue); re-attach them when resuming. */
  private releaseConsumers(reattach: boolean): void {
    const old = this.consumers;
    this.consumers = [];
    for (const e of old) {
      e.active = false;
      e.queue.detach(e.handle);
      if (reattach && e.binding) {
        e.binding.entry = this.attachEntry(e.queue, e.onMessage, e.self, e.batch, e.maxInFlight);
        e.binding.entry.binding = e.binding;
        e.binding.entry.stopped = e.stopped;
      }
    }
  }
}

/** nact's onCrash of every cell's actor (see the ActorCell constructor). */
function stopOnNactCrash(_m: unknown, _e: unknown, c: { stop: symbol }): symbol {
  return c.stop;
}

/**
 * An ActorCell's ActorRef: its methods on a prototype, not a closure each per actor (a pool keeps 512 children's refs
 * and contexts, which every garbage collection walks; issue 32).
 */
class CellRef<Msg> implements ActorRef<Msg> {
  readonly name: string;
  readonly path: string;

  constructor(private readonly cell: ActorCell<Msg>) {
    this.name = cell.name;
    this.path = cell.path;
  }

  tell(msg: Msg): void {
    this.cell.deliver({ kind: 'user', msg });
  }

  stop(): Promise<void> {
    return this.cell.stopNow('stop');
  }

  drain(request: DrainRequest): Promise<DrainReport | undefined> {
    return this.cell.drainNow(request);
  }

  stopTaking(): void {
    this.cell.stopTakingAll();
  }

  held(): number {
    return this.cell.heldAll();
  }

  refuseReplace(nextSettings: unknown): Promise<string | undefined> {
    const cell = this.cell;
    return cell.askBetweenMessages((b) => b.refuseReplace?.(cell.ctx, nextSettings));
  }

  refuseRemove(): Promise<string | undefined> {
    const cell = this.cell;
    return cell.askBetweenMessages((b) => b.refuseRemove?.(cell.ctx));
  }

  handOver(): Promise<HandedOver | undefined> {
    return this.cell.handOverNow();
  }

  handsOver(): boolean {
    return this.cell.state === 'running' && this.cell.behaviour?.handOver !== undefined;
  }

  status(): ActorStatus {
    return this.cell.state;
  }

  restarts(): number {
    return this.cell.restartCount;
  }

  lastError(): unknown {
    return this.cell.lastError;
  }

  terminated(): Promise<void> {
    return this.cell.terminated();
  }
}

/**
 * An ActorCell's ActorContext: data fields and prototype methods (as CellRef). Its `incarnation` is a plain field the
 * cell increments at each restart and reads as its own (a getter would put the object in dictionary mode).
 */
class CellContext<Msg> implements ActorContext<Msg> {
  readonly name: string;
  readonly path: string;
  readonly self: ActorRef<Msg>;
  readonly logger: Logger;
  incarnation: number;
  readonly policy: SupervisionPolicy;

  constructor(
    private readonly cell: ActorCell<Msg>,
    readonly clock: Clock,
  ) {
    this.name = cell.name;
    this.path = cell.path;
    this.self = cell.ref;
    this.logger = cell.logger;
    this.incarnation = 0;
    this.policy = cell.policy;
  }

  tell(msg: Msg): void {
    this.cell.deliver({ kind: 'user', msg });
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.cell.addTimer(fn, ms, false);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.cell.addTimer(fn, ms, true);
  }

  clearTimer(handle: TimerHandle | undefined): void {
    this.cell.clearTimer(handle);
  }

  spawn<M>(name: string, factory: BehaviourFactory<M>, options: SpawnOptions = {}): ActorRef<M> {
    return this.cell.spawnChild(name, factory, options);
  }

  children(): ActorRef<unknown>[] {
    return [...this.cell.children.values()].map((c) => c.ref);
  }

  guard<A extends unknown[]>(fn: (...args: A) => void | Promise<void>, self?: object): (...args: A) => void {
    return this.cell.guard(fn, self);
  }

  fail(error: unknown): void {
    this.cell.reportCrash(error);
  }

  stopSelf(): void {
    void this.cell.stopNow('stop');
  }

  consume<T>(
    queue: XQueue<T>,
    onMessage: (taken: Taken<T>, queue: XQueue<T>) => void | Promise<void>,
    options: ConsumeOptions = {},
    self?: object,
  ): QueueConsumer {
    return this.cell.consume(queue, onMessage, options, self);
  }

  waker(onWake: () => void): () => void {
    const cell = this.cell;
    const wake: Wake = { kind: 'wake', onWake, incarnation: cell.incarnation };
    return () => cell.deliver(wake);
  }
}

/** The entry is attached and its behaviour has not stopped taking (QueueConsumer.stopTaking). */
function takes(entry: ConsumerEntry<unknown>): boolean {
  return entry.active && !entry.stopped;
}

// JavaScript's own error classes signal a defect; their name helps the report. xroute's typed errors (and a
// library's plain Error) speak for themselves: a class name such as "AmqpStepError:" only puzzles an operator.
const JS_ERRORS = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'URIError']);

export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return JS_ERRORS.has(error.name) ? `${error.name}: ${error.message}` : error.message;
}
