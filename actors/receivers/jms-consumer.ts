/**
 * What the two JMS-over-AMQP-1.0 receivers share (JMSSubscriber on a topic, JMSReceiver on a queue): the
 * schema and settings of the receive side (selector, XAMode, Mode/ReceiveTime, FailedOutcome, StringProperty,
 * display, Partition) and the actor behaviour that runs an Amqp10Consumer into the output XQueue, with the
 * non-daemon "stop after ReceiveTime ms of silence" rule. Each receiver only says which source to attach.
 */
import { ANY_INTEGER_PATTERN, intStr, integerSchemas, integerSetting } from '../../src/foundation/schema-helpers';
import { randomUUID } from 'crypto';
import { Behaviour } from '../../src/runtime/actor';
import { ComponentEnv, JsonSchema, outputOf } from '../../src/runtime/component';
import { displayMessage, parseDisplayMask } from '../../src/logging/display';
import { Partition, WHOLE_QUEUE } from '../../src/xqueue/partition';
import { JmsSelector } from '../../src/jms/selector';
import { Amqp10Consumer, FailedOutcome, UnselectedOutcome } from './amqp10-consumer';
import { Amqp10Connection, endpointLabel } from '../../src/transports/amqp10-connection';
import { Dialect, SourcePlan } from '../../src/transports/amqp10-dialect';
import { RabbitHeaderRelay } from '../../src/transports/rabbit-header-relay';
import { DestinationKind } from '../../src/transports/amqp10-endpoint';
import { Stamper, compileStringProperties } from '../../src/transports/string-property';
import { ComponentConfigError, ConfigReader } from '../support/config-values';
import { Amqp10Parking, Amqp10ParkingSettings } from '../../src/transports/amqp10-parking';
import { defaultParkingQueue } from '../../src/parking/parked-origin';
import { ActiveMqParkedStore } from '../../src/transports/parked-activemq';
import { Amqp10Endpoint } from '../../src/transports/amqp10-connection';
import { BackoffOptions } from '../../src/foundation/backoff';
import { readRedeliveryDelay } from '../support/redelivery-config';
import { REDELIVERED_COUNTER } from '../../src/runtime/reload-receipt';
import { JmsConnectionSettings, ineffectiveProperties, readJmsConnection, readSelector } from '../support/jms-config';

/** The receive-side integer settings of JMSReceiver and JMSSubscriber: their schema and the reader's defaults and ranges. */
const FAILED_OUTCOMES: readonly FailedOutcome[] = ['reject', 'release', 'modified'];

const JMS_CONSUMER_INTEGERS = {
  XAMode: integerSetting('bit 1 set (default {default}): accept after downstream work; 0: accept once in the XQueue', 1, {
    min: 0,
    pattern: ANY_INTEGER_PATTERN,
  }),
  ReceiveTime: integerSetting('non-daemon: ms without a message before the receiver stops', 1000, { min: 1, pattern: ANY_INTEGER_PATTERN }),
  MaxAttempts: integerSetting(
    'FailedOutcome release/modified: attempts of a failing message before it is parked in ParkingQueue; {default} (default) = no limit',
    0,
    { min: 0, pattern: ANY_INTEGER_PATTERN },
  ),
};

/** Schema of the receive-side properties shared by JMSSubscriber and JMSReceiver. */
export function consumerSchemaProperties(): Record<string, JsonSchema> {
  return {
    MessageSelector: { type: 'string', description: 'JMS selector: sent to the broker; applied by xroute where the broker does not (RabbitMQ)' },
    StartDate: { type: 'string', description: 'only messages with JMSTimestamp >= this (yyyy/MM/dd.HH:mm:ss.SSS)' },
    EndDate: { type: 'string', description: 'only messages with JMSTimestamp <= this (yyyy/MM/dd.HH:mm:ss.SSS)' },
    TextMode: intStr('accepted; does not change received messages'),
    Mode: { type: 'string', description: 'daemon: keep waiting on a quiet source; anything else: stop after ReceiveTime ms without a message' },
    ...integerSchemas(JMS_CONSUMER_INTEGERS),
    FailedOutcome: {
      type: 'string',
      enum: [...FAILED_OUTCOMES],
      description:
        'settlement when downstream gave up on a message: reject (default, dead-letter), release (redeliver) or modified (redeliver, delivery count +1)',
    },
    RedeliveryDelay: {
      type: 'string',
      pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$',
      description: 'FailedOutcome release/modified: delay before the settlement, "minMs,maxMs" doubling per consecutive failure (default 1000,60000)',
    },
    ParkingQueue: {
      type: 'string',
      minLength: 1,
      description:
        'with MaxAttempts: the queue a message that failed MaxAttempts times is parked in (sent, accepted, then the original accepted); default xroute.parked.<Name>',
    },
    EnableExceptionListener: { type: 'string', description: '"true": log every asynchronous broker error at error level' },
    DisplayMask: intStr('message fields to log (docs/operations.md)'),
    StringProperty: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'properties stamped on every message; an empty JMSReplyTo removes the reply-to',
    },
  };
}

