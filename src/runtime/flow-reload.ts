/**
 * The reload engine (docs/operations.md#changing-a-running-flow): changes a running flow to a new topology
 * without a restart, for every trigger (the API's flow.reload, `xroute run --watch`, SIGHUP, the admin route).
 *
 * 1. Validate, changing nothing: load the topology (every schema and settings reader, as `xroute validate`),
 *    read the settings of every new or changed component again with its real link capacities, and ask each
 *    running incarnation about to be replaced whether it can be (Behaviour.refuseReplace).
 * 2. Plan (src/runtime/reload-plan.ts): kept, replaced, added, removed per component; per link kept, resized,
 *    added, removed. An unchanged component sees nothing: same actor, connection, counters and status history.
 * 3. Swap: links are added and resized in place first. The outgoing incarnations are drained producers first
 *    (a receiver stops taking deliveries and waits until what it handed downstream is done and acknowledged; a
 *    node or persister stops taking from its input and waits until what it holds is finished, or hands its work
 *    over: Behaviour.handOver), then stopped; what still waits in a link stays there. A removed link must be
 *    empty: its readers keep running until it is (its writers stopped first), else the reload rolls back. Then
 *    the new incarnations start, consumers first, each with what its predecessor handed over.
 * 4. A new incarnation not ready within readyTimeoutMs rolls the reload back: what was changed is drained and
 *    stopped the same way and the previous definitions are started again.
 */
import { randomUUID } from 'crypto';
import type { HandedOver } from './actor';
import type { ComponentRegistry } from './component';
import { DEFAULT_DRAIN_TIMEOUT_MS, DrainRequest, untilDoneOrDeadline } from './drain';
import type { SupervisedComponent } from './flow';
import type { Logger } from '../logging/logger';
import { ComponentSpec, loadTopology, Topology } from '../config/topology';
import { ConfigError, describeFileError, formatProblem, JsonSyntaxError, withoutContext } from '../config/errors';
import { issueOf } from '../config/config-issues';
import { redactText } from '../logging/redact';
import { Message } from '../message/message';
import { XQueue } from '../xqueue/xqueue';
import { ComponentFingerprint, fingerprintTopology, planIsEmpty, planReload } from './reload-plan';
import { ComponentChange, REDELIVERED_COUNTER, ReloadOptions, ReloadPlan, ReloadReceipt } from './reload-receipt';

/** A new incarnation that is not RUNNING by then rolls the reload back (ReloadOptions.readyTimeoutMs). */
export const DEFAULT_RELOAD_READY_TIMEOUT_MS = 30_000;

/** How often a swap looks whether a drained component is done and a new one ready: the swap's pause grows with it. */
const POLL_MS = 5;


/** What the reload engine may see and do of a Flow (given by the Flow itself). */
export interface ReloadHost {
  readonly flow: string;
  readonly logger: Logger;
  readonly registry: ComponentRegistry;
  topology(): Topology;
  setTopology(topology: Topology): void;
  isStopping(): boolean;
  readonly links: Map<string, XQueue<Message>>;
  readonly components: ReadonlyMap<string, SupervisedComponent>;
  addComponent(spec: ComponentSpec): SupervisedComponent;
  removeComponent(name: string): void;
  /** Starts an incarnation of the component on its (new) spec and PluginDir with what its predecessor handed over. */
  spawn(c: SupervisedComponent, handed: HandedOver | undefined, pluginDirs: readonly string[]): void;
  isReady(c: SupervisedComponent): boolean;
}

/** A step of a swap could not be done (a new incarnation not ready, a removed link not empty). */
export class ReloadStepError extends Error {
  constructor(
    readonly component: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReloadStepError';
  }
}

interface Transition {
  readonly name: string;
  readonly from?: ComponentSpec;
  readonly to?: ComponentSpec;
}

interface ComponentFigures {
  drained?: { acknowledged: number; returned: number };
  startedAt?: number;
  readyAt?: number;
}

export class Reloader {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(receipt: ReloadReceipt) => void>();

  constructor(
    private readonly host: ReloadHost,
    private fingerprints: ReadonlyMap<string, ComponentFingerprint>,
  ) {}

