/**
 * AmqpPersister configuration: the JSON schema of its own properties and the typed settings.
 */
import { ANY_INTEGER_PATTERN, intStr, integerSchemas, integerSetting } from '../../src/foundation/schema-helpers';
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { parseDisplayMask } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { Template } from '../../src/rules/template';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { ExchangeSettings } from '../../src/transports/amqp091-topology';
import { AmqpConnectionSettings } from '../../src/transports/amqp091-connection';
import {
  ReconnectSettings,
  connectionSchemaProperties,
  readConnectionSettings,
  readExchangeSettings,
  readReconnectSettings,
  reconnectSchemaProperties,
  topologySchemaProperties,
} from '../support/amqp091-config';

/** What happens to a message the broker could not take: it stays in the input XQueue until this decides. */
const PUBLISH_FAILURE_POLICIES = ['fail', 'retry', 'drop'] as const;
export type PublishFailurePolicy = (typeof PUBLISH_FAILURE_POLICIES)[number];

export interface AmqpPersisterSettings {
  readonly connection: AmqpConnectionSettings;
  readonly exchange: ExchangeSettings;
  /** A queue checked or declared (with the exchange's IsPassive/IsDurable/AutoDelete) on every connect. */
  readonly queue: string | undefined;
  /** The routing key of a message: fixed, or rendered from a `##field##` template. */
  readonly routingKey: (msg: Message) => string;
  readonly maxInFlight: number;
  /** Unroutable (basic.return of a mandatory publish). */
  readonly returnPolicy: PublishFailurePolicy;
  /** basic.nack from the broker. */
  readonly nackPolicy: PublishFailurePolicy;
  readonly retryDelayMs: number;
  readonly displayMask: number;
  readonly reconnect: ReconnectSettings;
}

/** AmqpPersister's own integer settings: their schema and the reader's defaults and ranges. */
const AMQP_PERSISTER_INTEGERS = {
  MaxInFlight: integerSetting('publishes awaiting a broker confirm at once', 256, { min: 1, pattern: ANY_INTEGER_PATTERN }),
  RetryDelay: integerSetting('ms before a retried publish', 1000, { min: 0, pattern: ANY_INTEGER_PATTERN }),
};

export const AMQP_PERSISTER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...connectionSchemaProperties(),
    ...topologySchemaProperties(),
    ...reconnectSchemaProperties(),
    Operation: { type: 'string', enum: ['pub'] },
    RoutingKey: { type: 'string', description: 'routing key, fixed or a ##field## template (e.g. "orders.##Region##"); default QueueName' },
    QueueName: {
      type: 'string',
      description:
        'a queue checked (IsPassive true) or declared (IsPassive false, with IsDurable/AutoDelete, no arguments) on connect; with the default exchange the routing key defaults to it',
    },
    ReturnPolicy: {
      type: 'string',
      enum: [...PUBLISH_FAILURE_POLICIES],
      description: 'unroutable message: fail (default: removed as failed, its producer decides), retry (after RetryDelay), drop (logged)',
    },
    NackPolicy: { type: 'string', enum: [...PUBLISH_FAILURE_POLICIES], description: 'message nacked by the broker: retry (default), fail, drop' },
    ...integerSchemas(AMQP_PERSISTER_INTEGERS),
    XAMode: intStr('accepted for compatibility: publishes are always confirmed before the message is removed'),
    DisplayMask: intStr('message fields to log (docs/operations.md)'),
  },
};

export function readPersisterSettings(name: string, config: ComponentConfig, baseDir: string): AmqpPersisterSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', 'pub');
  if (operation !== 'pub') throw new ComponentConfigError(name, 'Operation', operation, '"pub" (the only operation of AmqpPersister)');
  const exchange = readExchangeSettings(r);
  const queue = r.string('QueueName', '').trim() || undefined;
  const keySource = r.string('RoutingKey', exchange.name === '' ? (queue ?? '') : '');
  if (exchange.name === '' && keySource === '')
    throw new ComponentConfigError(name, 'RoutingKey', undefined, 'a routing key (the queue name) or a QueueName when no ExchangeName is given');
  let routingKey: (msg: Message) => string;
  if (Template.hasPlaceholders(keySource)) {
    const t = new Template(keySource, { where: { component: name, key: 'RoutingKey' } });
    routingKey = (msg) => t.format(msg);
  } else routingKey = () => keySource;
  const connection = readConnectionSettings(r, baseDir);
  const n = r.integers(AMQP_PERSISTER_INTEGERS);
  return {
    connection,
    exchange,
    queue,
    routingKey,
    maxInFlight: n.MaxInFlight,
    returnPolicy: r.oneOf('ReturnPolicy', PUBLISH_FAILURE_POLICIES, 'fail'),
    nackPolicy: r.oneOf('NackPolicy', PUBLISH_FAILURE_POLICIES, 'retry'),
    retryDelayMs: n.RetryDelay,
    displayMask: parseDisplayMask(r.string('DisplayMask')),
    reconnect: readReconnectSettings(r),
  };
}