export interface JmsConsumerSettings {
  readonly connection: JmsConnectionSettings;
  readonly selectorText?: string;
  readonly selector?: JmsSelector;
  readonly xaMode: 0 | 1;
  readonly daemon: boolean;
  readonly receiveTimeMs: number;
  readonly failedOutcome: FailedOutcome;
  readonly redelivery: BackoffOptions;
  readonly exceptionListener: boolean;
  readonly displayMask: number;
  readonly displayProperties: readonly string[];
  readonly stamp: Stamper;
  readonly partition: Partition;
  /** MaxAttempts with FailedOutcome release/modified: where a message that failed that often is parked. */
  readonly parking?: Amqp10ParkingSettings;
}

/** Reads the shared receive-side settings; `capacity` undefined (validation without a queue) skips the Partition range check. */
export function readConsumerSettings(r: ConfigReader, baseDir: string, kind: DestinationKind, capacity?: number): JmsConsumerSettings {
  const connection = readJmsConnection(r, baseDir, kind);
  const selector = readSelector(r);
  const stringProperty = r.stringMap('StringProperty');
  let partition: Partition = WHOLE_QUEUE;
  if (capacity !== undefined) partition = r.partition('Partition', capacity);
  const n = r.integers(JMS_CONSUMER_INTEGERS);
  const failedOutcome = r.oneOf('FailedOutcome', FAILED_OUTCOMES, 'reject');
  if (n.MaxAttempts > 0 && failedOutcome === 'reject') {
    throw new ComponentConfigError(
      r.component,
      'MaxAttempts',
      String(n.MaxAttempts),
      'MaxAttempts with FailedOutcome "release" or "modified" (with "reject" the broker dead-letters a failed message at once)',
    );
  }
  const parking = n.MaxAttempts > 0 ? { maxAttempts: n.MaxAttempts, queue: r.string('ParkingQueue', defaultParkingQueue(r.component)) } : undefined;
  return {
    connection,
    selectorText: selector?.text,
    selector,
    // XAMode bit 1: accept only after the downstream removed the message.
    xaMode: (n.XAMode & 1) === 1 ? 1 : 0,
    daemon: r.string('Mode', '').trim().toLowerCase() === 'daemon',
    receiveTimeMs: n.ReceiveTime,
    failedOutcome,
    redelivery: readRedeliveryDelay(r),
    exceptionListener: r.bool('EnableExceptionListener', false),
    displayMask: parseDisplayMask(r.string('DisplayMask')),
    displayProperties: Object.keys(stringProperty),
    stamp: compileStringProperties(r.component, stringProperty, connection.cellId),
    partition,
    ...(parking !== undefined ? { parking } : {}),
  };
}

export interface ConsumerComponent<S extends JmsConsumerSettings> {
  /** Configured properties without effect over AMQP 1.0, reported once per component. */
  readonly noEffect: readonly string[];
  /** Which source to attach, once the dialect is known. */
  plan(settings: S, instanceId: string): (dialect: Dialect, conn: Amqp10Connection) => Promise<SourcePlan>;
  /** What the 'starting' log line says about the source. */
  describe(settings: S): Record<string, unknown>;
  /** Settlement of a message the selector does not select (default accept: consumed and dropped). */
  unselected?(settings: S): UnselectedOutcome;
}

/** How often a JMS receiver that parked messages counts what is still parked (a browse of its parking queue). */
const PARKED_COUNT_MS = 10_000;

/**
 * A JMS receiver's parking queue for the admin routes, and its `parked` count: browsed at start and then every
 * PARKED_COUNT_MS while it holds any (an operator's retry or drop brings it down). ActiveMQ over AMQP 1.0 without
 * TLS only: other brokers are reached with `xroute parked --url`.
 */
function watchParking(env: ComponentEnv, queue: string, endpoint: Amqp10Endpoint, every: (fn: () => void, ms: number) => unknown): void {
  if (endpoint.tls) return;
  const open = () => ActiveMqParkedStore.connect(endpoint, queue, endpointLabel(endpoint));
  env.status.provideParking(open);
  let counting = false;
  const count = async () => {
    if (counting) return;
    counting = true;
    try {
      const store = await open();
      try {
        env.status.setParked((await store.list(MAX_COUNTED)).length);
      } finally {
        await store.close();
      }
    } catch {
      // the broker is away: the count stays as it was, the receiver reports the outage
    } finally {
      counting = false;
    }
  };
  void count();
  every(() => {
    if ((env.status.parked() ?? 0) > 0) void count();
  }, PARKED_COUNT_MS);
}

