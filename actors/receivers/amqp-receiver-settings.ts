/**
 * AmqpReceiver configuration: the JSON schema of its own properties and the typed settings the behaviour
 * runs on. Every scalar is a string, as in the original; errors name the component and property.
 */
import { ANY_INTEGER_PATTERN, intStr, integerSchemas, integerSetting } from '../../src/foundation/schema-helpers';
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { parseDisplayMask } from '../../src/logging/display';
import { Partition } from '../../src/xqueue/partition';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { SourceTopology } from '../../src/transports/amqp091-topology';
import { AmqpConnectionSettings } from '../../src/transports/amqp091-connection';
import {
  ReconnectSettings,
  connectionSchemaProperties,
  optionalInt,
  readConnectionSettings,
  readReconnectSettings,
  readSourceTopology,
  reconnectSchemaProperties,
  topologySchemaProperties,
} from '../support/amqp091-config';
import { Stamper, compileStringProperties } from '../../src/transports/string-property';
import { BackoffOptions } from '../../src/foundation/backoff';
import { readRedeliveryDelay } from '../support/redelivery-config';
import { defaultParkingQueue } from '../../src/parking/parked-origin';

/** What happens to a delivery whose downstream processing failed (XQueue outcome 'failed'), XAMode 1. */
const FAILURE_POLICIES = ['requeue', 'dead-letter', 'requeue-once'] as const;
type FailurePolicy = (typeof FAILURE_POLICIES)[number];

/** How a failed delivery is attempted again (XAMode 1), and where it goes when it is given up on. */
interface RedeliverySettings {
  /** Delay before each further attempt of the same message. */
  readonly backoff: BackoffOptions;
  /** Attempts in all (first included) before the message is dead-lettered; 0 = no limit. */
  readonly maxAttempts: number;
  /** Exchange a given-up message is published to (with confirm) before it is acked; absent = none. */
  readonly deadLetterExchange?: string;
  /** Routing key for the dead-letter exchange; absent = the message's own routing key. */
  readonly deadLetterRoutingKey?: string;
  /**
   * FailurePolicy requeue with MaxAttempts and no DeadLetterExchange: the durable queue a given-up message is
   * parked in (published with confirm, then the original acked); absent when nothing is ever parked.
   */
  readonly parkingQueue?: string;
}

export interface AmqpReceiverSettings {
  readonly connection: AmqpConnectionSettings;
  readonly topology: SourceTopology;
  /** 1: ack when downstream removes the message; 0: ack once it is in the XQueue. */
  readonly clientAck: boolean;
  readonly textMode: boolean;
  readonly displayMask: number;
  readonly displayProperties: readonly string[];
  readonly daemon: boolean;
  /** Non-daemon: the queue counts as idle after this many ms without a delivery. */
  readonly receiveTimeMs: number;
  readonly priority?: number;
  readonly persistence?: number;
  readonly expiryMs?: number;
  readonly failurePolicy: FailurePolicy;
  readonly redelivery: RedeliverySettings;
  readonly partition: Partition;
  /** Unacknowledged deliveries the broker may push: the output credit (partition length or capacity). */
  readonly prefetch: number;
  readonly stamp: Stamper;
  readonly reconnect: ReconnectSettings;
}

/** AmqpReceiver's own integer settings: their schema and the reader's defaults and ranges. */
const AMQP_RECEIVER_INTEGERS = {
  XAMode: integerSetting('bit 1 set (default {default}): ack after downstream work; 0: ack once in the XQueue', 1, { min: 0 }),
  TextMode: integerSetting('{default} (default): text body (UTF-8); 0: bytes body', 1, { min: 0, max: 1, pattern: '^\\s*[01]\\s*$' }),
  MaxAttempts: integerSetting('attempts of a failing message before it is dead-lettered (FailurePolicy requeue); {default} (default) = no limit', 0, {
    min: 0,
    pattern: ANY_INTEGER_PATTERN,
  }),
  ReceiveTime: integerSetting('non-daemon: idle time in ms before stopping', 1000, { min: 1, pattern: ANY_INTEGER_PATTERN }),
};

