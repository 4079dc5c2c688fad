/**
 * The behaviour shared by PersisterPool and ReceiverPool (docs/components/pools.md; design: a pool is a
 * supervisor actor that owns its children).
 *
 * The pool reads request messages (ObjectMessages whose object is a task map) from its input XQueue. For
 * each one it resolves the implementation from the URI scheme and properties, merges the properties in
 * the original's precedence, enforces MaxNumber and the per-class PoolSize before anything is spawned,
 * spawns the persister or receiver as a child actor bound to the requester's transmit XQueue, writes
 * the return code and the handle into the task map and removes the request (removal is the reply).
 *
 * Children are checked in (stopped, slot freed) when the requester releases the handle or stops the
 * transmit queue, and by an independent Heartbeat timer when they stopped, failed, kept RETRYING longer
 * than RetryTimeout, or stayed idle longer than MaxIdleTime. A crashed child is restarted from the same
 * merged properties, at most MaxRetry times within the supervision window; then it is FAILED.
 */
import { ActorContext, ActorRef, Behaviour, BehaviourFactory } from '../../src/runtime/actor';
import {
  ComponentConfig,
  ComponentEnv,
  ComponentRegistry,
  ComponentStatus,
  StatusReporter,
  AnyComponentDefinition,
  ValidationContext,
  inputOf,
  createBehaviour,
} from '../../src/runtime/component';
import { SupervisionPolicy } from '../../src/runtime/supervision-policy';
import { Message } from '../../src/message/message';
import { Template } from '../../src/rules/template';
import { Taken, XQueue } from '../../src/xqueue/xqueue';
import { displayMessage, parseDisplayMask } from '../../src/logging/display';
import { registerConfigSecrets } from '../../src/logging/redact';
import { traceCheckin, traceCheckout, tracingActive } from '../../src/tracing/message-trace';
import { parseAddress } from '../support/address';
import { ConfigReader } from '../support/config-values';
import { ClassDefaults, fillDefaults, findImplementation, implementationKey, parseDefaultProperties } from './default-properties';
import { PoolHandle } from './pool-handle';
import {
  POOL_RC,
  PoolProperties,
  PoolRequestError,
  PoolReturnCode,
  TASK_KEYS,
  TaskMap,
  requestPropertiesOf,
  requestUriOf,
  splitRequestUri,
  transmitQueueOf,
} from './pool-request';
import { PoolKind, applySchemeMapping } from './scheme-table';

/** Pool DisplayMask bits used as log switches (docs/components/pools.md); the other bits display the request message. */
const LOG_CHECKOUT = 1;
const LOG_CLASS_POOL = 4;
const LOG_REQUEST_PROPS = 8;
const LOG_AFTER_QUERY = 512;
const LOG_AFTER_DEFAULTS = 1024;
const LOG_BITS = LOG_CHECKOUT | LOG_CLASS_POOL | LOG_REQUEST_PROPS | LOG_AFTER_QUERY | LOG_AFTER_DEFAULTS;

const DEFAULT_MAX_NUMBER = 256;
const DEFAULT_HEARTBEAT_SECONDS = 60;

export interface PoolSettings {
  readonly kind: PoolKind;
  readonly heartbeatMs: number;
  readonly maxNumber: number;
  readonly defaultPoolSize: number;
  readonly uriField: string;
  readonly rcField: string;
  readonly template?: Template;
  readonly defaults: ReadonlyMap<string, ClassDefaults>;
  /** Restarts allowed per child within the supervision window; undefined = the pool's policy. */
  readonly maxRetry?: number;
  readonly displayMask: number;
  readonly displayProperties: readonly string[];
}

export function maxNumberKey(kind: PoolKind): string {
  return kind === 'persister' ? 'MaxNumberPersister' : 'MaxNumberReceiver';
}

/** What the pool's settings reader reads: the configuration and what the validation context adds. */
export interface PoolSettingsSource extends Pick<ValidationContext, 'inputCapacity' | 'warn'> {
  readonly name: string;
  readonly config: ComponentConfig;
  /** The component classes DefaultProperty entries name (none known without it). */
  readonly registry?: ComponentRegistry;
}