/** The most parked messages a count browses. */
const MAX_COUNTED = 10_000;

/** Components whose no-effect properties were already reported (once per component, not per restart). */
const reported = new WeakSet<ComponentEnv>();

/** The actor behaviour of a JMS receiver: an Amqp10Consumer into the output XQueue. */
/** `s`: the settings the runtime read with the definition's reader (createBehaviour). */
export function jmsConsumerBehaviour<S extends JmsConsumerSettings>(env: ComponentEnv, s: S, component: ConsumerComponent<S>): Behaviour<never> {
  let consumer: Amqp10Consumer | undefined;
  let relay: RabbitHeaderRelay | undefined;
  return {
    start(ctx) {
      const output = outputOf(env);
      const resolved = s.connection.resolved;
      if (!reported.has(env)) {
        reported.add(env);
        const ineffective = ineffectiveProperties(resolved, component.noEffect, env.config);
        if (ineffective.length > 0) env.logger.warn('properties have no effect over AMQP 1.0', { component: env.name, properties: ineffective });
      }
      env.logger.info('starting', {
        component: env.name,
        endpoint: endpointLabel(resolved.endpoint),
        via: resolved.via,
        ...component.describe(s),
        selector: s.selectorText,
        xaMode: s.xaMode,
      });
      const instanceId = `${process.pid}-${randomUUID().slice(0, 8)}`;
      const timers = { setTimeout: (fn: () => void, ms: number) => ctx.setTimeout(fn, ms), clearTimer: (h: unknown) => ctx.clearTimer(h as never) };
      const plan = component.plan(s, instanceId);
      consumer = new Amqp10Consumer({
        name: env.name,
        output,
        partition: s.partition,
        endpoint: resolved.endpoint,
        containerId: s.connection.clientId,
        idleTimeoutMs: s.connection.idleTimeoutMs,
        dialect: s.connection.dialect,
        // A plan with a relay route (RabbitMQ: messages of AMQP 0-9-1 publishers) starts the header relay once.
        plan: async (dialect, conn) => {
          const p = await plan(dialect, conn);
          if (p.relay && relay === undefined) {
            relay = new RabbitHeaderRelay({
              name: env.name,
              endpoint: resolved.endpoint,
              route: p.relay,
              reconnect: s.connection.reconnect,
              idleTimeoutMs: s.connection.idleTimeoutMs,
              timers,
              guard: (fn) => ctx.guard(fn),
              logger: env.logger,
              status: env.status,
            });
            relay.start();
          }
          return p;
        },
        xaMode: s.xaMode,
        selector: s.selector,
        unselected: component.unselected?.(s),
        decorate: (msg) => {
          // A reload's receipt reports how many the broker redelivered while it swapped components (expected 0).
          if (msg.headers.JMSRedelivered === true) env.status.count(REDELIVERED_COUNTER);
          s.stamp(msg);
          displayMessage(env.logger, 'received', msg, s.displayMask, s.displayProperties);
        },
        failedOutcome: s.failedOutcome,
        redelivery: s.redelivery,
        reconnect: s.connection.reconnect,
        timers,
        guard: (fn) => ctx.guard(fn),
        logger: env.logger,
        status: env.status,
        exceptionListener: s.exceptionListener,
        // A configuration error (wrong password, untrusted certificate) leaves the status FAILED with the
        // reason and is retried on the slow schedule; restarting could not cure it sooner.
        onGiveUp: () => undefined,
        fatalRetryMs: ctx.policy.fatalRetryMs,
        ...(s.parking !== undefined ? { parking: new Amqp10Parking(s.parking, env.name) } : {}),
      });
      consumer.start();
      if (s.parking !== undefined) watchParking(env, s.parking.queue, resolved.endpoint, ctx.setInterval.bind(ctx));
      env.status.reportUnsettled(() => consumer?.unsettled() ?? { deliveries: 0, oldestAgeSeconds: 0 });
      if (!s.daemon) {
        // Non-daemon: stop after ReceiveTime ms without a message (the original's "job done" rule).
        const c = consumer;
        const timer = ctx.setInterval(
          () => {
            if (!c.isConnected || c.idleMs() < s.receiveTimeMs) return;
            ctx.clearTimer(timer);
            c.finish();
            env.status.set('STOPPED', `no message for ${s.receiveTimeMs} ms (Mode is not daemon)`);
            env.logger.info('stopped: source quiet', { component: env.name, counters: env.status.get().counters });
          },
          Math.max(50, Math.min(s.receiveTimeMs, 1000)),
        );
      }
    },
    async drain(_ctx, request) {
      return consumer?.drain(request.deadline, request.forReplace === true);
    },
    async stop() {
      await relay?.stop();
      relay = undefined;
      await consumer?.stop();
      consumer = undefined;
      if (env.status.status !== 'FAILED') env.status.set('STOPPED');
    },
  };
}
