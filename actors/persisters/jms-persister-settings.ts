/**
 * Configuration of the JMS senders over AMQP 1.0 (docs/components/jms-queues.md: JMSPersister `put` to QueueName,
 * JMSPublisher `pub` to TopicName): the JSON schema of their own properties and the typed settings.
 */
import { ANY_INTEGER_PATTERN, intStr, integerSchemas, integerSetting } from '../../src/foundation/schema-helpers';
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { parseDisplayMask } from '../../src/logging/display';
import { DestinationKind } from '../../src/transports/amqp10-endpoint';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { JmsConnectionSettings, jmsConnectionSchemaProperties, readJmsConnection } from '../support/jms-config';

export interface JmsSenderKind {
  readonly className: string;
  readonly operation: string;
  readonly destination: DestinationKind;
}

export const JMS_PERSISTER_KIND: JmsSenderKind = { className: 'JMSPersister', operation: 'put', destination: 'queue' };
export const JMS_PUBLISHER_KIND: JmsSenderKind = { className: 'JMSPublisher', operation: 'pub', destination: 'topic' };

/** rhea's outgoing delivery buffer holds 2048 deliveries per session: stay well below it. */
const MAX_IN_FLIGHT_LIMIT = 1024;

/** The senders' integer settings with a default: their schema and the reader's defaults and ranges. */
const JMS_SENDER_INTEGERS = {
  TextMode: integerSetting('{default} (default): a text body goes as an AMQP string (JMS TextMessage); 0: as a data section (BytesMessage)', 1, {
    min: 0,
    pattern: ANY_INTEGER_PATTERN,
  }),
  MaxInFlight: integerSetting(`sends awaiting the broker's settlement at once (default {default}, at most ${MAX_IN_FLIGHT_LIMIT})`, 256, {
    min: 1,
    max: MAX_IN_FLIGHT_LIMIT,
    pattern: ANY_INTEGER_PATTERN,
  }),
  SendRetries: integerSetting('times a message the broker rejected or released is sent again before it is removed with outcome failed', 2, {
    min: 0,
    pattern: ANY_INTEGER_PATTERN,
  }),
  RetryDelay: integerSetting('ms before a refused message is sent again', 1000, { min: 0, pattern: ANY_INTEGER_PATTERN }),
  MaxIdleTime: integerSetting('seconds without a message after which the connection is closed until the next message ({default} = never, default)', 0, {
    min: 0,
    pattern: ANY_INTEGER_PATTERN,
  }),
};

export function jmsSenderSchema(kind: JmsSenderKind): JsonSchema {
  const destinationKey = kind.destination === 'queue' ? 'QueueName' : 'TopicName';
  return {
    type: 'object',
    properties: {
      ...jmsConnectionSchemaProperties(),
      Operation: { type: 'string', enum: [kind.operation] },
      [destinationKey]: { type: 'string', description: `the ${kind.destination} (a JNDI name when URI is a jndi.properties file)` },
      Persistence: {
        type: 'string',
        pattern: '^\\s*[12]\\s*$',
        description: "override: 1 non-persistent, 2 persistent (default: the message's own JMSDeliveryMode)",
      },
      Priority: { type: 'string', pattern: '^\\s*\\d\\s*$', description: "override: priority 0-9 (default: the message's own JMSPriority)" },
      Expiry: intStr("override: time to live in ms, > 0 (default: the message's remaining lifetime; an expired message gets 1 s)"),
      XAMode: intStr(
        'accepted for compatibility: a message always leaves the XQueue only after the broker accepted it; bit 2 (transacted batches) is not supported',
      ),
      ...integerSchemas(JMS_SENDER_INTEGERS),
      DisplayMask: intStr('message fields to log when sent (docs/operations.md)'),
      IsPhysical: { type: 'string', description: 'accepted for compatibility: names are always physical unless a jndi.properties file maps them' },
    },
    required: [],
  };
}

export interface JmsSenderSettings {
  readonly connection: JmsConnectionSettings;
  readonly destination: string;
  readonly textMode: boolean;
  readonly durable?: boolean;
  readonly priority?: number;
  readonly ttlMs?: number;
  readonly maxInFlight: number;
  readonly sendRetries: number;
  readonly retryDelayMs: number;
  /** 0 = never hibernate. */
  readonly maxIdleMs: number;
  readonly displayMask: number;
}

/** Properties the senders accept but that have no effect over AMQP 1.0 (reported once at start-up). */
export function senderNoEffect(config: ComponentConfig): string[] {
  const noEffect = ['IsPhysical', 'ReceiveTime', 'MessageSelector', 'StringProperty'].filter((k) => config[k] !== undefined);
  const xa = typeof config.XAMode === 'string' ? Number(config.XAMode.trim()) : 0;
  if ((xa & 2) === 2) noEffect.push('XAMode (bit 2: transacted batches)');
  return noEffect;
}

export function readSenderSettings(kind: JmsSenderKind, name: string, config: ComponentConfig, baseDir: string): JmsSenderSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', kind.operation);
  if (operation !== kind.operation)
    throw new ComponentConfigError(name, 'Operation', operation, `"${kind.operation}" (the only operation of ${kind.className})`);
  const connection = readJmsConnection(r, baseDir, kind.destination);
  const persistence = r.has('Persistence') ? r.int('Persistence', 2, { min: 1, max: 2 }) : undefined;
  const priority = r.has('Priority') ? r.int('Priority', 4, { min: 0, max: 9 }) : undefined;
  const expiry = r.int('Expiry', 0, { min: 0 });
  const n = r.integers(JMS_SENDER_INTEGERS);
  return {
    connection,
    destination: connection.resolved.destination,
    textMode: n.TextMode !== 0,
    durable: persistence === undefined ? undefined : persistence === 2,
    priority,
    ttlMs: expiry > 0 ? expiry : undefined,
    maxInFlight: n.MaxInFlight,
    sendRetries: n.SendRetries,
    retryDelayMs: n.RetryDelay,
    maxIdleMs: n.MaxIdleTime * 1000,
    displayMask: parseDisplayMask(r.string('DisplayMask')),
  };
}