/** The pool's settings reader: reads and checks its own configuration (throws ComponentConfigError). */
export function readPoolSettings(kind: PoolKind, source: PoolSettingsSource): PoolSettings {
  const c = new ConfigReader(source.name, source.config);
  const template = c.has('Template') ? new Template(c.required('Template'), { where: { component: source.name, key: 'Template' } }) : undefined;
  const warn = source.warn;
  const warnings = { warn: (text: string, fields?: Record<string, unknown>) => warn?.(String(fields?.property ?? ''), text, stringFields(fields)) };
  return {
    kind,
    heartbeatMs: c.number('Heartbeat', DEFAULT_HEARTBEAT_SECONDS, { min: 0.001 }) * 1000,
    maxNumber: c.int(maxNumberKey(kind), DEFAULT_MAX_NUMBER, { min: 1 }),
    defaultPoolSize: c.int('DefaultPoolSize', source.inputCapacity ?? c.int('Capacity', 1, { min: 1 }), { min: 1 }),
    uriField: c.string('URIField', 'URI'),
    rcField: c.string('RCField', 'ReturnCode'),
    template,
    defaults: parseDefaultProperties(source.name, c.raw('DefaultProperty'), kind, source.registry ?? new ComponentRegistry(), warnings),
    maxRetry: c.has('MaxRetry') ? c.int('MaxRetry', 0, { min: 0 }) : undefined,
    displayMask: parseDisplayMask(c.string('DisplayMask')),
    displayProperties: Object.keys(c.stringMap('StringProperty')),
  };
}

/** A log line's fields as a settings warning carries them. */
function stringFields(fields: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(fields ?? {}).map(([k, v]) => [k, String(v)]));
}

interface Slot {
  readonly id: string;
  readonly key: string;
  readonly transmit: XQueue<Message>;
  readonly ref: ActorRef<never>;
  readonly reporter: StatusReporter;
  readonly handle: PoolHandle;
  readonly retryTimeoutMs: number;
  readonly maxIdleMs: number;
  retryingSince?: number;
  activity: number;
  lastActive: number;
  checkedIn?: Promise<void>;
  unsubscribe(): void;
}

/** A request that passed every check: what to spawn and with which properties. */
interface Resolved {
  readonly def: AnyComponentDefinition;
  readonly key: string;
  readonly uri: string;
  readonly transmit: XQueue<Message>;
  readonly properties: PoolProperties;
}

export class PoolBehaviour implements Behaviour<never> {
  private readonly active = new Map<XQueue<Message>, Slot>();
  private readonly perClass = new Map<string, number>();
  private ctx!: ActorContext<never>;
  private tid = 0;

