/**
 * The contract between the runtime and every component (receivers, nodes, persisters, pools).
 *
 * A component is described by a ComponentDefinition (class name, role, operations, JSON schema) and runs
 * as an actor whose Behaviour the definition creates from a ComponentEnv: its validated configuration,
 * the XQueues it reads and writes, a logger and a status reporter. The runtime creates a fresh behaviour
 * at start and at every supervised restart.
 */
import { Behaviour } from './actor';
import { Logger } from '../logging/logger';
import { redactText } from '../logging/redact';
import { Message } from '../message/message';
import { MessageTally, XQueue } from '../xqueue/xqueue';

export type Role = 'receiver' | 'node' | 'persister';

/** Configuration values are strings as in the original, except lists and maps. */
export type ConfigValue = string | ConfigValue[] | { [key: string]: ConfigValue };
export type ComponentConfig = Readonly<Record<string, ConfigValue>>;

/** Component states, numbered as in the original (components.md §2.2), plus FAILED for a child that gave up. */
export const COMPONENT_STATUS = ['READY', 'RUNNING', 'RETRYING', 'PAUSE', 'STANDBY', 'DISABLED', 'STOPPED', 'CLOSED', 'FAILED'] as const;
export type ComponentStatus = (typeof COMPONENT_STATUS)[number];

export interface StatusSnapshot {
  readonly status: ComponentStatus;
  /** Human-readable reason, e.g. "connection refused; retry 3 in 800 ms". Never holds a password. */
  readonly detail?: string;
  readonly since: number;
  /** Component-specific counters (messages received, acked, retries, ...). */
  readonly counters: Readonly<Record<string, number>>;
}

/**
 * The figures every component has, whatever its class: messages in, done and failed (counted by the
 * XQueues it reads or writes) and reconnects (counted by its Reconnector). The one source for the admin
 * status, the metrics and the totals logged at stop.
 */
export class ComponentTotals implements MessageTally {
  in = 0;
  done = 0;
  failed = 0;
  reconnects = 0;
  /** MessageEvaluator: messages per ruleset (as named in the message) and return code. */
  readonly results = new Map<string, Map<string, number>>();

  countResult(ruleset: string, rc: string): void {
    let byRc = this.results.get(ruleset);
    if (byRc === undefined) this.results.set(ruleset, (byRc = new Map()));
    byRc.set(rc, (byRc.get(rc) ?? 0) + 1);
  }
}

/** A child of a pool as the admin status shows it. */
export interface ChildStatus {
  readonly name: string;
  readonly className: string;
  readonly status: ComponentStatus;
}

/** Where a component reports its state; the flow, pools and `xroute` status read it. */
export class StatusReporter {
  readonly totals = new ComponentTotals();
  private childLister: (() => ChildStatus[]) | undefined;
  private snapshot: StatusSnapshot = { status: 'READY', since: Date.now(), counters: {} };
  private readonly listeners = new Set<(s: StatusSnapshot) => void>();
  private readonly counters: Record<string, number> = {};

  /** `detail` is redacted like a log line: operators read it, and an error text may quote a password. */
  set(status: ComponentStatus, rawDetail?: string): void {
    const detail = rawDetail === undefined ? undefined : redactText(rawDetail);
    if (status === this.snapshot.status && detail === this.snapshot.detail) return;
    const since = status === this.snapshot.status ? this.snapshot.since : Date.now();
    this.snapshot = { status, detail, since, counters: this.counters };
    for (const l of [...this.listeners]) l(this.snapshot);
  }

  count(name: string, by = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + by;
  }

  /** A pool lists its children (read only when a status is asked for). */
  listChildren(lister: () => ChildStatus[]): void {
    this.childLister = lister;
  }

  children(): ChildStatus[] | undefined {
    return this.childLister?.();
  }

  countReconnect(): void {
    this.totals.reconnects++;
  }

  get(): StatusSnapshot {
    return { ...this.snapshot, counters: { ...this.counters } };
  }

  get status(): ComponentStatus {
    return this.snapshot.status;
  }

