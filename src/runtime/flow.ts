/**
 * A running topology: its XQueues and a flow supervisor actor that owns one child actor per component.
 *
 * Start order is consumers before producers (persisters, nodes, receivers) so nothing is produced into a
 * link before its reader is attached. Stop drains (docs/operations.md#stopping): every component is asked to
 * drain at once (receivers take no new delivery but keep their connection until what they handed downstream
 * is done and acknowledged; JobNode dispatches nothing new), up to one deadline; then the receivers stop
 * (what is still unfinished goes back to the broker), then every actor stops, deepest first.
 *
 * The flow supervisor is the top of the supervision tree: a component that exhausts its own policy (or
 * escalates) is never left stopped while the process runs. Its OnGiveUp decides: "restart" (default) starts
 * it again after a capped, jittered back-off, forever; "exit" drains the flow and asks the process to exit
 * with EXIT_GAVE_UP so that systemd, Docker or Kubernetes restart it. A component therefore never stays
 * failed for good in a running process: it is either restarted or the process ends.
 */
import { ActorRef, ActorRuntime, describe, HeldConsumer } from './actor';
import {
  ChildStatus,
  ComponentEnv,
  createBehaviour,
  ComponentRegistry,
  ComponentStatus,
  RecordedError,
  StatusReporter,
  StatusSnapshot,
  UnsettledDeliveries,
} from './component';
import { Topology, ComponentSpec } from './topology-types';
import { Logger, silentLogger } from '../logging/logger';
import { redact, redactText, registerConfigSecrets } from '../logging/redact';
import { Message } from '../message/message';
import { Outcome, XQueue, XQueueStats } from '../xqueue/xqueue';
import { addReports, DEFAULT_DRAIN_TIMEOUT_MS, DrainReport, DrainRequest, OnStop, untilDoneOrDeadline } from './drain';
import { FlowMeter, InOut, Rates } from './flow-meter';
import { Health, StuckReason, flowHealth } from './flow-health';
import { fingerprintTopology } from './reload-plan';
import { ReloadHost, Reloader } from './flow-reload';
import { ReloadOptions, ReloadReceipt } from './reload-receipt';
import { ComponentTrace, TraceOptions } from './message-trace';
import { slowTracesOf } from '../tracing/trace-stats';
import { ComponentView, SupervisedComponent } from './supervised-component';
import { QueueFullError, UnknownComponentError, UnknownLinkError, FlowStoppingError } from './errors';

export type { ComponentView } from './supervised-component';

export interface FlowOptions {
  registry: ComponentRegistry;
  logger?: Logger;
  /** Sends that may wait for a free cell per link (default DEFAULT_MAX_WAITING_SENDS); more are refused. */
  maxWaitingSends?: number;
  /** Milliseconds between the counter samples the rates come from (default 1000). */
  rateSampleMs?: number;
  /** Components whose messages are traced from the start (`xroute run --trace`). */
  trace?: readonly string[];
  /** The trace's rate bound and clock. */
  traceOptions?: TraceOptions;
}

/**
 * Sends waiting for a free cell on one link. A producer that does not await its sends would otherwise
 * hold every message and promise it ever made (1M sends: 2.2 GB); past this many, send fails at once.
 */
export const DEFAULT_MAX_WAITING_SENDS = 10_000;

/** Exit codes of `xroute run`, documented in docs/operations.md. */
export const EXIT_GAVE_UP = 3;

