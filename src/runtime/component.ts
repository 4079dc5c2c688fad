/**
 * The contract between the runtime and every component (receivers, nodes, persisters, pools).
 *
 * A component is described by a ComponentDefinition (class name, role, operations, JSON schema) and runs
 * as an actor whose Behaviour the definition creates from a ComponentEnv: its validated configuration,
 * the XQueues it reads and writes, a logger and a status reporter. The runtime creates a fresh behaviour
 * at start and at every supervised restart.
 */
import type { ParkedStore } from '../parking/parked-store';
import { NameTable } from '../foundation/name-table';
import { closest } from '../foundation/did-you-mean';
import type { JsonSchema } from '../foundation/schema-helpers';
import { Behaviour } from './actor';
import { Logger } from '../logging/logger';
import { redactText } from '../logging/redact';
import { ConfigValueError } from '../errors/config-value-error';
import { declareSecretProperties } from '../foundation/secret-properties';
import { Message } from '../message/message';
import { MessageTally, XQueue, tallyTraced } from '../xqueue/xqueue';
import { MessageCounts } from '../xqueue/message-counts';
import type { ComponentTracer } from './message-trace';
import { UnknownComponentClassError } from './errors';

export type Role = 'receiver' | 'node' | 'persister';

/** Configuration values are strings as in the original, except lists and maps. */
export type ConfigValue = string | ConfigValue[] | { [key: string]: ConfigValue };
export type ComponentConfig = Readonly<Record<string, ConfigValue>>;

/** Component states, numbered as in the original (docs/operations.md), plus FAILED for a child that gave up. */
export const COMPONENT_STATUS = ['READY', 'RUNNING', 'RETRYING', 'PAUSE', 'STANDBY', 'DISABLED', 'STOPPED', 'CLOSED', 'FAILED'] as const;
export type ComponentStatus = (typeof COMPONENT_STATUS)[number];

export interface StatusSnapshot {
  readonly status: ComponentStatus;
  /** Human-readable reason, e.g. "connection refused; retry 3 in 800 ms". Never holds a password. */
  readonly detail?: string;
  readonly since: number;
  /** Epoch ms of the next attempt, while the component waits to retry (reconnect, republish, restart). */
  readonly nextRetryAt?: number;
  /** Component-specific counters (messages received, acked, retries, ...). */
  readonly counters: Readonly<Record<string, number>>;
}

/**
 * The figures every component has, whatever its class: messages in, done and failed (counted by the
 * XQueues it reads or writes, summed when read: MessageCounts) and reconnects (counted by its Reconnector). The one
 * source for the admin status, the metrics and the totals logged at stop.
 */
export class ComponentTotals extends MessageCounts implements MessageTally {
  reconnects = 0;
  private tracer: ComponentTracer | undefined = undefined;
  /** MessageEvaluator: messages per ruleset (as named in the message) and return code. */
  readonly results = new Map<string, Map<string, number>>();

  /** The component's tracer while `--trace` or POST /trace names it (the flow sets it). */
  get trace(): ComponentTracer | undefined {
    return this.tracer;
  }

  /** Counted for the XQueues (tallyTraced): they read a tally's trace only while some tally has one. */
  set trace(tracer: ComponentTracer | undefined) {
    if ((tracer === undefined) !== (this.tracer === undefined)) tallyTraced(tracer !== undefined);
    this.tracer = tracer;
  }

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

/** Deliveries a receiver holds unsettled at its broker while downstream works on them (XAMode 1). */
export interface UnsettledDeliveries {
  readonly deliveries: number;
  /** Seconds since the oldest of them arrived (0 when there is none). */
  readonly oldestAgeSeconds: number;
}

/** One error a component reported (masked), as the status page's details list them. */
export interface RecordedError {
  /** Epoch ms of the latest time it was reported. */
  readonly at: number;
  readonly text: string;
  /** How many times in a row it was reported (a reconnect loop repeats the same error). */
  readonly count: number;
}

/** Errors kept per component: enough to see what went wrong lately, bounded for a component that fails for days. */
export const RECENT_ERRORS = 10;

/**
 * One named counter of a StatusReporter (StatusReporter.counter). A receiver holds the ones it counts per message,
 * so a message pays an increment, not a look-up by name. It shows in the status once counted (even by 0).
 */
export class StatusCounter {
  value = 0;
  counted = false;

  constructor(
    readonly name: string,
    /** Told of the first count (a reporter, not a closure per reporter: a pool keeps 512 children's; issue 32). */
    private readonly reporter: Pick<StatusReporter, 'firstCounted'>,
  ) {}

