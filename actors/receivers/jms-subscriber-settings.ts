/**
 * JMSSubscriber configuration (components.md §7): the JSON schema of its own properties and the typed
 * settings the behaviour runs on.
 */
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { parseDisplayMask } from '../../src/logging/display';
import { Partition, WHOLE_QUEUE, parsePartition } from '../../src/xqueue/partition';
import { JmsSelector } from '../../src/jms/selector';
import { FailedOutcome } from '../../src/transports/amqp10-consumer';
import { Stamper, compileStringProperties } from '../../src/transports/string-property';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { FAILED_OUTCOMES, INT_STRING, JmsConnectionSettings, jmsConnectionSchemaProperties, readJmsConnection, readSelector, readXaMode, substituteCellId } from '../support/jms-config';

export const JMS_SUBSCRIBER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...jmsConnectionSchemaProperties(),
    Operation: { type: 'string', enum: ['sub'] },
    TopicName: { type: 'string', description: 'the topic (a JNDI name when URI is a jndi.properties file)' },
    SubscriptionID: { type: 'string', description: 'durable subscription name (present = durable); ${CellID} is substituted' },
    MessageSelector: { type: 'string', description: 'JMS selector: sent to the broker and applied by xroute' },
    StartDate: { type: 'string', description: 'only messages with JMSTimestamp >= this (yyyy/MM/dd.HH:mm:ss.SSS)' },
    EndDate: { type: 'string', description: 'only messages with JMSTimestamp <= this (yyyy/MM/dd.HH:mm:ss.SSS)' },
    XAMode: INT_STRING('bit 1 set (default 1): accept after downstream work; 0: accept once in the XQueue'),
    TextMode: INT_STRING('accepted; does not change received messages'),
    Mode: { type: 'string', description: 'daemon: keep waiting on a quiet topic; anything else: stop after ReceiveTime ms without a message' },
    ReceiveTime: INT_STRING('non-daemon: ms without a message before the subscriber stops (default 1000)'),
    FailedOutcome: { type: 'string', enum: [...FAILED_OUTCOMES], description: 'settlement when downstream gave up on a message: reject (default, dead-letter), release (redeliver) or modified (redeliver, delivery count +1)' },
    EnableExceptionListener: { type: 'string', description: '"true": log every asynchronous broker error at error level' },
    DisplayMask: INT_STRING('message fields to log (components.md §2.6)'),
    StringProperty: { type: 'object', additionalProperties: { type: 'string' }, description: 'properties stamped on every message; an empty JMSReplyTo removes the reply-to' },
    Priority: s('read but without effect on the output queue (components.md §7.5)'),
    Persistence: s('read but without effect on the output queue (components.md §7.5)'),
    Expiry: s('read but without effect on the output queue (components.md §7.5)'),
  },
  required: [],
};

function s(description: string) {
  return { type: 'string', description };
}

/** Properties the subscriber reads but that have no effect (reported once at start-up). */
export const SUBSCRIBER_NO_EFFECT = ['Priority', 'Persistence', 'Expiry', 'TextMode', 'IsPhysical'];

export interface JmsSubscriberSettings {
  readonly connection: JmsConnectionSettings;
  readonly topic: string;
  readonly subscriptionId?: string;
  readonly selectorText?: string;
  readonly selector?: JmsSelector;
  readonly xaMode: 0 | 1;
  readonly daemon: boolean;
  readonly receiveTimeMs: number;
  readonly failedOutcome: FailedOutcome;
  readonly exceptionListener: boolean;
  readonly displayMask: number;
  readonly displayProperties: readonly string[];
  readonly stamp: Stamper;
  readonly partition: Partition;
}

/** Reads and checks everything; `capacity` undefined (validation without a queue) skips the Partition range check. */
export function readSubscriberSettings(name: string, config: ComponentConfig, baseDir: string, capacity?: number): JmsSubscriberSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', 'sub');
  if (operation !== 'sub') throw new ComponentConfigError(name, 'Operation', operation, '"sub" (the only operation of JMSSubscriber)');
  const connection = readJmsConnection(r, baseDir, 'topic');
  const subscriptionId = substituteCellId(r.string('SubscriptionID'), connection.cellId);
  const selector = readSelector(r);
  const stringProperty = r.stringMap('StringProperty');
  let partition: Partition = WHOLE_QUEUE;
  if (capacity !== undefined) partition = parsePartition(r.string('Partition'), capacity, name);
  return {
    connection,
    topic: connection.resolved.destination,
    subscriptionId: subscriptionId === '' ? undefined : subscriptionId,
    selectorText: selector?.text,
    selector,
    xaMode: readXaMode(r, 1),
    daemon: r.string('Mode', '').trim().toLowerCase() === 'daemon',
    receiveTimeMs: r.int('ReceiveTime', 1000, { min: 1 }),
    failedOutcome: r.oneOf('FailedOutcome', FAILED_OUTCOMES, 'reject'),
    exceptionListener: r.bool('EnableExceptionListener', false),
    displayMask: parseDisplayMask(r.string('DisplayMask')),
    displayProperties: Object.keys(stringProperty),
    stamp: compileStringProperties(name, stringProperty, connection.cellId),
    partition,
  };
}
