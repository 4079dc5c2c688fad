/**
 * AmqpReceiver configuration: the JSON schema of its own properties and the typed settings the behaviour
 * runs on. Every scalar is a string, as in the original; errors name the component and property.
 */
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { parseDisplayMask } from '../../src/logging/display';
import { Partition, parsePartition } from '../../src/xqueue/partition';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { SourceTopology } from '../../src/transports/amqp091-topology';
import { AmqpConnectionSettings } from '../../src/transports/amqp091-connection';
import { ReconnectSettings, connectionSchemaProperties, optionalInt, readConnectionSettings, readReconnectSettings, readSourceTopology, reconnectSchemaProperties, topologySchemaProperties } from '../support/amqp091-config';
import { Stamper, compileStringProperties } from '../../src/transports/string-property';
import { BackoffOptions } from '../../src/runtime/backoff';
import { readRedeliveryDelay } from '../support/redelivery-config';

/** What happens to a delivery whose downstream processing failed (XQueue outcome 'failed'), XAMode 1. */
export const FAILURE_POLICIES = ['requeue', 'dead-letter', 'requeue-once'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];


/** How a failed delivery is attempted again (XAMode 1), and where it goes when it is given up on. */
export interface RedeliverySettings {
  /** Delay before each further attempt of the same message. */
  readonly backoff: BackoffOptions;
  /** Attempts in all (first included) before the message is dead-lettered; 0 = no limit. */
  readonly maxAttempts: number;
  /** Exchange a given-up message is published to (with confirm) before it is acked; absent = none. */
  readonly deadLetterExchange?: string;
  /** Routing key for the dead-letter exchange; absent = the message's own routing key. */
  readonly deadLetterRoutingKey?: string;
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

const INT = (description: string) => ({ type: 'string', pattern: '^\\s*-?\\d+\\s*$', description });

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
    BindingArguments: { type: 'object', additionalProperties: { type: 'string' }, description: 'headers exchange: match arguments of the binding ("x-match": all|any)' },
    Priority: { type: 'string', pattern: '^\\s*[0-9]\\s*$', description: 'JMSPriority set on every message (0-9)' },
    Persistence: { type: 'string', pattern: '^\\s*[12]\\s*$', description: 'JMSDeliveryMode set on every message (1 or 2)' },
    Expiry: INT('ms added to the expiration of messages that have one'),
    TextMode: { type: 'string', pattern: '^\\s*[01]\\s*$', description: '1 (default): text body (UTF-8); 0: bytes body' },
    Mode: { type: 'string', enum: ['daemon', 'non-daemon'], description: 'daemon (default): keep running when the queue is idle; non-daemon: stop after ReceiveTime ms idle' },
    XAMode: { type: 'string', pattern: '^\\s*\\d+\\s*$', description: 'bit 1 set (default 1): ack after downstream work; 0: ack once in the XQueue' },
    FailurePolicy: { type: 'string', enum: [...FAILURE_POLICIES], description: 'failed downstream: requeue (default: attempted again after RedeliveryDelay), dead-letter (at once), requeue-once (one more attempt)' },
    RedeliveryDelay: { type: 'string', pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$', description: 'delay before attempting a failed message again, "minMs,maxMs" doubling per attempt (default 1000,60000)' },
    MaxAttempts: INT('attempts of a failing message before it is dead-lettered (FailurePolicy requeue); 0 (default) = no limit'),
    DeadLetterExchange: { type: 'string', minLength: 1, description: 'exchange a given-up message is published to (confirmed) before it is acked; without it, FailurePolicy requeue keeps a message parked and dead-letter nacks without requeue' },
    DeadLetterRoutingKey: { type: 'string', description: "routing key for DeadLetterExchange (default: the message's own routing key)" },
    ReceiveTime: INT('non-daemon: idle time in ms before stopping (default 1000)'),
    DisplayMask: INT('message fields to log (components.md §2.6)'),
    StringProperty: { type: 'object', additionalProperties: { type: 'string' }, description: 'properties stamped on every message' },
    CellID: INT('substituted for ${CellID} in StringProperty values'),
    Capacity: INT('informational: the output XQueue decides'),
    Partition: { type: 'string', description: '"offset,length" of output cells this receiver uses' },
  },
};

export function readReceiverSettings(name: string, config: ComponentConfig, baseDir: string, capacity: number): AmqpReceiverSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', 'get');
  if (operation !== 'get') throw new ComponentConfigError(name, 'Operation', operation, '"get" (the only operation of AmqpReceiver)');
  let partition: Partition;
  try {
    partition = parsePartition(r.string('Partition'), capacity, name);
  } catch (e) {
    throw new ComponentConfigError(name, 'Partition', r.string('Partition'), (e as Error).message);
  }
  const stringProperty = r.stringMap('StringProperty');
  return {
    connection: readConnectionSettings(r, baseDir),
    topology: readSourceTopology(r),
    clientAck: (r.int('XAMode', 1, { min: 0 }) & 1) === 1,
    textMode: r.int('TextMode', 1, { min: 0, max: 1 }) === 1,
    displayMask: parseDisplayMask(r.string('DisplayMask')),
    displayProperties: Object.keys(stringProperty ?? {}),
    daemon: r.oneOf('Mode', ['daemon', 'non-daemon'], 'daemon') === 'daemon',
    receiveTimeMs: r.int('ReceiveTime', 1000, { min: 1 }),
    priority: optionalInt(r, 'Priority', 0, 9),
    persistence: optionalInt(r, 'Persistence', 1, 2),
    expiryMs: optionalInt(r, 'Expiry', Number.MIN_SAFE_INTEGER),
    failurePolicy: r.oneOf('FailurePolicy', FAILURE_POLICIES, 'requeue'),
    redelivery: readRedeliverySettings(r),
    partition,
    prefetch: partition.length > 0 ? partition.length : capacity,
    stamp: compileStringProperties(name, stringProperty, r.string('CellID', '0')),
    reconnect: readReconnectSettings(r),
  };
}

function readRedeliverySettings(r: ConfigReader): RedeliverySettings {
  const backoff = readRedeliveryDelay(r);
  const deadLetterRoutingKey = r.string('DeadLetterRoutingKey');
  const deadLetterExchange = r.string('DeadLetterExchange');
  if (deadLetterRoutingKey !== undefined && deadLetterExchange === undefined) {
    throw new ComponentConfigError(r.component, 'DeadLetterRoutingKey', deadLetterRoutingKey, 'DeadLetterRoutingKey only together with DeadLetterExchange');
  }
  return { backoff, maxAttempts: r.int('MaxAttempts', 0, { min: 0 }), deadLetterExchange, deadLetterRoutingKey };
}