  add(by = 1): void {
    if (!this.counted) {
      this.counted = true;
      this.reporter.firstCounted(this);
    }
    this.value += by;
  }
}

/** Where a component reports its state; the flow, pools and `xroute` status read it. */
export class StatusReporter {
  readonly totals = new ComponentTotals();
  private childLister: (() => ChildStatus[]) | undefined;
  private unsettledReader: (() => UnsettledDeliveries) | undefined;
  private parkedCount: number | undefined;
  private parkingOpener: (() => Promise<ParkedStore>) | undefined;
  private snapshot: StatusSnapshot = { status: 'READY', since: Date.now(), counters: {} };
  private readonly listeners = new Set<(s: StatusSnapshot) => void>();
  private readonly counterByName = new Map<string, StatusCounter>();
  /** The counters counted so far, in the order they were first counted (the order the status lists them in). */
  private readonly counted: StatusCounter[] = [];
  private readonly errors: RecordedError[] = [];

  /** `detail` is redacted like a log line: operators read it, and an error text may quote a password. */
  set(status: ComponentStatus, rawDetail?: string, nextRetryAt?: number): void {
    const detail = rawDetail === undefined ? undefined : redactText(rawDetail);
    if (status === this.snapshot.status && detail === this.snapshot.detail && nextRetryAt === this.snapshot.nextRetryAt) return;
    const since = status === this.snapshot.status ? this.snapshot.since : Date.now();
    this.snapshot = { status, detail, since, ...(nextRetryAt !== undefined ? { nextRetryAt } : {}), counters: this.counterValues() };
    if ((status === 'RETRYING' || status === 'FAILED') && detail !== undefined) this.recordError(detail);
    for (const l of [...this.listeners]) l(this.snapshot);
  }

  /** Keeps `text` (masked here) among the last RECENT_ERRORS errors; a repeat of the newest one only counts. */
  recordError(text: string, at = Date.now()): void {
    const masked = redactText(text);
    const newest = this.errors[this.errors.length - 1];
    if (newest !== undefined && newest.text === masked) {
      this.errors[this.errors.length - 1] = { at, text: masked, count: newest.count + 1 };
      return;
    }
    this.errors.push({ at, text: masked, count: 1 });
    if (this.errors.length > RECENT_ERRORS) this.errors.shift();
  }

  /** The last errors, oldest first. */
  recentErrors(): readonly RecordedError[] {
    return [...this.errors];
  }

  count(name: string, by = 1): void {
    this.counter(name).add(by);
  }

  /** The counter `name`, to hold and count with directly (it shows in the status once counted). */
  counter(name: string): StatusCounter {
    let c = this.counterByName.get(name);
    if (c === undefined) this.counterByName.set(name, (c = new StatusCounter(name, this)));
    return c;
  }

  /** A counter of this reporter counted for the first time (StatusCounter.add). */
  firstCounted(c: StatusCounter): void {
    this.counted.push(c);
  }

  private counterValues(): Record<string, number> {
    const values: Record<string, number> = {};
    for (const c of this.counted) values[c.name] = c.value;
    return values;
  }

  /** A pool lists its children (read only when a status is asked for). */
  listChildren(lister: () => ChildStatus[]): void {
    this.childLister = lister;
  }

  children(): ChildStatus[] | undefined {
    return this.childLister?.();
  }

  /** A receiver that settles after downstream work says what it holds (read only when a status is asked for). */
  reportUnsettled(reader: () => UnsettledDeliveries): void {
    this.unsettledReader = reader;
  }

  unsettled(): UnsettledDeliveries | undefined {
    return this.unsettledReader?.();
  }

  /** A receiver with a parking place says how many messages are still parked there (docs/operations.md). */
  setParked(count: number): void {
    this.parkedCount = count;
  }

  parked(): number | undefined {
    return this.parkedCount;
  }

  /** A receiver with a parking place says how to open it (the admin routes /parked use it). */
  provideParking(open: () => Promise<ParkedStore>): void {
    this.parkingOpener = open;
  }

  parkingPlace(): (() => Promise<ParkedStore>) | undefined {
    return this.parkingOpener;
  }

  countReconnect(): void {
    this.totals.reconnects++;
  }

