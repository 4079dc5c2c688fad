/**
 * One direction of a reload's swap (src/runtime/flow-reload.ts): drains the outgoing incarnations upstream first and
 * stops them, keeping what waits in the links, then starts the new ones consumers first with what their
 * predecessors handed over, and waits until they run. A rollback is a Swap the other way over what a failed one changed.
 */
import type { HandedOver } from './actor';
import type { ComponentRegistry } from './component';
import { DrainRequest, SWAP_POLL_MS, untilDoneOrDeadline } from './drain';
import type { SupervisedComponent } from './supervised-component';
import type { Logger } from '../logging/logger';
import type { ComponentSpec, Topology } from './topology-types';
import { Message } from '../message/message';
import { XQueue } from '../xqueue/xqueue';
import { ReloadStepError } from './errors';

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

/** One component's change: `from` the running definition (none: added), `to` the new one (none: removed). */
export interface Transition {
  readonly name: string;
  readonly from?: ComponentSpec;
  readonly to?: ComponentSpec;
}

/** What the receipt reports of one component: what its drain finished and gave back, when its swap began and ended. */
export interface ComponentFigures {
  drained?: { acknowledged: number; returned: number };
  startedAt?: number;
  readyAt?: number;
}

/**
 * One direction of a reload: from the definitions of `from` to those of `to` for the components in transition.
 * A rollback is a Swap the other way over what the failed one changed.
 */
export class Swap {
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

  /**
   * Links `to` does not have: dropped once empty (their readers waited for that in stopOld), and closed, so that the
   * totals of a component that wrote to one keep its figures but not the queue.
   */
  private removeLinks(): void {
    for (const [name, q] of this.host.links) {
      if (this.to.links.has(name)) continue;
      if (q.size > 0 || q.stats().reserved > 0) {
        if (this.strict) throw new ReloadStepError('', `link ${JSON.stringify(name)} still holds ${q.size} messages, and the new topology has no such link`);
        this.host.logger.warn('reload rollback: a link the previous topology did not have still holds messages; it is kept', {
          flow: this.host.flow,
          link: name,
          held: q.size,
        });
        continue;
      }
      this.host.links.delete(name);
      q.close();
    }
  }

  /**
   * Drains the running incarnation of `name` (docs/operations.md#changing-a-running-flow), takes what it hands
   * over, and stops it. A removed component (no successor) drains as at a stop: nothing is handed over, what it
   * holds at the deadline goes back to its link and what its receiver took back to the broker.
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
      await untilDoneOrDeadline(deadline, () => input.size === 0, undefined, SWAP_POLL_MS);
      if (input.size > 0 && this.strict)
        throw new ReloadStepError(
          name,
          `${name}: its link ${JSON.stringify(input.name)} still holds ${input.size} messages at the drain deadline, and the new topology has no such link`,
        );
    }
    const finished = () => c.status.totals.done + c.status.totals.failed;
    const finishedBefore = finished();
    const replaced = this.transitions.get(name)?.to !== undefined;
    const request: DrainRequest = replaced ? { deadline, onStop: 'wait', forReplace: true } : { deadline, onStop: 'wait' };
    const report = await c.ref.drain(request);
    if (c.role !== 'receiver') {
      c.ref.stopTaking();
      if (!replaced || !c.ref.handsOver()) await untilDoneOrDeadline(deadline, () => c.ref.held() === 0, undefined, SWAP_POLL_MS);
    }
    const handed = replaced ? await c.ref.handOver() : undefined;
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
      SWAP_POLL_MS,
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
      depth.set(
        s.name,
        writers.reduce((d, w) => Math.max(d, (depth.get(w) ?? 0) + 1), 0),
      );
    }
  }
  const waves: string[][] = [];
  for (const name of names) {
    const d = depth.get(name) ?? 0;
    (waves[d] ??= []).push(name);
  }
  return waves.filter((w) => w !== undefined);
}