/** One component as /status, `xroute status` and the metrics see it. */
export interface ComponentStatusView extends StatusSnapshot {
  readonly name: string;
  readonly className: string;
  readonly role: string;
  /** The actor's own state: starting, running, restarting, stopped, failed. */
  readonly actor: string;
  /** Restarts by the component's own policy plus restarts by the flow supervisor. */
  readonly restarts: number;
  readonly reconnects: number;
  /** The last crash of the component (masked); broker errors are in `detail`. */
  readonly lastError?: string;
  readonly messages: { readonly in: number; readonly done: number; readonly failed: number };
  /** Set while the flow supervisor waits to start a component that gave up again. */
  readonly nextRestartAt?: number;
  readonly ready: boolean;
  readonly children?: readonly ChildStatus[];
  /** AMQP 1.0 receivers: deliveries held unsettled at the broker until downstream is done, and the oldest's age. */
  readonly unsettled?: UnsettledDeliveries;
  /** Messages taken (or, for a receiver, added) and not yet finished: in - done - failed. */
  readonly inFlight: number;
  /** Messages per second in and finished (done + failed), over 1 s and 1 min. */
  readonly rate: Rates;
  /** Epoch ms when the component last took, added or finished a message (to within a second). */
  readonly lastMessageAt?: number;
  /** Where it talks to its broker (masked): URI, exchange, queue, topic, ... as configured. */
  readonly endpoint?: Readonly<Record<string, string>>;
  /** ok; red when not running; amber when it feeds a stuck link (blockedBy names it). */
  readonly health: Health;
  readonly blockedBy?: string;
  /** Messages this component parked (gave up on after MaxAttempts) and that are still parked. */
  readonly parked?: number;
  /** Where tracing is on: the component's recent slowest messages, by trace id. */
  readonly slowTraces?: readonly { readonly traceId: string; readonly ms: number; readonly at: number }[];
}

export interface LinkStatusView extends XQueueStats {
  readonly producers: readonly string[];
  readonly consumerNames: readonly string[];
  /** Messages per second added and removed (done + failed), over 1 s and 1 min. */
  readonly rate: Rates;
  /** Set while the link is full or holds messages and none of its consumers is running. */
  readonly stuck?: StuckReason;
  /** red when stuck; amber when upstream of a stuck link (blockedBy names it). */
  readonly health: Health;
  readonly blockedBy?: string;
}

export interface FlowStatus {
  readonly name: string;
  readonly startedAt: number;
  readonly uptimeMs: number;
  readonly ready: boolean;
  /** Ready, but a link is stuck (full) or messages are parked: `xroute status` exits 4 (docs/operations.md). */
  readonly degraded: boolean;
  readonly stuckLinks: readonly { readonly link: string; readonly reason: StuckReason }[];
  /** Messages still parked, over all components (each component's `parked`). */
  readonly parkedMessages: number;
  readonly components: readonly ComponentStatusView[];
  readonly links: readonly LinkStatusView[];
}

/** One component as the status page's details show it (everything masked). */
export interface ComponentDetails {
  readonly status: ComponentStatusView;
  /** The component's configuration as loaded, secrets masked. */
  readonly config: unknown;
  /** Its last errors (broker errors, crashes, give-ups), oldest first, with the time each was last reported. */
  readonly errors: readonly RecordedError[];
}

export interface ComponentTotalsLine {
  readonly component: string;
  readonly in: number;
  readonly done: number;
  readonly failed: number;
  readonly restarts: number;
  readonly reconnects: number;
}

/** How a stop drains (docs/operations.md#stopping). */
export interface StopOptions {
  /** How long work handed downstream before the stop may take to finish (default DEFAULT_DRAIN_TIMEOUT_MS). */
  readonly drainMs?: number;
  /** Running work: let it finish until the deadline ("wait", default) or end it and give it back ("kill"). */
  readonly onStop?: OnStop;
}

const PAUSED_DETAIL = 'paused by an operator: it takes no work until it is resumed';

export class Flow {
  readonly name: string;
  private readonly links = new Map<string, XQueue<Message>>();
  private readonly components = new Map<string, SupervisedComponent>();
  private readonly waitingSends = new Map<string, number>();
  private stopping: Promise<void> | undefined;
  readonly startedAt = Date.now();
  private exitRequest: ((code: number) => void) | undefined;
  /** Resolves with an exit code when the flow supervisor wants the process to end (OnGiveUp exit, all failed). */
  readonly exitRequested: Promise<number> = new Promise((resolve) => (this.exitRequest = resolve));
  private registry!: ComponentRegistry;
  private meter!: FlowMeter;
  private currentTopology: Topology;
  private reloader!: Reloader;
  private traceOptions: TraceOptions = {};