  get(): StatusSnapshot {
    return { ...this.snapshot, counters: this.counterValues() };
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
  /**
   * On a reload that replaces this component: what the previous incarnation's behaviour handed over
   * (Behaviour.handOver), e.g. JobNode's active and pending jobs. Undefined on a first start or a restart.
   */
  readonly inherited?: unknown;
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
  /**
   * The capacity of the output XQueue, when there is one (at start; `xroute validate` has none): a receiver's
   * reader checks its Partition against it.
   */
  readonly outputCapacity?: number;
  /** The capacity of the input XQueue, when there is one (at start): a pool's DefaultPoolSize defaults to it. */
  readonly inputCapacity?: number;
  /**
   * Where a settings reader reports a value it can use but that is probably not what the user meant:
   * `xroute validate` lists it as a warning, a start logs it (with `fields`).
   */
  readonly warn?: (property: string, message: string, fields?: Readonly<Record<string, string>>) => void;
}

/** JSON Schema for a component's own properties (defined with the schema helpers, below the runtime). */
export type { JsonSchema };

/**
 * `M`: the messages the behaviour takes; `S`: the settings its `settings` reader produces, which the runtime
 * hands to create() (undefined for a component without a reader).
 */
export interface ComponentDefinition<M = never, S = unknown> {
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
   * The component reads an input XQueue (LinkName): the runtime refuses to start it without one, as a
   * configuration error of LinkName, so that the behaviour may take `env.input` as given (inputOf).
   */
  readonly needsInput?: boolean;
  /** The component writes an output XQueue (LinkName), checked like needsInput (outputOf). */
  readonly needsOutput?: boolean;
  /**
   * Receivers: true when this configuration reads a file or stdin to its end and then stops. A flow whose
   * receivers all do is a batch, whose outputs `xroute run` waits for only so long (docs/cli.md).
   */
  readsToEnd?(config: ComponentConfig, baseDir: string): boolean;
  /**
   * The component runs as soon as its start has returned (it waits for no connection): the runtime then
   * reports RUNNING. Without it the behaviour reports RUNNING itself, when it really runs (its connection is
   * up). Either way the runtime reports STOPPED once a stop (not a restart) has run (withLifecycleStatus).
   */
  readonly runsOnStart?: boolean;
  /**
   * The settings reader, the component's compile step: turns a configuration into the immutable, typed settings
   * the behaviour runs on, validating everything and throwing a ConfigValueError (src/errors/config-value-error.ts)
   * for a value it cannot use. `xroute validate` runs it and reports its error and warnings
   * (src/config/config-issues.ts); at every start the runtime runs it once more (createBehaviour) and hands
   * what it read to create(), so that the two cannot read differently. Free of side effects: it opens no
   * connection, starts no timer, instantiates nothing and runs no user code (a plugin is found, not loaded).
   */
  readonly settings?: (name: string, config: ComponentConfig, baseDir: string, context: ValidationContext) => S;
  /**
   * Checks beyond the settings reader (warnings, properties without effect), run by validate once the settings
   * read; it may throw a ConfigValueError as the reader does. Must not open connections.
   */
  validate?(config: ComponentConfig, baseDir: string, context?: ValidationContext): ConfigIssue[];
  /**
   * A new behaviour for each start and restart, on the settings the runtime read with `settings` (a method,
   * so that a definition of any settings type is an AnyComponentDefinition). It and the behaviour's start
   * read the settings, never the configuration; start is where connections open and plugins start.
   */
  create(env: ComponentEnv, settings: S): Behaviour<M>;
}

export type AnyComponentDefinition = ComponentDefinition<never>;

/** The LinkName error of a component started without the XQueue its definition needs. */
function missingLink(env: ComponentEnv, which: 'input' | 'output'): ConfigValueError {
  return new ConfigValueError({ component: env.name, property: 'LinkName', expected: `the ${which} XQueue of a ${env.className}` });
}

/** Refuses, before create(), an environment without the links the definition declares (needsInput, needsOutput). */
function checkLinks(def: Pick<AnyComponentDefinition, 'needsInput' | 'needsOutput'>, env: ComponentEnv): void {
  if (def.needsInput === true && env.input === undefined) throw missingLink(env, 'input');
  if (def.needsOutput === true && env.output === undefined) throw missingLink(env, 'output');
}

/**
 * A new behaviour of `def` for `env`: how the runtime and the pools create every component. Checks the links,
 * reads the settings with the definition's reader (throwing its ConfigValueError) and hands them to create().
 */
export function createBehaviour<M, S>(def: ComponentDefinition<M, S>, env: ComponentEnv): Behaviour<M> {
  checkLinks(def, env);
  const context: ValidationContext = {
    pluginDirs: env.pluginDirs,
    registry: env.registry,
    outputCapacity: env.output?.capacity,
    inputCapacity: env.input?.capacity,
    warn: (property, text, fields) => env.logger.warn(text, { ...fields, property }),
  };
  // Without a reader there are no settings: such a definition's S is left at its default and create ignores it.
  const settings = def.settings === undefined ? (undefined as S) : def.settings(env.name, env.config, env.baseDir, context);
  return withLifecycleStatus(def.create(env, settings), env.status, def.runsOnStart === true);
}

/**
 * The runtime's part of a component's status: RUNNING once start has returned (when `reportRunning`), STOPPED
 * once a stop has run, unless the behaviour ended FAILED or already said why it stopped. A stop before a
 * restart leaves the status to the next incarnation (a pool reads STOPPED as its child being closed).
 */
function withLifecycleStatus<M>(b: Behaviour<M>, status: StatusReporter, reportRunning: boolean): Behaviour<M> {
  return {
    start(ctx) {
      const started = b.start?.(ctx);
      if (!reportRunning) return started;
      if (started instanceof Promise) return started.then(() => status.set('RUNNING'));
      status.set('RUNNING');
    },
    receive: b.receive?.bind(b),
    drain: b.drain?.bind(b),
    handOver: b.handOver?.bind(b),
    refuseReplace: b.refuseReplace?.bind(b),
    refuseRemove: b.refuseRemove?.bind(b),
    async stop(ctx, reason) {
      try {
        await b.stop?.(ctx, reason);
      } finally {
        if (reason === 'stop' && status.status !== 'FAILED' && status.status !== 'STOPPED') status.set('STOPPED');
      }
    },
  };
}

/** The input XQueue of a component whose definition declares needsInput (checked by the runtime before create). */
export function inputOf(env: ComponentEnv): XQueue<Message> {
  if (env.input === undefined) throw missingLink(env, 'input');
  return env.input;
}

/** The output XQueue of a component whose definition declares needsOutput. */
export function outputOf(env: ComponentEnv): XQueue<Message> {
  if (env.output === undefined) throw missingLink(env, 'output');
  return env.output;
}

/**
 * Resolves ClassName by its last two dot-separated parts (group and class), whatever the root package:
 * "org.qbroker.receiver.RMQReceiver" and "receiver.AmqpReceiver" name the same component.
 */
export class ComponentRegistry {
  /** Canonical names and aliases, whatever their case (NameTable, the one registry style). */
  private readonly table = new NameTable<AnyComponentDefinition>('ClassName', [], { caseInsensitive: true });
  private readonly canonical: AnyComponentDefinition[] = [];