  constructor(
    private readonly env: ComponentEnv,
    private readonly settings: PoolSettings,
  ) {}

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const input = inputOf(this.env);
    ctx.consume(input, (taken, q) => this.onRequest(taken, q));
    // Independent of the request stream (docs/components/pools.md): checks run even under a steady load.
    ctx.setInterval(() => this.heartbeat(), this.settings.heartbeatMs);
    this.env.status.listChildren(() => [...this.active.values()].map((slot) => ({ name: slot.id, className: slot.key, status: slot.reporter.status })));
  }

  /** docs/components/pools.md: transmit queues are paused (not stopped) so requesters see it; the runtime has stopped the children. */
  stop(): void {
    for (const slot of [...this.active.values()]) {
      this.forget(slot);
      slot.transmit.pause();
      slot.handle.markClosed('closed', 'the pool stopped');
    }
  }

  // ------------------------------------------------------------------ requests

  private onRequest(taken: Taken<Message>, queue: XQueue<Message>): void {
    const msg = taken.item;
    const task = msg.body.kind === 'object' ? TaskMap.of(msg.body.object) : undefined;
    const mask = this.settings.displayMask;
    if (mask & ~LOG_BITS) displayMessage(this.env.logger, 'pool request', msg, mask & ~LOG_BITS, this.settings.displayProperties);
    try {
      if (msg.body.kind !== 'object') throw new PoolRequestError(POOL_RC.REJECTED, 'a pool request must be an ObjectMessage whose object is a task map');
      if (!task) throw new PoolRequestError(POOL_RC.NOT_FOUND, 'the request object is not a task map');
      const resolved = this.resolve(msg, task);
      const handle = this.checkout(resolved);
      if (tracingActive())
        traceCheckout(msg, this.env.name, handle.id, { 'xroute.pool.class': resolved.def.className, 'xroute.pool.transmit': resolved.transmit.name });
      this.respond(msg, task, POOL_RC.SUCCESS, undefined, handle);
    } catch (err) {
      const rc = err instanceof PoolRequestError ? err.rc : POOL_RC.REJECTED;
      const reason = err instanceof Error ? err.message : String(err);
      this.env.status.count('rejected');
      this.env.logger.warn('pool request rejected', { component: this.env.name, rc, reason });
      this.respond(msg, task, rc, reason);
    }
    queue.remove(taken);
  }

  /** docs/components/pools.md: URI, properties in precedence, implementation, defaults. */
  private resolve(msg: Message, task: TaskMap): Resolved {
    const s = this.settings;
    const transmit = transmitQueueOf(task);
    const requestProps = requestPropertiesOf(task);
    if (s.displayMask & LOG_REQUEST_PROPS) this.env.logger.info('request properties', { properties: requestProps });
    const text = requestUriOf(msg, task, { uriField: s.uriField, template: s.template });
    if (text === '')
      throw new PoolRequestError(POOL_RC.NOT_FOUND, `the request has no URI (task map or property ${s.uriField}${s.template ? ', Template' : ''}, or body)`);
    const address = parseAddress(text);
    if (!address) throw new PoolRequestError(POOL_RC.NOT_FOUND, `URI ${JSON.stringify(text)} has no scheme`);
    const { uri, pairs } = splitRequestUri(text);
    const props: PoolProperties = { ...requestProps, ...pairs, URI: uri };
    if (s.displayMask & LOG_AFTER_QUERY) this.env.logger.info('properties after the query string', { properties: props });
    applySchemeMapping(s.kind, address, props);
    const className = String(props.ClassName);
    const def = findImplementation(this.env.registry, s.kind, className);
    if (!def) throw new PoolRequestError(POOL_RC.NOT_FOUND, `implementation ${className} is not available in xroute`);
    if (def.role !== s.kind) throw new PoolRequestError(POOL_RC.REJECTED, `${def.className} is a ${def.role}, not a ${s.kind}`);
    const key = implementationKey(this.env.registry, s.kind, className);
    fillDefaults(props, s.defaults.get(key));
    // The child reads/writes the transmit queue, so it takes that queue's name and capacity (docs/components/pools.md, step 5).
    props.LinkName = transmit.name;
    props.Capacity = String(transmit.capacity);
    if (s.displayMask & LOG_AFTER_DEFAULTS) this.env.logger.info('properties after defaults', { properties: props });
    const op = typeof props.Operation === 'string' ? props.Operation : '';
    if (op !== '' && !def.operations.includes(op)) {
      throw new PoolRequestError(
        POOL_RC.REJECTED,
        `${def.className} does not support operation ${JSON.stringify(op)}; supported: ${def.operations.join(', ')}`,
      );
    }
    return { def, key, uri, transmit, properties: props };
  }

  /** docs/components/pools.md: every limit is checked before anything is spawned. */
  private checkout(r: Resolved): PoolHandle {
    const s = this.settings;
    if (this.active.has(r.transmit)) throw new PoolRequestError(POOL_RC.REJECTED, `transmit queue ${r.transmit.name} already has an active ${s.kind}`);
    if (r.transmit.state === 'stopped') throw new PoolRequestError(POOL_RC.REJECTED, `transmit queue ${r.transmit.name} is stopped`);
    if (this.active.size >= s.maxNumber) throw new PoolRequestError(POOL_RC.REJECTED, `${maxNumberKey(s.kind)} ${s.maxNumber} reached`);
    const poolSize = s.defaults.get(r.key)?.poolSize ?? s.defaultPoolSize;
    const inClass = this.perClass.get(r.key) ?? 0;
    if (inClass >= poolSize) throw new PoolRequestError(POOL_RC.REJECTED, `pool of ${r.def.className} is full (PoolSize ${poolSize})`);
    const issues = (r.def.validate?.(r.properties, this.env.baseDir) ?? []).filter((i) => i.severity !== 'warning');
    if (issues.length > 0) throw new PoolRequestError(POOL_RC.REJECTED, issues.map((i) => `${i.property}: ${i.message}`).join('; '));

    const id = `${this.env.name}_${++this.tid}`;
    const reporter = new StatusReporter();
    const config = Object.freeze({ ...r.properties });
    const childEnv: ComponentEnv = {
      name: id,
      className: r.def.className,
      config,
      input: s.kind === 'persister' ? r.transmit : undefined,
      output: s.kind === 'receiver' ? r.transmit : undefined,
      outlinks: [],
      baseDir: this.env.baseDir,
      pluginDirs: this.env.pluginDirs,
      logger: this.env.logger.child({ child: id }),
      status: reporter,
      registry: this.env.registry,
    };
    registerConfigSecrets(config);
    // Built once here so that a configuration error is the requester's RC 4, not a crash loop.
    const first = createBehaviour(r.def, childEnv);
    const policy = this.childPolicy();
    const restarts = { count: 0 };
    const ref = this.ctx.spawn<never>(
      id,
      restartLimited(first, () => createBehaviour(r.def, childEnv), reporter, policy, this.settings.maxRetry ?? policy.maxRetry, restarts),
      {
        policy: { ...policy, maxRetry: (this.settings.maxRetry ?? policy.maxRetry) + 1 },
        logger: childEnv.logger,
      },
    );
    const maxIdle = typeof config.MaxIdleTime === 'string' ? config.MaxIdleTime : undefined;
    const slotRef: { slot?: Slot } = {};
    const handle = new PoolHandle({
      id,
      className: r.def.className,
      uri: r.uri,
      transmit: r.transmit,
      maxIdleTime: maxIdle,
      properties: config,
      ref,
      reporter,
      restarts: () => restarts.count,
      release: () => (slotRef.slot ? this.checkin(slotRef.slot, 'closed', 'released by the requester') : Promise.resolve()),
    });
    const stats = r.transmit.stats();
    const slot: Slot = {
      id,
      key: r.key,
      transmit: r.transmit,
      ref,
      reporter,
      handle,
      retryTimeoutMs: secondsToMs(config.RetryTimeout),
      maxIdleMs: secondsToMs(maxIdle),
      activity: stats.totalAdded + stats.totalRemoved,
      lastActive: Date.now(),
      unsubscribe: () => undefined,
    };
    slotRef.slot = slot;
    const offQueue = r.transmit.onStateChange(
      this.ctx.guard((state) => {
        if (state === 'stopped') void this.checkin(slot, 'closed', 'transmit queue stopped');
      }),
    );
    const offStatus = reporter.onChange((snap) => {
      if (snap.status === 'RETRYING') slot.retryingSince ??= snap.since;
      else slot.retryingSince = undefined;
    });
    slot.unsubscribe = () => {
      offQueue();
      offStatus();
    };
    this.active.set(r.transmit, slot);
    this.perClass.set(r.key, inClass + 1);
    if (inClass === 0 && s.displayMask & LOG_CLASS_POOL) this.env.logger.info('class pool in use', { className: r.def.className, poolSize });
    if (s.displayMask & LOG_CHECKOUT) this.env.logger.info('checked out', { child: id, className: r.def.className, uri: r.uri, transmit: r.transmit.name });
    this.env.status.count('checkouts');
    this.env.status.count('active');
    return handle;
  }

  private childPolicy(): SupervisionPolicy {
    return { ...this.ctx.policy, strategy: 'restart' };
  }

  private respond(msg: Message, task: TaskMap | undefined, rc: PoolReturnCode, reason?: string, handle?: PoolHandle): void {
    const rcField = this.settings.rcField;
    try {
      msg.setField(rcField, String(rc));
    } catch {
      // RCField names a header that cannot hold the code; the task map still carries it.
    }
    if (!task) return;
    for (const k of [TASK_KEYS.Handle, TASK_KEYS.MaxIdleTime, TASK_KEYS.Reason, rcField]) task.delete(k);
    // One form everywhere: the code is a string in the task map as on the message (every value is a string, as in the original).
    task.set(rcField, String(rc));
    if (reason !== undefined) task.set(TASK_KEYS.Reason, reason);
    if (handle) {
      task.set(TASK_KEYS.Handle, handle);
      if (handle.maxIdleTime !== undefined) task.set(TASK_KEYS.MaxIdleTime, handle.maxIdleTime);
    }
  }

  // ------------------------------------------------------------------ check-in and heartbeat

  private heartbeat(): void {
    const now = Date.now();
    for (const slot of [...this.active.values()]) {
      const state = slot.handle.state;
      const detail = slot.reporter.get().detail;
      if (state === 'failed') {
        void this.checkin(slot, 'failed', detail);
        continue;
      }
      if (state === 'stopped') {
        void this.checkin(slot, 'closed', detail ?? `${slot.reporter.status.toLowerCase()}`);
        continue;
      }
      if (slot.retryTimeoutMs > 0 && slot.retryingSince !== undefined && now - slot.retryingSince >= slot.retryTimeoutMs) {
        void this.checkin(slot, 'failed', `RETRYING for more than ${slot.retryTimeoutMs / 1000} s (RetryTimeout): ${detail ?? ''}`.trim());
        continue;
      }
      const stats = slot.transmit.stats();
      const activity = stats.totalAdded + stats.totalRemoved;
      // A child that hibernated itself (DISABLED) is idle too; a paused or retrying one is not.
      const component = slot.reporter.status;
      const canIdle = slot.transmit.state === 'running' && (component === 'RUNNING' || component === 'DISABLED');
      if (activity !== slot.activity || stats.size > 0 || !canIdle) {
        slot.activity = activity;
        slot.lastActive = now;
      } else if (slot.maxIdleMs > 0 && now - slot.lastActive >= slot.maxIdleMs) {
        void this.checkin(slot, 'closed', `idle for ${slot.maxIdleMs / 1000} s (MaxIdleTime)`).then(() => slot.transmit.stop());
      }
    }
  }

  /** Stops the child and frees its slot; idempotent. */
  private checkin(slot: Slot, state: 'closed' | 'failed', detail?: string): Promise<void> {
    if (slot.checkedIn) return slot.checkedIn;
    this.forget(slot);
    if (this.settings.displayMask & LOG_CHECKOUT) this.env.logger.info('checked in', { child: slot.id, state, detail });
    slot.checkedIn = slot.ref.stop().then(() => {
      if (slot.reporter.status !== 'FAILED' || state === 'failed') slot.reporter.set(state === 'failed' ? 'FAILED' : 'CLOSED', detail);
      slot.handle.markClosed(state, detail);
    });
    return slot.checkedIn;
  }

  private forget(slot: Slot): void {
    if (this.active.get(slot.transmit) !== slot) return;
    this.active.delete(slot.transmit);
    traceCheckin(slot.id);
    slot.unsubscribe();
    const n = (this.perClass.get(slot.key) ?? 1) - 1;
    if (n <= 0) this.perClass.delete(slot.key);
    else this.perClass.set(slot.key, n);
    this.env.status.count('checkins');
    this.env.status.count('active', -1);
  }
}