  private constructor(
    topology: Topology,
    readonly runtime: ActorRuntime,
    private readonly logger: Logger,
    readonly maxWaitingSends: number,
  ) {
    this.name = topology.name;
    this.currentTopology = topology;
  }

  /** The topology the flow runs: the one it started with, or the last one a reload applied. */
  get topology(): Topology {
    return this.currentTopology;
  }

  /** Creates the links and starts every component under one flow supervisor. */
  static start(topology: Topology, options: FlowOptions): Flow {
    const logger = options.logger ?? silentLogger;
    const runtime = new ActorRuntime(topology.name, logger);
    const flow = new Flow(topology, runtime, logger, options.maxWaitingSends ?? DEFAULT_MAX_WAITING_SENDS);
    flow.registry = options.registry;
    flow.traceOptions = options.traceOptions ?? {};
    for (const link of topology.links.values()) flow.links.set(link.name, new XQueue<Message>(link.name, link.capacity));
    flow.meter = new FlowMeter(() => flow.counters(), options.rateSampleMs);
    const fingerprints = fingerprintTopology(topology);
    for (const spec of topology.components) {
      flow.addComponent(spec);
    }
    // before any component starts: its first message is traced, and an unknown name starts nothing
    if (options.trace !== undefined && options.trace.length > 0) flow.setTrace(options.trace, true);
    for (const component of flow.components.values()) flow.spawn(component);
    flow.reloader = new Reloader(flow.reloadHost(), fingerprints);
    flow.meter.start();
    logger.info('flow started', { flow: topology.name, components: topology.components.length, links: topology.links.size });
    return flow;
  }

  /** A component the flow supervises from now on (not started yet). */
  private addComponent(spec: ComponentSpec): SupervisedComponent {
    registerConfigSecrets(spec.config);
    const component = new SupervisedComponent(spec.name, spec.role, new StatusReporter(), spec);
    this.components.set(spec.name, component);
    return component;
  }

  /**
   * Starts an incarnation of `c` on its spec. A reload's replacement gets what its predecessor handed over: its
   * behaviour's state (ComponentEnv.inherited) and the messages it held (SpawnOptions.adopt).
   */
  private spawn(c: SupervisedComponent, handed?: { state: unknown; consumers: readonly HeldConsumer[] }, pluginDirs = this.topology.pluginDirs): void {
    const spec = c.spec;
    const env: ComponentEnv = {
      name: spec.name,
      className: spec.definition.className,
      config: spec.config,
      input: spec.role === 'receiver' ? undefined : this.links.get(spec.linkName),
      output: spec.role === 'receiver' ? this.links.get(spec.linkName) : undefined,
      outlinks: spec.outLinks.map((o) => this.links.get(o.name)!),
      baseDir: spec.baseDir,
      pluginDirs,
      logger: this.logger.child({ component: spec.name }),
      status: c.status,
      registry: this.registry,
      ...(handed?.state !== undefined ? { inherited: handed.state } : {}),
    };
    const ref = this.runtime.spawn<never>(spec.name, () => createBehaviour(spec.definition, env), {
      policy: spec.policy,
      logger: env.logger,
      tally: c.status.totals,
      ...(handed !== undefined ? { adopt: handed.consumers } : {}),
      onCrash: (error) => c.status.recordError(`crashed: ${describe(error)}`),
    });
    c.ref = ref;
    void ref.terminated().then(() => this.onTerminated(c, ref));
  }

