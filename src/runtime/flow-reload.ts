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
import { DEFAULT_DRAIN_TIMEOUT_MS } from './drain';
import type { Topology } from './topology-types';
import { redactText } from '../logging/redact';
import { ComponentFingerprint, fingerprintTopology, planIsEmpty, planReload } from './reload-plan';
import { ComponentChange, REDELIVERED_COUNTER, ReloadOptions, ReloadPlan, ReloadReceipt } from './reload-receipt';
import { ReloadHost, Swap, Transition } from './reload-swap';

export type { ReloadHost } from './reload-swap';

/** A new incarnation that is not RUNNING by then rolls the reload back (ReloadOptions.readyTimeoutMs). */
export const DEFAULT_RELOAD_READY_TIMEOUT_MS = 30_000;

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
    const source = current.source;
    if (typeof next === 'string' && source === undefined)
      return refuse(`${next}: this flow's topology was not read from a file (built by hand): reload it with flow.reload(topology)`);
    try {
      topology = typeof next === 'string' ? source!.load(next) : next;
    } catch (e) {
      const file = typeof next === 'string' ? next : current.file;
      return refuse(source !== undefined ? source.describeLoadError(e, file) : `${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
    let nextFingerprints: ReadonlyMap<string, ComponentFingerprint>;
    let plan: ReloadPlan;
    try {
      nextFingerprints = fingerprintTopology(topology);
      plan = planReload(
        { topology: current, fingerprints: this.fingerprints, held: (link) => this.host.links.get(link)?.size ?? 0 },
        topology,
        nextFingerprints,
      );
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
    const source = topology.source ?? this.host.topology().source;
    const changedLinks = new Set(plan.links.filter((l) => l.action !== 'kept').map((l) => l.name));
    const actions = new Map(plan.components.map((c) => [c.name, c.action]));
    for (const spec of topology.components) {
      const action = actions.get(spec.name);
      const touchesChangedLink = changedLinks.has(spec.linkName) || spec.outLinks.some((o) => changedLinks.has(o.name));
      if (action === 'kept' && !touchesChangedLink) continue;
      const capacity = topology.links.get(spec.linkName)?.capacity;
      let settings: unknown;
      try {
        settings = spec.definition.settings?.(spec.name, spec.config, spec.baseDir, {
          pluginDirs: topology.pluginDirs,
          registry: this.host.registry,
          ...(spec.role === 'receiver' ? { outputCapacity: capacity } : { inputCapacity: capacity }),
        });
      } catch (e) {
        problems.push(
          source !== undefined ? source.describeSettingsError(e, spec) : `${spec.file}: ${spec.name}: ${e instanceof Error ? e.message : String(e)}`,
        );
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
      if (reason === undefined) continue;
      const message = `cannot be replaced now: ${reason}`;
      problems.push(source !== undefined ? source.describeProblem(spec, '', message) : `${spec.file}: ${spec.name}: ${message}`);
    }
    for (const removed of plan.components.filter((c) => c.action === 'removed')) {
      // Named in the new topology's file: that file removes it.
      const reason = await this.refusesRemoval(removed.name);
      if (reason === undefined) continue;
      const message = `cannot be removed now: ${reason}`;
      problems.push(
        source !== undefined
          ? source.describeProblem({ file: topology.file, name: removed.name }, '', message)
          : `${topology.file}: ${removed.name}: ${message}`,
      );
    }
    return problems;
  }

  /** Why the running component `name`, which the new topology removes, cannot be removed now (Behaviour.refuseRemove). */
  private async refusesRemoval(name: string): Promise<string | undefined> {
    const running = this.host.components.get(name);
    try {
      return running === undefined ? undefined : await running.ref.refuseRemove();
    } catch (e) {
      return `asking it failed: ${e instanceof Error ? e.message : String(e)}`;
    }
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
    this.host.logger.info('reload: applying', {
      flow: this.host.flow,
      reload: head.id,
      plan: plan.components.filter((c) => c.action !== 'kept').map((c) => `${c.action} ${c.name}`),
    });
    const swap = new Swap(this.host, current, next, transitions, timing, true);
    let outcome: ReloadReceipt['outcome'] = 'applied';
    let error: string | undefined;
    try {
      await swap.run(new Set(transitions.filter((t) => t.from).map((t) => t.name)), new Set(transitions.filter((t) => t.to).map((t) => t.name)));
      this.commit(next, nextFingerprints, transitions);
    } catch (e) {
      outcome = 'rolled-back';
      error = redactText(e instanceof Error ? e.message : String(e));
      this.host.logger.error('reload: a step failed; rolling back to the previous definitions', { flow: this.host.flow, reload: head.id, error });
      const back = new Swap(
        this.host,
        next,
        current,
        transitions.map((t) => ({ name: t.name, from: t.to, to: t.from })),
        timing,
        false,
        swap.leftOver(),
      );
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
