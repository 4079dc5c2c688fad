/**
 * What the two JMS-over-AMQP-1.0 receivers share (JMSSubscriber on a topic, JMSReceiver on a queue): the
 * schema and settings of the receive side (selector, XAMode, Mode/ReceiveTime, FailedOutcome, StringProperty,
 * display, Partition) and the actor behaviour that runs an Amqp10Consumer into the output XQueue, with the
 * non-daemon "stop after ReceiveTime ms of silence" rule. Each receiver only says which source to attach.
 */
import { randomUUID } from 'crypto';
import { Behaviour } from '../../src/runtime/actor';
import { ComponentConfig, ComponentEnv, JsonSchema } from '../../src/runtime/component';
import { displayMessage, parseDisplayMask } from '../../src/logging/display';
import { Partition, WHOLE_QUEUE, parsePartition } from '../../src/xqueue/partition';
import { JmsSelector } from '../../src/jms/selector';
import { Amqp10Consumer, FailedOutcome, UnselectedOutcome } from '../../src/transports/amqp10-consumer';
import { Amqp10Connection, endpointLabel } from '../../src/transports/amqp10-connection';
import { Dialect, SourcePlan } from '../../src/transports/amqp10-dialect';
import { DestinationKind } from '../../src/transports/amqp10-endpoint';
import { JmsConfigError } from '../../src/transports/amqp10-errors';
import { Stamper, compileStringProperties } from '../../src/transports/string-property';
import { ConfigReader } from './config-values';
import { BackoffOptions } from '../../src/runtime/backoff';
import { readRedeliveryDelay } from './redelivery-config';
import { FAILED_OUTCOMES, INT_STRING, JmsConnectionSettings, ineffectiveProperties, readJmsConnection, readSelector, readXaMode } from './jms-config';