  /** An incarnation ended. Unless the flow is stopping, a failed one is handled by the give-up policy. */
  private onTerminated(c: SupervisedComponent, ref: ActorRef<never>): void {
    if (this.stopping || c.ref !== ref || ref.status() !== 'failed') return;
    const error = ref.lastError();
    const reason = redactText(error !== undefined ? describe(error) : (c.status.get().detail ?? 'its supervision policy was exhausted'));
    c.lastError = reason;
    if (c.spec.policy.onGiveUp === 'exit') {
      c.failedForGood = true;
      c.status.set('FAILED', `gave up: ${reason}; OnGiveUp is "exit"`);
      this.logger.error('component gave up; the flow drains and the process exits', { flow: this.name, component: c.name, exitCode: EXIT_GAVE_UP });
      this.exitRequest?.(EXIT_GAVE_UP);
      return;
    }
    const delay = c.giveUpBackoff.next();
    c.nextRestartAt = Date.now() + delay;
    c.status.set('FAILED', `gave up: ${reason}; the flow restarts it in ${Math.round(delay / 100) / 10} s`);
    this.logger.error('component gave up; the flow supervisor restarts it', {
      flow: this.name,
      component: c.name,
      restart: c.flowRestarts + 1,
      delayMs: delay,
      error: reason,
    });
    c.restartTimer = setTimeout(() => {
      c.restartTimer = undefined;
      c.nextRestartAt = undefined;
      if (this.stopping) return;
      c.earlierRestarts += c.ref.restarts();
      c.flowRestarts++;
      c.status.set('READY', 'restarted by the flow supervisor');
      this.spawn(c);
    }, delay);
  }

  /** Operator-visible state: the component's own status, corrected by what the supervisor knows. */
  private stateOf(c: SupervisedComponent): { status: ComponentStatus; detail?: string } {
    const snap = c.status.get();
    const actor = c.ref.status();
    if (c.nextRestartAt !== undefined || c.failedForGood) return { status: 'FAILED', detail: snap.detail };
    if (c.paused) return { status: 'PAUSE', detail: PAUSED_DETAIL };
    if (actor === 'restarting') return { status: 'RETRYING', detail: `restarting after a crash${snap.detail ? `: ${snap.detail}` : ''}` };
    if (actor === 'stopped' || actor === 'stopping') return { status: 'STOPPED', detail: snap.detail };
    if (actor === 'failed') return { status: 'FAILED', detail: snap.detail };
    return { status: snap.status, detail: snap.detail };
  }

  link(name: string): XQueue<Message> {
    const q = this.links.get(name);
    if (!q) throw new UnknownLinkError(this.name, name, [...this.links.keys()]);
    return q;
  }

  linkNames(): string[] {
    return [...this.links.keys()];
  }

  component(name: string): ComponentView | undefined {
    return this.components.get(name);
  }