  /** One reload at a time: each waits for the one before. Never rejects. */
  reload(next: Topology | string, options: ReloadOptions): Promise<ReloadReceipt> {
    const run = this.chain.then(() => this.run(next, options));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Resolves once no reload is running or waiting. */
  async settled(): Promise<void> {
    await this.chain;
  }

  onReceipt(listener: (receipt: ReloadReceipt) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async run(next: Topology | string, options: ReloadOptions): Promise<ReloadReceipt> {
    const current = this.host.topology();
    const head = { id: randomUUID(), trigger: options.trigger ?? 'api', dryRun: options.dryRun === true, startedAt: Date.now() } as const;
    const refuse = (error: string, plan: ReloadPlan = { flow: current.name, components: [], links: [] }) =>
      this.finish({ ...head, ...plan, outcome: 'refused', swapMs: 0, redelivered: 0, error: redactText(error) });
    if (this.host.isStopping()) return refuse('the flow is stopping');
    let topology: Topology;
    try {
      topology = typeof next === 'string' ? loadTopology(next, this.host.registry) : next;
    } catch (e) {
      return refuse(loadProblem(e, typeof next === 'string' ? next : current.file));
    }
    let nextFingerprints: ReadonlyMap<string, ComponentFingerprint>;
    let plan: ReloadPlan;
    try {
      nextFingerprints = fingerprintTopology(topology);
      plan = planReload({ topology: current, fingerprints: this.fingerprints, held: (link) => this.host.links.get(link)?.size ?? 0 }, topology, nextFingerprints);
      const problems = await this.check(plan, topology);
      if (problems.length > 0) return refuse(problems.join('\n'), plan);
    } catch (e) {
      // Nothing has changed yet: whatever went wrong while planning refuses the reload, it never rejects.
      return refuse(`the reload could not be planned: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (planIsEmpty(plan)) {
      if (!head.dryRun) this.commit(topology, nextFingerprints, []);
      return this.finish({ ...head, ...plan, outcome: 'unchanged', swapMs: 0, redelivered: 0 });
    }
    if (head.dryRun) return this.finish({ ...head, ...plan, outcome: 'applied', swapMs: 0, redelivered: 0 });
    return this.apply(head, plan, current, topology, nextFingerprints, options);
  }

  /**
   * The validation a reload adds to loading the topology: the settings of each new or changed component (and of
   * each kept one whose links change) read with its real link capacities, and the refusals of running ones.
   */
  private async check(plan: ReloadPlan, topology: Topology): Promise<string[]> {
    const problems: string[] = [];
    const changedLinks = new Set(plan.links.filter((l) => l.action !== 'kept').map((l) => l.name));
    const actions = new Map(plan.components.map((c) => [c.name, c.action]));
    for (const spec of topology.components) {
      const action = actions.get(spec.name);
      const touchesChangedLink = changedLinks.has(spec.linkName) || spec.outLinks.some((o) => changedLinks.has(o.name));
      if (action === 'kept' && !touchesChangedLink) continue;
      const capacity = topology.links.get(spec.linkName)?.capacity;
      const problem = (property: string, message: string) =>
        problems.push(formatProblem({ file: spec.file, component: spec.name, property, message: withoutContext(spec.name, property, message), severity: 'error' }));
      let settings: unknown;
      try {
        settings = spec.definition.settings?.(spec.name, spec.config, spec.baseDir, {
          pluginDirs: topology.pluginDirs,
          registry: this.host.registry,
          ...(spec.role === 'receiver' ? { outputCapacity: capacity } : { inputCapacity: capacity }),
        });
      } catch (e) {
        const issue = issueOf(e);
        problem(issue.property, issue.message);
        continue;
      }
      if (action !== 'replaced') continue;
      const running = this.host.components.get(spec.name);
      let reason: string | undefined;
      try {
        reason = running === undefined ? undefined : await running.ref.refuseReplace(settings);
      } catch (e) {
        reason = `asking it failed: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (reason !== undefined) problem('', `cannot be replaced now: ${reason}`);
    }
    return problems;
  }

  private async apply(
    head: Pick<ReloadReceipt, 'id' | 'trigger' | 'dryRun' | 'startedAt'>,
    plan: ReloadPlan,
    current: Topology,
    next: Topology,
    nextFingerprints: ReadonlyMap<string, ComponentFingerprint>,
    options: ReloadOptions,
  ): Promise<ReloadReceipt> {
    const transitions: Transition[] = plan.components.flatMap((c): Transition[] => {
      const from = current.components.find((s) => s.name === c.name);
      const to = next.components.find((s) => s.name === c.name);
      if (c.action === 'replaced') return [{ name: c.name, from, to }];
      if (c.action === 'added') return [{ name: c.name, to }];
      if (c.action === 'removed') return [{ name: c.name, from }];
      return [];
    });
    const timing = { drainMs: options.drainMs ?? DEFAULT_DRAIN_TIMEOUT_MS, readyTimeoutMs: options.readyTimeoutMs ?? DEFAULT_RELOAD_READY_TIMEOUT_MS };
    const redeliveredBefore = this.redelivered();
    const started = Date.now();
    this.host.logger.info('reload: applying', { flow: this.host.flow, reload: head.id, plan: plan.components.filter((c) => c.action !== 'kept').map((c) => `${c.action} ${c.name}`) });
    const swap = new Swap(this.host, current, next, transitions, timing, true);
    let outcome: ReloadReceipt['outcome'] = 'applied';
    let error: string | undefined;
    try {
      await swap.run(
        new Set(transitions.filter((t) => t.from).map((t) => t.name)),
        new Set(transitions.filter((t) => t.to).map((t) => t.name)),
      );
      this.commit(next, nextFingerprints, transitions);
    } catch (e) {
      outcome = 'rolled-back';
      error = redactText(e instanceof Error ? e.message : String(e));
      this.host.logger.error('reload: a step failed; rolling back to the previous definitions', { flow: this.host.flow, reload: head.id, error });
      const back = new Swap(this.host, next, current, transitions.map((t) => ({ name: t.name, from: t.to, to: t.from })), timing, false, swap.leftOver());
      try {
        await back.run(swap.startedNew, swap.stoppedOld);
      } catch (again) {
        error += `; the rollback failed too: ${redactText(again instanceof Error ? again.message : String(again))}`;
      }
    }
    const end = Date.now();
    const components = plan.components.map((c): ComponentChange => {
      const f = swap.figures.get(c.name);
      if (f === undefined) return c;
      const swapMs = f.readyAt !== undefined && f.startedAt !== undefined ? f.readyAt - f.startedAt : undefined;
      return { ...c, ...(f.drained !== undefined ? { drained: f.drained } : {}), ...(swapMs !== undefined && outcome === 'applied' ? { swapMs } : {}) };
    });
    return this.finish({
      ...head,
      ...plan,
      components,
      outcome,
      swapMs: end - started,
      redelivered: this.redelivered() - redeliveredBefore,
      ...(error !== undefined ? { error } : {}),
    });
  }

  /** The reload took effect: the flow runs `topology` from now on. */
  private commit(topology: Topology, fingerprints: ReadonlyMap<string, ComponentFingerprint>, transitions: readonly Transition[]): void {
    for (const t of transitions) if (t.to === undefined) this.host.removeComponent(t.name);
    for (const spec of topology.components) this.host.components.get(spec.name)?.redefine(spec);
    this.host.setTopology(topology);
    this.fingerprints = fingerprints;
  }

  /** Deliveries flagged redelivered by their broker, as counted by the receivers so far. */
  private redelivered(): number {
    let n = 0;
    for (const c of this.host.components.values()) n += c.status.get().counters[REDELIVERED_COUNTER] ?? 0;
    return n;
  }

  private finish(receipt: ReloadReceipt): ReloadReceipt {
    const log = receipt.outcome === 'refused' || receipt.outcome === 'rolled-back' ? 'warn' : 'info';
    this.host.logger[log](`reload ${receipt.outcome}`, { flow: this.host.flow, receipt });
    for (const listener of [...this.listeners]) {
      try {
        listener(receipt);
      } catch (e) {
        this.host.logger.warn('a reload listener failed', { flow: this.host.flow, error: e instanceof Error ? e.message : String(e) });
      }
    }
    return receipt;
  }
}

/**
 * One direction of a reload: from the definitions of `from` to those of `to` for the components in transition.
 * A rollback is a Swap the other way over what the failed one changed.
 */
class Swap {
  readonly figures = new Map<string, ComponentFigures>();
  /** Old incarnations stopped, and new ones started, so far (what a rollback undoes). */
  readonly stoppedOld = new Set<string>();
  readonly startedNew = new Set<string>();
  private readonly handed: Map<string, HandedOver | undefined>;
  private readonly transitions: ReadonlyMap<string, Transition>;

  constructor(
    private readonly host: ReloadHost,
    private readonly from: Topology,
    private readonly to: Topology,
    transitions: readonly Transition[],
    private readonly timing: { readonly drainMs: number; readonly readyTimeoutMs: number },
    /** Forward: a removed link that does not empty fails the step. A rollback keeps such a link instead. */
    private readonly strict: boolean,
    handed: ReadonlyMap<string, HandedOver | undefined> = new Map(),
  ) {
    this.transitions = new Map(transitions.map((t) => [t.name, t]));
    this.handed = new Map(handed);
  }

  /** What stopped incarnations handed over that no new incarnation took (a rollback gives it back). */
  leftOver(): ReadonlyMap<string, HandedOver | undefined> {
    return this.handed;
  }

  async run(stop: ReadonlySet<string>, start: ReadonlySet<string>): Promise<void> {
    this.prepareLinks();
    for (const wave of producersFirst(this.from, stop)) {
      const results = await Promise.allSettled(wave.map((name) => this.stopOld(name)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    }
    this.removeLinks();
    for (const spec of this.to.components) if (start.has(spec.name)) this.startNew(spec);
    await this.untilReady(start);
  }

  /** Links of `to` that do not exist yet are created; those whose capacity differs are resized in place. */
  private prepareLinks(): void {
    for (const link of this.to.links.values()) {
      const q = this.host.links.get(link.name);
      if (q === undefined) this.host.links.set(link.name, new XQueue<Message>(link.name, link.capacity));
      else if (q.capacity !== link.capacity) q.resize(link.capacity);
    }
  }

  /** Links `to` does not have: dropped once empty (their readers waited for that in stopOld). */
  private removeLinks(): void {
    for (const [name, q] of this.host.links) {
      if (this.to.links.has(name)) continue;
      if (q.size > 0 || q.stats().reserved > 0) {
        if (this.strict) throw new ReloadStepError('', `link ${JSON.stringify(name)} still holds ${q.size} messages, and the new topology has no such link`);
        this.host.logger.warn('reload rollback: a link the previous topology did not have still holds messages; it is kept', { flow: this.host.flow, link: name, held: q.size });
        continue;
      }
      this.host.links.delete(name);
      q.stop();
    }
  }

  /**
   * Drains the running incarnation of `name` (docs/operations.md#changing-a-running-flow), takes what it hands
   * over, and stops it.
   */
  private async stopOld(name: string): Promise<void> {
    const c = this.host.components.get(name);
    if (c === undefined) return;
    if (c.restartTimer !== undefined) clearTimeout(c.restartTimer);
    c.restartTimer = undefined;
    c.nextRestartAt = undefined;
    const figures: ComponentFigures = { startedAt: Date.now() };
    this.figures.set(name, figures);
    const deadline = Date.now() + this.timing.drainMs;
    const input = c.role === 'receiver' ? undefined : this.host.links.get(c.spec.linkName);
    if (input !== undefined && !this.to.links.has(input.name)) {
      // Its link goes away: it keeps taking until the link is empty (the writers were stopped before it).
      await untilDoneOrDeadline(deadline, () => input.size === 0, undefined, POLL_MS);
      if (input.size > 0 && this.strict) throw new ReloadStepError(name, `${name}: its link ${JSON.stringify(input.name)} still holds ${input.size} messages at the drain deadline, and the new topology has no such link`);
    }
    const finished = () => c.status.totals.done + c.status.totals.failed;
    const finishedBefore = finished();
    const request: DrainRequest = { deadline, onStop: 'wait', forReplace: true };
    const report = await c.ref.drain(request);
    if (c.role !== 'receiver') {
      c.ref.stopTaking();
      if (!c.ref.handsOver()) await untilDoneOrDeadline(deadline, () => c.ref.held() === 0, undefined, POLL_MS);
    }
    const handed = await c.ref.handOver();
    const returned = handed === undefined ? c.ref.held() : 0;
    await c.ref.stop();
    this.handed.set(name, handed);
    this.stoppedOld.add(name);
    figures.drained = report ?? { acknowledged: finished() - finishedBefore, returned };
    if (this.transitions.get(name)?.to === undefined && !this.strict) this.host.removeComponent(name);
  }

  private startNew(spec: ComponentSpec): void {
    const existing = this.host.components.get(spec.name);
    const c = existing ?? this.host.addComponent(spec);
    if (existing !== undefined) {
      c.earlierRestarts += c.ref.restarts();
      c.redefine(spec);
    }
    const figures = this.figures.get(spec.name) ?? {};
    figures.startedAt ??= Date.now();
    this.figures.set(spec.name, figures);
    c.status.set('READY', 'starting: a reload replaced its definition');
    const handed = this.handed.get(spec.name);
    this.handed.delete(spec.name);
    this.host.spawn(c, handed, this.to.pluginDirs);
    this.startedNew.add(spec.name);
  }

  private async untilReady(names: ReadonlySet<string>): Promise<void> {
    const components = [...names].map((n) => this.host.components.get(n)).filter((c): c is SupervisedComponent => c !== undefined);
    const ended = (c: SupervisedComponent) => c.ref.status() === 'failed' || c.ref.status() === 'stopped';
    await untilDoneOrDeadline(
      Date.now() + this.timing.readyTimeoutMs,
      () => components.every((c) => this.host.isReady(c) || ended(c)),
      () => {
        const now = Date.now();
        for (const c of components) {
          const f = this.figures.get(c.name);
          if (f !== undefined && f.readyAt === undefined && this.host.isReady(c)) f.readyAt = now;
        }
      },
      POLL_MS,
    );
    const late = components.filter((c) => !this.host.isReady(c));
    if (late.length === 0) return;
    const why = late.map((c) => {
      const snap = c.status.get();
      return `${c.name} is ${snap.status}${snap.detail ? ` (${snap.detail})` : ''}`;
    });
    throw new ReloadStepError(late[0].name, `not ready within ${this.timing.readyTimeoutMs} ms: ${why.join('; ')}`);
  }
}

/**
 * `names` in waves, upstream first: receivers, then each node or persister after every writer of its input.
 * A drained producer then still finds its downstream running to finish what it handed over.
 */
function producersFirst(topology: Topology, names: ReadonlySet<string>): string[][] {
  const depth = new Map<string, number>();
  const specs = topology.components;
  for (let round = 0; round <= specs.length; round++) {
    for (const s of specs) {
      const writers = s.role === 'receiver' ? [] : (topology.links.get(s.linkName)?.writers ?? []);
      depth.set(s.name, writers.reduce((d, w) => Math.max(d, (depth.get(w) ?? 0) + 1), 0));
    }
  }
  const waves: string[][] = [];
  for (const name of names) {
    const d = depth.get(name) ?? 0;
    (waves[d] ??= []).push(name);
  }
  return waves.filter((w) => w !== undefined);
}

/** Why a topology file could not be loaded, as `xroute validate` words it. */
function loadProblem(e: unknown, file: string): string {
  if (e instanceof ConfigError) return e.problems.filter((p) => p.severity === 'error').map(formatProblem).join('\n');
  if (e instanceof JsonSyntaxError) return formatProblem({ file, component: '', property: '', message: `invalid JSON at line ${e.line}, column ${e.column}: ${e.reason}`, severity: 'error' });
  return formatProblem({ file, component: '', property: '', message: describeFileError(e), severity: 'error' });
}