  constructor(definitions: readonly AnyComponentDefinition[] = []) {
    for (const d of definitions) this.register(d);
  }

  /** Registers a class; the properties its schema declares secret are masked from then on (src/foundation/secret-properties.ts). */
  register(def: AnyComponentDefinition): void {
    declareSecretProperties(def.schema);
    for (const name of [def.className, ...(def.aliases ?? [])]) this.table.register(name, def);
    this.canonical.push(def);
  }

  /** The definition for a ClassName, or undefined. */
  find(className: string): AnyComponentDefinition | undefined {
    const parts = className
      .trim()
      .split('.')
      .filter((p) => p !== '');
    if (parts.length === 0) return undefined;
    const key = (parts.length >= 2 ? parts.slice(-2) : parts).join('.').toLowerCase();
    const direct = this.table.find(key);
    if (direct || parts.length >= 2) return direct;
    // A bare class name ("JobNode") is accepted when it is unambiguous.
    const matches = this.canonical.filter((d) => [d.className, ...(d.aliases ?? [])].some((n) => n.split('.').pop()!.toLowerCase() === key));
    return matches.length === 1 ? matches[0] : undefined;
  }

  resolve(component: string, className: string): AnyComponentDefinition {
    const def = this.find(className);
    if (!def) throw new UnknownComponentClassError(component, className, this.knownNames(), this.suggestion(className));
    return def;
  }

  /** The ClassName meant by a misspelt one (its package prefix kept), or undefined when none is close. */
  suggestion(className: string): string | undefined {
    const parts = className.trim().split('.');
    const guess = closest(parts.slice(-2).join('.'), this.table.names());
    return guess === undefined ? undefined : [...parts.slice(0, -2), guess].join('.');
  }

  knownNames(): string[] {
    return this.canonical.flatMap((d) => [d.className, ...(d.aliases ?? []).map((a) => `${a} (= ${d.className})`)]);
  }

  all(): readonly AnyComponentDefinition[] {
    return this.canonical;
  }
}