  /**
   * Puts a message into a link and resolves when a consumer has finished with it, with the message as
   * the consumer left it (e.g. evaluated by a MessageEvaluator). When the link is full the send waits
   * for a free cell (an awaiting producer is paced by the link); when maxWaitingSends sends are waiting
   * already, it rejects at once with QueueFullError.
   */
  send(linkName: string, msg: Message, options: { signal?: AbortSignal } = {}): Promise<{ outcome: Outcome; message: Message }> {
    let q: XQueue<Message>;
    try {
      q = this.link(linkName);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      const onDone = (item: Message, outcome: Outcome) => resolve({ outcome, message: item });
      const cell = q.tryReserve();
      if (cell >= 0) {
        q.add(cell, msg, onDone);
        return;
      }
      const waiting = this.waitingSends.get(linkName) ?? 0;
      if (waiting >= this.maxWaitingSends) {
        reject(new QueueFullError(this.name, linkName, this.maxWaitingSends));
        return;
      }
      this.waitingSends.set(linkName, waiting + 1);
      q.reserve({ signal: options.signal })
        .finally(() => this.waitingSends.set(linkName, (this.waitingSends.get(linkName) ?? 1) - 1))
        .then((reserved) => q.add(reserved, msg, onDone), reject);
    });
  }

  /** The counters the rates are sampled from: per component (c:) and per link (l:). */
  private counters(): Map<string, InOut> {
    const out = new Map<string, InOut>();
    for (const c of this.components.values()) out.set(`c:${c.name}`, componentCounts(c));
    for (const q of this.links.values()) out.set(`l:${q.name}`, linkCounts(q.stats()));
    return out;
  }

  status(): FlowStatus {
    const now = Date.now();
    const states = new Map([...this.components.values()].map((c) => [c.name, this.stateOf(c)]));
    const specs = this.topology.links;
    const linkStats = [...this.links.values()].map((q) => ({
      ...q.stats(),
      producers: specs.get(q.name)?.writers ?? [],
      consumerNames: specs.get(q.name)?.readers ?? [],
    }));
    const health = flowHealth(
      linkStats.map((l) => ({ name: l.name, free: l.free, size: l.size, producers: l.producers, consumers: l.consumerNames })),
      [...states.keys()],
      (name) => states.get(name)?.status === 'RUNNING',
    );
    const components = [...this.components.values()].map((c): ComponentStatusView => {
      const state = states.get(c.name)!;
      const t = c.status.totals;
      const m = t.counts();
      const children = c.status.children();
      const unsettled = c.status.unsettled();
      const snap = c.status.get();
      const counts: InOut = { in: m.in, out: m.done + m.failed };
      const lastMessageAt = this.meter.lastMovedAt(`c:${c.name}`, counts, now);
      const h = health.components.get(c.name)!;
      const nextRetryAt = c.nextRestartAt ?? snap.nextRetryAt;
      const parked = c.status.parked();
      const slowTraces = slowTracesOf(c.name, now);
      return {
        ...snap,
        ...state,
        name: c.name,
        className: c.className,
        role: c.role,
        actor: c.ref.status(),
        restarts: c.restarts,
        reconnects: t.reconnects,
        ...(lastErrorOf(c) !== undefined ? { lastError: lastErrorOf(c) } : {}),
        messages: m,
        ...(c.nextRestartAt !== undefined ? { nextRestartAt: c.nextRestartAt } : {}),
        ready: state.status === 'RUNNING' || endedItsInput(c, state.status),
        ...(children ? { children } : {}),
        ...(unsettled ? { unsettled } : {}),
        ...(nextRetryAt !== undefined && state.status !== 'RUNNING' ? { nextRetryAt } : { nextRetryAt: undefined }),
        inFlight: Math.max(0, m.in - m.done - m.failed),
        rate: this.meter.rates(`c:${c.name}`, counts, now),
        ...(lastMessageAt !== undefined ? { lastMessageAt } : {}),
        ...(c.endpoint !== undefined ? { endpoint: c.endpoint } : {}),
        health: h.health,
        ...(h.blockedBy !== undefined ? { blockedBy: h.blockedBy } : {}),
        ...(parked !== undefined ? { parked } : {}),
        ...(slowTraces !== undefined ? { slowTraces } : {}),
      };
    });
    const links = linkStats.map((l): LinkStatusView => {
      const h = health.links.get(l.name)!;
      return {
        ...l,
        rate: this.meter.rates(`l:${l.name}`, linkCounts(l), now),
        ...(h.stuck !== undefined ? { stuck: h.stuck } : {}),
        health: h.health,
        ...(h.blockedBy !== undefined ? { blockedBy: h.blockedBy } : {}),
      };
    });
    const stuckLinks = links.flatMap((l) => (l.stuck !== undefined ? [{ link: l.name, reason: l.stuck }] : []));
    const ready = components.every((c) => c.ready);
    const parkedMessages = components.reduce((n, c) => n + (c.parked ?? 0), 0);
    return {
      name: this.name,
      startedAt: this.startedAt,
      uptimeMs: now - this.startedAt,
      ready,
      degraded: ready && (stuckLinks.length > 0 || parkedMessages > 0),
      stuckLinks,
      parkedMessages,
      components,
      links,
    };
  }

  /**
   * Turns the per-message trace of `names` on or off (docs/operations.md "Tracing messages"); every name must be a
   * component of the flow (UnknownComponentError names the first that is not, and nothing changes). Returns the
   * components traced now.
   */
  setTrace(names: readonly string[], on: boolean): string[] {
    for (const name of names) if (!this.components.has(name)) throw new UnknownComponentError(this.name, name, [...this.components.keys()]);
    for (const name of names) {
      const totals = this.components.get(name)!.status.totals;
      if (on && totals.trace === undefined) totals.trace = new ComponentTrace(name, this.logger, this.traceOptions);
      if (!on && totals.trace !== undefined) {
        totals.trace.close();
        totals.trace = undefined;
      }
    }
    const traced = this.traced();
    this.logger.info('trace', { flow: this.name, components: traced });
    return traced;
  }

  /** Ends every trace (reporting what each dropped) once the flow has stopped. */
  private closeTraces(): void {
    for (const c of this.components.values()) {
      c.status.totals.trace?.close();
      c.status.totals.trace = undefined;
    }
  }

  /** The components whose messages are traced. */
  traced(): string[] {
    return [...this.components.values()].filter((c) => c.status.totals.trace !== undefined).map((c) => c.name);
  }

  /** The details of one component (undefined: no such component). */
  componentDetails(name: string): ComponentDetails | undefined {
    const c = this.components.get(name);
    if (c === undefined) return undefined;
    const status = this.status().components.find((v) => v.name === name)!;
    return redact({ status, config: c.spec.config, errors: c.status.recentErrors() }) as ComponentDetails;
  }

  /** The components as the supervisor holds them (for the metrics, which read their totals directly). */
  componentViews(): ComponentView[] {
    return [...this.components.values()];
  }

  /** Per-component totals, as logged at stop and by --stats-interval. */
  totals(): ComponentTotalsLine[] {
    return [...this.components.values()].map((c) => {
      const t = c.status.totals;
      const m = t.counts();
      return { component: c.name, in: m.in, done: m.done, failed: m.failed, restarts: c.restarts, reconnects: t.reconnects };
    });
  }

  /** Logs one info line per component with its totals. */
  logTotals(message = 'component totals'): void {
    for (const t of this.totals()) this.logger.info(message, { flow: this.name, ...t });
  }

  /**
   * Changes the running flow to `next` (docs/api.md#reload, docs/operations.md#changing-a-running-flow): a topology,
   * or the path of a topology file (loaded and validated here). Validates first and changes nothing when anything
   * is wrong; unchanged components keep running untouched, changed ones are drained and replaced, added ones
   * started, removed ones drained and stopped; links are added, resized in place or removed (once empty).
   * Reloads run one at a time. Never rejects: a refused or rolled-back reload says so in the receipt.
   */
  reload(next: Topology | string, options: ReloadOptions = {}): Promise<ReloadReceipt> {
    return this.reloader.reload(next, options);
  }

  /** Calls `listener` with the receipt of every reload (dry runs included); returns what removes it. */
  onReload(listener: (receipt: ReloadReceipt) => void): () => void {
    return this.reloader.onReceipt(listener);
  }

  /** What the reload engine may do with this flow: its parts, and the steps it shares with a stop. */
  private reloadHost(): ReloadHost {
    return {
      flow: this.name,
      logger: this.logger,
      registry: this.registry,
      topology: () => this.currentTopology,
      setTopology: (t) => (this.currentTopology = t),
      isStopping: () => this.stopping !== undefined,
      links: this.links,
      components: this.components,
      addComponent: (spec) => this.addComponent(spec),
      removeComponent: (name) => this.components.delete(name),
      spawn: (c, handed, pluginDirs) => {
        if (c.restartTimer) clearTimeout(c.restartTimer);
        c.restartTimer = undefined;
        c.nextRestartAt = undefined;
        c.paused = false; // a replaced component starts on its new definition, paused or not before
        registerConfigSecrets(c.spec.config);
        this.spawn(c, handed, pluginDirs);
      },
      isReady: (c) => {
        const state = this.stateOf(c);
        return state.status === 'RUNNING' || endedItsInput(c, state.status);
      },
    };
  }

  /**
   * Stops cleanly: drains every component up to `drainMs` (see StopOptions), stops the receivers, then all.
   * Deliveries still unfinished at the deadline are not acknowledged to their broker (they are redelivered).
   */
  stop(options: StopOptions = {}): Promise<void> {
    if (!this.stopping) this.stopping = this.doStop(options.drainMs ?? DEFAULT_DRAIN_TIMEOUT_MS, options.onStop ?? 'wait');
    return this.stopping;
  }

  /**
   * Drains one component then stops it, as a flow stop does for all (a receiver keeps its connection until
   * what it handed downstream is acknowledged, or the deadline). The flow supervisor does not restart it.
   */
  async drainAndStop(name: string, options: StopOptions = {}): Promise<DrainReport | undefined> {
    const c = this.components.get(name);
    if (c === undefined) throw new UnknownComponentError(this.name, name, [...this.components.keys()]);
    if (c.restartTimer) clearTimeout(c.restartTimer);
    const report = await this.drainAll([c], options.drainMs ?? DEFAULT_DRAIN_TIMEOUT_MS, options.onStop ?? 'wait');
    await c.ref.stop();
    return report;
  }

  /**
   * Pauses one component (QBroker's admin "disable"): it drains as at a stop, then stops and takes no work (its
   * broker connection closes; what waits in its input link stays there) until `resume`. Its status is PAUSE.
   * Resolves with what the drain acknowledged and gave back; a component paused already is left as it is.
   */
  pause(name: string, options: StopOptions = {}): Promise<DrainReport | undefined> {
    return this.controlOf(name, async (c) => {
      if (c.paused) return undefined;
      c.paused = true;
      c.nextRestartAt = undefined;
      this.logger.info('pausing a component', { flow: this.name, component: name });
      const report = await this.drainAndStop(name, options);
      // Its own status too: a paused receiver has not reached the end of its input (flow-finished.ts reads it).
      c.status.set('PAUSE', PAUSED_DETAIL);
      return report;
    });
  }

  /** Starts a paused component again, as a new incarnation (its counters go on); a running one is left as it is. */
  resume(name: string): Promise<void> {
    return this.controlOf(name, async (c) => {
      if (!c.paused) return;
      await c.ref.terminated();
      c.earlierRestarts += c.ref.restarts();
      c.paused = false;
      this.logger.info('resuming a component', { flow: this.name, component: name });
      c.status.set('READY', 'resumed by an operator');
      this.spawn(c);
    });
  }

  /** Drains, stops and starts one component again (QBroker's admin "restart"); a paused one is only started. */
  restart(name: string, options: StopOptions = {}): Promise<DrainReport | undefined> {
    return this.controlOf(name, async (c) => {
      let report: DrainReport | undefined;
      if (!c.paused) {
        c.paused = true;
        c.nextRestartAt = undefined;
        this.logger.info('restarting a component', { flow: this.name, component: name });
        report = await this.drainAndStop(name, options);
      }
      await c.ref.terminated();
      c.earlierRestarts += c.ref.restarts();
      c.flowRestarts++;
      c.paused = false;
      c.status.set('READY', 'restarted by an operator');
      this.spawn(c);
      return report;
    });
  }

  /**
   * Runs one operator action on a component after the previous one and after the reloads under way (a reload may
   * be swapping that very component); refused once the flow stops.
   */
  private controlOf<T>(name: string, action: (c: SupervisedComponent) => Promise<T>): Promise<T> {
    const c = this.components.get(name);
    if (c === undefined) return Promise.reject(new UnknownComponentError(this.name, name, [...this.components.keys()]));
    const run = Promise.all([c.control, this.reloader.settled()]).then(() => {
      if (this.stopping) throw new FlowStoppingError(this.name, name);
      return action(c);
    });
    c.control = run.catch(() => undefined);
    return run;
  }

  /** Asks `components` to drain by one deadline; logs what their receivers acknowledged and gave back. */
  private async drainAll(components: readonly SupervisedComponent[], drainMs: number, onStop: OnStop): Promise<DrainReport | undefined> {
    const request: DrainRequest = { deadline: Date.now() + drainMs, onStop };
    this.logger.info('draining', { flow: this.name, components: components.map((c) => c.name), drainTimeoutS: drainMs / 1000, onStop });
    const started = Date.now();
    const reports = await Promise.all(
      components.map(async (c) => {
        const report = await c.ref.drain(request);
        if (report !== undefined) this.logger.info(`drain of ${c.name}: ${describeDrain(report)}`, { flow: this.name, component: c.name, ...report });
        return report;
      }),
    );
    const total = addReports(reports);
    if (total !== undefined) this.logger.info(`drain: ${describeDrain(total)}`, { flow: this.name, ...total, ms: Date.now() - started });
    return total;
  }

  /**
   * Waits until every link is empty, or nothing in them is being worked on any more (no message in flight, and
   * none added, removed or moved between two looks: what is left waits for a consumer that takes nothing while
   * draining), or the deadline. True when the links are empty.
   */
  private async linksSettled(deadline: number): Promise<boolean> {
    const links = [...this.links.values()];
    const activity = () =>
      links.reduce((n, q) => {
        const st = q.stats();
        return n + st.totalAdded + st.totalRemoved + st.totalPutback + st.totalTakeback;
      }, 0);
    let last = -1;
    await untilDoneOrDeadline(
      deadline,
      () => {
        if (links.every((q) => q.size === 0 && q.stats().reserved === 0)) return true;
        const now = activity();
        const still = now === last && links.every((q) => q.inFlight === 0 && q.stats().reserved === 0);
        last = now;
        return still;
      },
      undefined,
      50,
    );
    return links.every((q) => q.size === 0);
  }

  private async doStop(drainMs: number, onStop: OnStop): Promise<void> {
    await this.reloader.settled();
    this.meter.stop();
    for (const c of this.components.values()) if (c.restartTimer) clearTimeout(c.restartTimer);
    const deadline = Date.now() + drainMs;
    await this.drainAll([...this.components.values()], drainMs, onStop);
    const receivers = [...this.components.values()].filter((c) => c.role === 'receiver');
    await Promise.all(receivers.map((c) => c.ref.stop()));
    // What was fed without a broker to give it back to (send(), a file or TCP receiver) can only be waited for.
    const drained = await this.linksSettled(deadline);
    if (!drained) {
      const left = [...this.links.values()].filter((q) => q.size > 0).map((q) => `${q.name}:${q.size}`);
      this.logger.warn('stopping with messages still in links', { flow: this.name, links: left });
    }
    for (const q of this.links.values()) q.stop();
    await this.runtime.stop();
    this.closeTraces();
    this.logTotals();
    this.logger.info('flow stopped', { flow: this.name, drained });
  }
}

function describeDrain(r: DrainReport): string {
  return `${r.acknowledged} acknowledged, ${r.returned} returned to the broker`;
}

/**
 * A receiver that came to the end of its input (a file read to the end: it reports STOPPED itself while its
 * actor runs on) has done its work: under --keep-running the flow is ready, not waiting for it for ever.
 */
function endedItsInput(c: SupervisedComponent, status: ComponentStatus): boolean {
  return c.role === 'receiver' && status === 'STOPPED' && c.ref.status() === 'running';
}

function componentCounts(c: SupervisedComponent): InOut {
  const m = c.status.totals.counts();
  return { in: m.in, out: m.done + m.failed };
}

function linkCounts(s: XQueueStats): InOut {
  return { in: s.totalAdded, out: s.totalRemoved + s.totalFailed };
}

function lastErrorOf(c: SupervisedComponent): string | undefined {
  const current = c.ref.lastError();
  return current !== undefined ? redactText(describe(current)) : c.lastError;
}
