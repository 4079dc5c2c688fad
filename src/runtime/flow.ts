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
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly topology: Topology,
    readonly runtime: ActorRuntime,
    private readonly logger: Logger,
  ) {
    this.name = topology.name;
  }

  /** Creates the links and starts every component under one flow supervisor. */
  static start(topology: Topology, options: FlowOptions): Flow {
    const logger = options.logger ?? silentLogger;
    const runtime = new ActorRuntime(topology.name, logger);
    const flow = new Flow(topology, runtime, logger);
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
   * Puts a message into a link (waiting for a free cell) and resolves when a consumer has finished with
   * it, with the message as the consumer left it (e.g. evaluated by a MessageEvaluator).
   */
  async send(linkName: string, msg: Message, options: { signal?: AbortSignal } = {}): Promise<{ outcome: Outcome; message: Message }> {
    const q = this.link(linkName);
    return new Promise((resolve, reject) => {
      q.put(msg, (item, outcome) => resolve({ outcome, message: item }), { signal: options.signal }).catch(reject);
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