export const AMQP_RECEIVER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...connectionSchemaProperties(),
    ...topologySchemaProperties(),
    ...reconnectSchemaProperties(),
    Operation: { type: 'string', enum: ['get'] },
    QueueName: { type: 'string', description: 'queue to consume; absent = a server-named queue (exclusive, auto-delete)' },
    RoutingKey: {
      description: 'binding key(s) for direct/topic exchanges',
      oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
    BindingArguments: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'headers exchange: match arguments of the binding ("x-match": all|any)',
    },
    Priority: { type: 'string', pattern: '^\\s*[0-9]\\s*$', description: 'JMSPriority set on every message (0-9)' },
    Persistence: { type: 'string', pattern: '^\\s*[12]\\s*$', description: 'JMSDeliveryMode set on every message (1 or 2)' },
    Expiry: intStr('ms added to the expiration of messages that have one'),
    Mode: {
      type: 'string',
      enum: ['daemon', 'non-daemon'],
      description: 'daemon (default): keep running when the queue is idle; non-daemon: stop after ReceiveTime ms idle',
    },
    FailurePolicy: {
      type: 'string',
      enum: [...FAILURE_POLICIES],
      description: 'failed downstream: requeue (default: attempted again after RedeliveryDelay), dead-letter (at once), requeue-once (one more attempt)',
    },
    RedeliveryDelay: {
      type: 'string',
      pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$',
      description: 'delay before attempting a failed message again, "minMs,maxMs" doubling per attempt (default 1000,60000)',
    },
    DeadLetterExchange: {
      type: 'string',
      minLength: 1,
      description:
        'exchange a given-up message is published to (confirmed) before it is acked; without it, FailurePolicy requeue parks a message in ParkingQueue and dead-letter nacks without requeue',
    },
    DeadLetterRoutingKey: { type: 'string', description: "routing key for DeadLetterExchange (default: the message's own routing key)" },
    ParkingQueue: {
      type: 'string',
      minLength: 1,
      description:
        'FailurePolicy requeue, MaxAttempts reached and no DeadLetterExchange: the durable queue (declared) the message is parked in with its origin and failure; default xroute.parked.<Name>',
    },
    ...integerSchemas(AMQP_RECEIVER_INTEGERS),
    DisplayMask: intStr('message fields to log (docs/operations.md)'),
    StringProperty: { type: 'object', additionalProperties: { type: 'string' }, description: 'properties stamped on every message' },
    CellID: intStr('substituted for ${CellID} in StringProperty values'),
    Capacity: intStr('a positive integer as a string (informational: the output XQueue decides)', { min: 1 }),
    Partition: { type: 'string', description: '"offset,length" of output cells this receiver uses' },
  },
};

export function readReceiverSettings(name: string, config: ComponentConfig, baseDir: string, capacity: number): AmqpReceiverSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', 'get');
  if (operation !== 'get') throw new ComponentConfigError(name, 'Operation', operation, '"get" (the only operation of AmqpReceiver)');
  const partition = r.partition('Partition', capacity);
  const stringProperty = r.stringMap('StringProperty');
  const connection = readConnectionSettings(r, baseDir);
  const topology = readSourceTopology(r);
  const n = r.integers(AMQP_RECEIVER_INTEGERS);
  return {
    connection,
    topology,
    clientAck: (n.XAMode & 1) === 1,
    textMode: n.TextMode === 1,
    displayMask: parseDisplayMask(r.string('DisplayMask')),
    displayProperties: Object.keys(stringProperty ?? {}),
    daemon: r.oneOf('Mode', ['daemon', 'non-daemon'], 'daemon') === 'daemon',
    receiveTimeMs: n.ReceiveTime,
    priority: optionalInt(r, 'Priority', 0, 9),
    persistence: optionalInt(r, 'Persistence', 1, 2),
    expiryMs: optionalInt(r, 'Expiry', Number.MIN_SAFE_INTEGER),
    failurePolicy: r.oneOf('FailurePolicy', FAILURE_POLICIES, 'requeue'),
    redelivery: readRedeliverySettings(r, n.MaxAttempts, r.oneOf('FailurePolicy', FAILURE_POLICIES, 'requeue')),
    partition,
    prefetch: partition.length > 0 ? partition.length : capacity,
    stamp: compileStringProperties(name, stringProperty, r.string('CellID', '0')),
    reconnect: readReconnectSettings(r),
  };
}

function readRedeliverySettings(r: ConfigReader, maxAttempts: number, policy: FailurePolicy): RedeliverySettings {
  const backoff = readRedeliveryDelay(r);
  const deadLetterRoutingKey = r.string('DeadLetterRoutingKey');
  const deadLetterExchange = r.string('DeadLetterExchange');
  if (deadLetterRoutingKey !== undefined && deadLetterExchange === undefined) {
    throw new ComponentConfigError(r.component, 'DeadLetterRoutingKey', deadLetterRoutingKey, 'DeadLetterRoutingKey only together with DeadLetterExchange');
  }
  const parks = policy === 'requeue' && maxAttempts > 0 && deadLetterExchange === undefined;
  const parkingQueue = parks ? r.string('ParkingQueue', defaultParkingQueue(r.component)) : undefined;
  return { backoff, maxAttempts, deadLetterExchange, deadLetterRoutingKey, ...(parkingQueue !== undefined ? { parkingQueue } : {}) };
}
