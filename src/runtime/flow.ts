/**
 * A running topology: its XQueues and a flow supervisor actor that owns one child actor per component.
 *
 * Start order is consumers before producers (persisters, nodes, receivers) so nothing is produced into a
 * link before its reader is attached. Stop drains: receivers stop first (no new work is accepted from a
 * broker; what they had not finished is redelivered by the broker in XAMode 1), then the links are given
 * time to empty, then every actor stops, deepest first.
 */
import { ActorRef, ActorRuntime } from './actor';
import { ComponentEnv, ComponentRegistry, StatusReporter, StatusSnapshot } from './component';
import { Topology, ComponentSpec } from '../config/topology';
import { Logger, silentLogger } from '../logging/logger';
import { registerConfigSecrets } from '../logging/redact';
import { Message } from '../message/message';
import { Outcome, XQueue, XQueueStats } from '../xqueue/xqueue';

export interface FlowOptions {
  registry: ComponentRegistry;
  logger?: Logger;
  /** Sends that may wait for a free cell per link (default DEFAULT_MAX_WAITING_SENDS); more are refused. */
  maxWaitingSends?: number;
}

/**
 * Sends waiting for a free cell on one link. A producer that does not await its sends would otherwise
 * hold every message and promise it ever made (1M sends: 2.2 GB); past this many, send fails at once.
 */
export const DEFAULT_MAX_WAITING_SENDS = 10_000;

/**
 * send() found the link full and already as many sends waiting as the flow allows. It carries no stack
 * trace: a producer that does not await may cause a million of them, and the place is always send().
 */
export class QueueFullError extends Error {
  constructor(
    readonly flow: string,
    readonly link: string,
    readonly maxWaitingSends: number,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`flow ${flow}: link ${JSON.stringify(link)} is full and ${maxWaitingSends} sends are already waiting; await send() to be paced by the link`);
    Error.stackTraceLimit = limit;
    this.name = 'QueueFullError';
  }
}

export interface ComponentView {
  readonly name: string;
  readonly className: string;
  readonly role: string;
  readonly ref: ActorRef<never>;
  readonly status: StatusReporter;
  readonly spec: ComponentSpec;
}

export interface FlowStatus {
  readonly name: string;
  readonly components: readonly (StatusSnapshot & { name: string; className: string; actor: string; restarts: number })[];
  readonly links: readonly XQueueStats[];
}

export class UnknownLinkError extends Error {
  constructor(
    readonly flow: string,
    readonly link: string,
    readonly known: readonly string[],
  ) {
    super(`flow ${flow} has no link ${JSON.stringify(link)}; links: ${known.join(', ')}`);
    this.name = 'UnknownLinkError';
  }
}

export class Flow {
  readonly name: string;
  private readonly links = new Map<string, XQueue<Message>>();
  private readonly components = new Map<string, ComponentView>();
  private readonly waitingSends = new Map<string, number>();
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly topology: Topology,
    readonly runtime: ActorRuntime,
    private readonly logger: Logger,
    readonly maxWaitingSends: number,
  ) {
    this.name = topology.name;
  }

  /** Creates the links and starts every component under one flow supervisor. */
  static start(topology: Topology, options: FlowOptions): Flow {
    const logger = options.logger ?? silentLogger;
    const runtime = new ActorRuntime(topology.name, logger);
    const flow = new Flow(topology, runtime, logger, options.maxWaitingSends ?? DEFAULT_MAX_WAITING_SENDS);
    for (const link of topology.links.values()) flow.links.set(link.name, new XQueue<Message>(link.name, link.capacity));
    for (const spec of topology.components) {
      const status = new StatusReporter();
      const env: ComponentEnv = {
        name: spec.name,
        className: spec.definition.className,
        config: spec.config,
        input: spec.role === 'receiver' ? undefined : flow.links.get(spec.linkName),
        output: spec.role === 'receiver' ? flow.links.get(spec.linkName) : undefined,
        outlinks: spec.outLinks.map((o) => flow.links.get(o.name)!),
        baseDir: spec.baseDir,
        pluginDirs: topology.pluginDirs,
        logger: logger.child({ component: spec.name }),
        status,
        registry: options.registry,
      };
      registerConfigSecrets(spec.config);
      const ref = runtime.spawn<never>(spec.name, () => spec.definition.create(env), { policy: spec.policy, logger: env.logger });
      flow.components.set(spec.name, { name: spec.name, className: spec.definition.className, role: spec.role, ref, status, spec });
    }
    logger.info('flow started', { flow: topology.name, components: topology.components.length, links: topology.links.size });
    return flow;
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

  status(): FlowStatus {
    return {
      name: this.name,
      components: [...this.components.values()].map((c) => ({
        name: c.name,
        className: c.className,
        actor: c.ref.status(),
        restarts: c.ref.restarts(),
        ...c.status.get(),
      })),
      links: [...this.links.values()].map((q) => q.stats()),
    };
  }

  /**
   * Stops cleanly: receivers first, then waits up to `drainMs` for the links to empty, then stops all.
   * Messages still queued after the drain are not acknowledged to their broker (they are redelivered).
   */
  stop(options: { drainMs?: number } = {}): Promise<void> {
    if (!this.stopping) this.stopping = this.doStop(options.drainMs ?? 10_000);
    return this.stopping;
  }

  private async doStop(drainMs: number): Promise<void> {
    const receivers = [...this.components.values()].filter((c) => c.role === 'receiver');
    await Promise.all(receivers.map((c) => c.ref.stop()));
    const drained = await Promise.race([
      Promise.all([...this.links.values()].map((q) => q.whenEmpty())).then(() => true),
      sleep(drainMs).then(() => false),
    ]);
    if (!drained) {
      const left = [...this.links.values()].filter((q) => q.size > 0).map((q) => `${q.name}:${q.size}`);
      this.logger.warn('stopping with messages still in links', { flow: this.name, links: left });
    }
    for (const q of this.links.values()) q.stop();
    await this.runtime.stop();
    this.logger.info('flow stopped', { flow: this.name, drained });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => {
    const t = setTimeout(r, ms);
    t.unref();
  });
}