  onChange(listener: (s: StatusSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Everything a component gets from the runtime. */
export interface ComponentEnv {
  readonly name: string;
  readonly className: string;
  readonly config: ComponentConfig;
  /** Nodes and persisters: the XQueue named by LinkName. */
  readonly input?: XQueue<Message>;
  /** Receivers: the XQueue named by LinkName. */
  readonly output?: XQueue<Message>;
  /** Nodes: the OutLink queues, in configuration order. */
  readonly outlinks: readonly XQueue<Message>[];
  /** Directory of the file that holds this configuration: relative paths resolve against it. */
  readonly baseDir: string;
  /** Directories plugins may be loaded from (the topology's PluginDir). */
  readonly pluginDirs: readonly string[];
  readonly logger: Logger;
  readonly status: StatusReporter;
  /** Component definitions by class name, for pools that spawn children. */
  readonly registry: ComponentRegistry;
}

/** A problem found in a configuration, reported with where it is and what was expected. */
export interface ConfigIssue {
  /** JSON-pointer-like path inside the component configuration, e.g. "Ruleset/0/Threshold". */
  readonly property: string;
  readonly message: string;
  readonly severity?: 'error' | 'warning';
}

/** What a component's validate() may need besides its configuration. */
export interface ValidationContext {
  /** The topology's PluginDir directories (absolute). */
  readonly pluginDirs: readonly string[];
  /** The component classes, for configurations that hold other components' properties (a pool's DefaultProperty). */
  readonly registry?: ComponentRegistry;
}

/** JSON Schema (draft 2020-12 / draft-07 subset ajv understands) for a component's own properties. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface ComponentDefinition<M = never> {
  /** Canonical "group.Class", e.g. "receiver.AmqpReceiver". */
  readonly className: string;
  /** Other accepted "group.Class" names, e.g. the original's "receiver.RMQReceiver". */
  readonly aliases?: readonly string[];
  readonly role: Role;
  /** Supported values of Operation; the first is the default. */
  readonly operations: readonly string[];
  readonly description: string;
  /** Schema of the component's own properties (the loader adds the common ones). */
  readonly schema: JsonSchema;
  /** Nodes whose first N outlinks are fixed roles that may share one link (CollectNode's done/failure/nohit). */
  readonly repeatableOutlinks?: number;
  /**
   * Checks the schema cannot express (cross-field rules, regex compilation, files that must exist).
   * Runs at load time, before anything connects; must not open connections.
   */
  validate?(config: ComponentConfig, baseDir: string, context?: ValidationContext): ConfigIssue[];
  /** A new behaviour for each start and restart. */
  create(env: ComponentEnv): Behaviour<M>;
}

export type AnyComponentDefinition = ComponentDefinition<never>;

export class UnknownComponentClassError extends Error {
  constructor(
    readonly component: string,
    readonly className: string,
    readonly known: readonly string[],
  ) {
    super(`${component}: unknown ClassName ${JSON.stringify(className)}; known classes: ${known.join(', ')}`);
    this.name = 'UnknownComponentClassError';
  }
}

/**
 * Resolves ClassName by its last two dot-separated parts (group and class), whatever the root package:
 * "org.qbroker.receiver.RMQReceiver" and "receiver.AmqpReceiver" name the same component.
 */
export class ComponentRegistry {
  private readonly byKey = new Map<string, AnyComponentDefinition>();
  private readonly canonical: AnyComponentDefinition[] = [];

  constructor(definitions: readonly AnyComponentDefinition[] = []) {
    for (const d of definitions) this.register(d);
  }

  register(def: AnyComponentDefinition): void {
    for (const name of [def.className, ...(def.aliases ?? [])]) {
      const key = name.toLowerCase();
      if (this.byKey.has(key)) throw new Error(`component class ${name} registered twice`);
      this.byKey.set(key, def);
    }
    this.canonical.push(def);
  }

  /** The definition for a ClassName, or undefined. */
  find(className: string): AnyComponentDefinition | undefined {
    const parts = className.trim().split('.').filter((p) => p !== '');
    if (parts.length === 0) return undefined;
    const key = (parts.length >= 2 ? parts.slice(-2) : parts).join('.').toLowerCase();
    const direct = this.byKey.get(key);
    if (direct || parts.length >= 2) return direct;
    // A bare class name ("JobNode") is accepted when it is unambiguous.
    const matches = this.canonical.filter((d) => [d.className, ...(d.aliases ?? [])].some((n) => n.split('.').pop()!.toLowerCase() === key));
    return matches.length === 1 ? matches[0] : undefined;
  }

  resolve(component: string, className: string): AnyComponentDefinition {
    const def = this.find(className);
    if (!def) throw new UnknownComponentClassError(component, className, this.knownNames());
    return def;
  }

  knownNames(): string[] {
    return this.canonical.flatMap((d) => [d.className, ...(d.aliases ?? []).map((a) => `${a} (= ${d.className})`)]);
  }

  all(): readonly AnyComponentDefinition[] {
    return this.canonical;
  }
}