/** Schema of the receive-side properties shared by JMSSubscriber and JMSReceiver. */
export function consumerSchemaProperties(): Record<string, JsonSchema> {
  return {
    MessageSelector: { type: 'string', description: 'JMS selector: sent to the broker and applied by xroute' },
    StartDate: { type: 'string', description: 'only messages with JMSTimestamp >= this (yyyy/MM/dd.HH:mm:ss.SSS)' },
    EndDate: { type: 'string', description: 'only messages with JMSTimestamp <= this (yyyy/MM/dd.HH:mm:ss.SSS)' },
    XAMode: INT_STRING('bit 1 set (default 1): accept after downstream work; 0: accept once in the XQueue'),
    TextMode: INT_STRING('accepted; does not change received messages'),
    Mode: { type: 'string', description: 'daemon: keep waiting on a quiet source; anything else: stop after ReceiveTime ms without a message' },
    ReceiveTime: INT_STRING('non-daemon: ms without a message before the receiver stops (default 1000)'),
    FailedOutcome: { type: 'string', enum: [...FAILED_OUTCOMES], description: 'settlement when downstream gave up on a message: reject (default, dead-letter), release (redeliver) or modified (redeliver, delivery count +1)' },
    RedeliveryDelay: { type: 'string', pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$', description: 'FailedOutcome release/modified: delay before the settlement, "minMs,maxMs" doubling per consecutive failure (default 1000,60000)' },
    EnableExceptionListener: { type: 'string', description: '"true": log every asynchronous broker error at error level' },
    DisplayMask: INT_STRING('message fields to log (components.md §2.6)'),
    StringProperty: { type: 'object', additionalProperties: { type: 'string' }, description: 'properties stamped on every message; an empty JMSReplyTo removes the reply-to' },
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
}

/** Reads the shared receive-side settings; `capacity` undefined (validation without a queue) skips the Partition range check. */
export function readConsumerSettings(r: ConfigReader, baseDir: string, kind: DestinationKind, capacity?: number): JmsConsumerSettings {
  const connection = readJmsConnection(r, baseDir, kind);
  const selector = readSelector(r);
  const stringProperty = r.stringMap('StringProperty');
  let partition: Partition = WHOLE_QUEUE;
  if (capacity !== undefined) partition = parsePartition(r.string('Partition'), capacity, r.component);
  return {
    connection,
    selectorText: selector?.text,
    selector,
    xaMode: readXaMode(r, 1),
    daemon: r.string('Mode', '').trim().toLowerCase() === 'daemon',
    receiveTimeMs: r.int('ReceiveTime', 1000, { min: 1 }),
    failedOutcome: r.oneOf('FailedOutcome', FAILED_OUTCOMES, 'reject'),
    redelivery: readRedeliveryDelay(r),
    exceptionListener: r.bool('EnableExceptionListener', false),
    displayMask: parseDisplayMask(r.string('DisplayMask')),
    displayProperties: Object.keys(stringProperty),
    stamp: compileStringProperties(r.component, stringProperty, connection.cellId),
    partition,
  };
}

export interface ConsumerComponent<S extends JmsConsumerSettings> {
  /** Reads the settings (throws a configuration error). */
  read(name: string, config: ComponentConfig, baseDir: string, capacity: number): S;
  /** Configured properties without effect over AMQP 1.0, reported once per component. */
  readonly noEffect: readonly string[];
  /** Which source to attach, once the dialect is known. */
  plan(settings: S, instanceId: string): (dialect: Dialect, conn: Amqp10Connection) => Promise<SourcePlan>;
  /** What the 'starting' log line says about the source. */
  describe(settings: S): Record<string, unknown>;
  /** Settlement of a message the selector does not select (default accept: consumed and dropped). */
  unselected?(settings: S): UnselectedOutcome;
}

/** Components whose no-effect properties were already reported (once per component, not per restart). */
const reported = new WeakSet<ComponentEnv>();

/** The actor behaviour of a JMS receiver: an Amqp10Consumer into the output XQueue. */
export function jmsConsumerBehaviour<S extends JmsConsumerSettings>(env: ComponentEnv, component: ConsumerComponent<S>): Behaviour<never> {
  let consumer: Amqp10Consumer | undefined;
  return {
    start(ctx) {
      const output = env.output;
      if (!output) throw new JmsConfigError(env.name, 'LinkName', 'a JMS receiver needs an output XQueue');
      const s = component.read(env.name, env.config, env.baseDir, output.capacity);
      const resolved = s.connection.resolved;
      if (!reported.has(env)) {
        reported.add(env);
        const ineffective = ineffectiveProperties(resolved, component.noEffect, env.config);
        if (ineffective.length > 0) env.logger.warn('properties have no effect over AMQP 1.0', { component: env.name, properties: ineffective });
      }
      env.logger.info('starting', { component: env.name, endpoint: endpointLabel(resolved.endpoint), via: resolved.via, ...component.describe(s), selector: s.selectorText, xaMode: s.xaMode });
      const instanceId = `${process.pid}-${randomUUID().slice(0, 8)}`;
      consumer = new Amqp10Consumer({
        name: env.name,
        output,
        partition: s.partition,
        endpoint: resolved.endpoint,
        containerId: s.connection.clientId,
        dialect: s.connection.dialect,
        plan: component.plan(s, instanceId),
        xaMode: s.xaMode,
        selector: s.selector,
        unselected: component.unselected?.(s),
        decorate: (msg) => {
          s.stamp(msg);
          displayMessage(env.logger, 'received', msg, s.displayMask, s.displayProperties);
        },
        failedOutcome: s.failedOutcome,
        redelivery: s.redelivery,
        reconnect: s.connection.reconnect,
        timers: { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms), clearTimer: (h) => ctx.clearTimer(h as never) },
        guard: (fn) => ctx.guard(fn),
        logger: env.logger,
        status: env.status,
        exceptionListener: s.exceptionListener,
        // A configuration error (wrong password, untrusted certificate) leaves the status FAILED with the
        // reason and is retried on the slow schedule; restarting could not cure it sooner.
        onGiveUp: () => undefined,
        fatalRetryMs: ctx.policy.fatalRetryMs,
      });
      consumer.start();
      if (!s.daemon) {
        // Non-daemon: stop after ReceiveTime ms without a message (the original's "job done" rule).
        const c = consumer;
        const timer = ctx.setInterval(() => {
          if (!c.isConnected || c.idleMs() < s.receiveTimeMs) return;
          ctx.clearTimer(timer);
          c.finish();
          env.status.set('STOPPED', `no message for ${s.receiveTimeMs} ms (Mode is not daemon)`);
          env.logger.info('stopped: source quiet', { component: env.name, counters: env.status.get().counters });
        }, Math.max(50, Math.min(s.receiveTimeMs, 1000)));
      }
    },
    async stop() {
      await consumer?.stop();
      consumer = undefined;
      if (env.status.status !== 'FAILED') env.status.set('STOPPED');
    },
  };
}