function secondsToMs(v: unknown): number {
  if (typeof v !== 'string' || !/^\s*\d+(\.\d+)?\s*$/.test(v)) return 0;
  return Number(v) * 1000;
}

/**
 * The child's factory: the first incarnation is the behaviour the pool already built; each restart
 * builds a new one from the same merged properties, until `maxRetry` restarts within the policy's
 * window, after which the child reports FAILED and stops (it never escalates into the pool, which
 * would restart the pool and every sibling). `restarted` counts the real restarts (at most maxRetry).
 */
function restartLimited(
  first: Behaviour<never>,
  create: () => Behaviour<never>,
  reporter: StatusReporter,
  policy: SupervisionPolicy,
  maxRetry: number,
  restarted: { count: number },
): BehaviourFactory<never> {
  let pending: Behaviour<never> | undefined = first;
  let restarts: number[] = [];
  return () => {
    if (pending) {
      const b = pending;
      pending = undefined;
      return b;
    }
    const now = Date.now();
    restarts = restarts.filter((t) => now - t <= policy.withinMs);
    restarts.push(now);
    if (restarts.length > maxRetry) {
      const detail = `crashed ${restarts.length} times within ${policy.withinMs / 1000} s (MaxRetry ${maxRetry}); see the log`;
      return {
        start(ctx) {
          reporter.set('FAILED', detail);
          ctx.stopSelf();
        },
      };
    }
    reporter.set('RETRYING' as ComponentStatus, `restarted after a crash (${restarts.length} of ${maxRetry})`);
    restarted.count++;
    return create();
  };
}
