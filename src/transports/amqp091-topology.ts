/**
 * Exchange/queue declaration and bindings for AmqpReceiver (the source queue) and AmqpPersister (the
 * target exchange), from the original's properties, with the original's bugs fixed (components.md §8.3):
 *
 * - IsPassive "true" (default): check that the exchange and queue exist, never declare them; a missing one
 *   is a configuration error. IsPassive "false": declare them (idempotent) with IsDurable/AutoDelete.
 *   A server-named queue (no QueueName) is always declared: exclusive, auto-delete, not durable.
 * - Bindings are created in both modes, because they are what RoutingKey/BindingArguments configure:
 *   direct and topic bind once per non-empty RoutingKey (a string or a list); no key = no binding (the
 *   queue's existing bindings are used); fanout binds with ""; headers binds with BindingArguments as the
 *   match arguments ("x-match" defaults to "all").
 * - No ExchangeName: the default exchange, which routes by queue name (nothing to bind).
 */
import type { Channel } from 'amqplib';
import { ConfigReader, ComponentConfigError } from './config-values';
import { BOOLEAN_STRING, amqpStep } from './amqp091-connection';

export const EXCHANGE_TYPES = ['direct', 'fanout', 'topic', 'headers'] as const;
export type ExchangeType = (typeof EXCHANGE_TYPES)[number];

export interface DeclareFlags {
  readonly passive: boolean;
  readonly durable: boolean;
  readonly autoDelete: boolean;
}

export interface ExchangeSettings extends DeclareFlags {
  /** "" = the default exchange. */
  readonly name: string;
  readonly type: ExchangeType;
}

export interface SourceTopology {
  readonly exchange: ExchangeSettings;
  /** "" = a server-named queue. */
  readonly queue: string;
  readonly routingKeys: readonly string[];
  readonly bindArguments: Readonly<Record<string, string>>;
  readonly flags: DeclareFlags;
}

export function topologySchemaProperties(): Record<string, unknown> {
  return {
    ExchangeName: { type: 'string', description: 'exchange; absent = the default exchange' },
    ExchangeType: { type: 'string', enum: [...EXCHANGE_TYPES], description: 'default direct' },
    IsPassive: { ...BOOLEAN_STRING, description: 'true (default): only check that the exchange/queue exist; false: declare them' },
    IsDurable: { ...BOOLEAN_STRING, description: 'durable when declared (default false)' },
    AutoDelete: { ...BOOLEAN_STRING, description: 'auto-delete when declared (default false)' },
  };
}

function readFlags(reader: ConfigReader): DeclareFlags {
  return { passive: reader.bool('IsPassive', true), durable: reader.bool('IsDurable', false), autoDelete: reader.bool('AutoDelete', false) };
}

export function readExchangeSettings(reader: ConfigReader): ExchangeSettings {
  const type = reader.oneOf('ExchangeType', EXCHANGE_TYPES, 'direct');
  return { name: reader.string('ExchangeName', ''), type, ...readFlags(reader) };
}

/** The receiver's source: exchange, queue and bindings; combinations that cannot work are errors. */
export function readSourceTopology(reader: ConfigReader): SourceTopology {
  const exchange = readExchangeSettings(reader);
  const queue = reader.string('QueueName', '');
  const routingKeys = reader.stringList('RoutingKey');
  const bindArguments = reader.stringMap('BindingArguments') ?? {};
  const c = reader.component;
  if (exchange.name === '' && exchange.type !== 'direct') throw new ComponentConfigError(c, 'ExchangeName', undefined, `an exchange name for ExchangeType ${exchange.type}`);
  if (exchange.name === '' && queue === '') throw new ComponentConfigError(c, 'QueueName', undefined, 'a queue name when no ExchangeName is given (a server-named queue on the default exchange receives nothing)');
  if (queue === '' && (exchange.type === 'direct' || exchange.type === 'topic') && routingKeys.length === 0) {
    throw new ComponentConfigError(c, 'RoutingKey', undefined, `at least one routing key: a server-named queue on a ${exchange.type} exchange needs a binding`);
  }
  if (exchange.name === '' && routingKeys.length > 0) throw new ComponentConfigError(c, 'RoutingKey', routingKeys, 'no RoutingKey without ExchangeName (the default exchange cannot be bound)');
  if (Object.keys(bindArguments).length > 0 && exchange.type !== 'headers') throw new ComponentConfigError(c, 'BindingArguments', bindArguments, 'BindingArguments only with ExchangeType headers');
  const xMatch = bindArguments['x-match'];
  if (xMatch !== undefined && !['all', 'any', 'all-with-x', 'any-with-x'].includes(xMatch)) throw new ComponentConfigError(c, 'BindingArguments', bindArguments, '"x-match" all or any');
  return { exchange, queue, routingKeys, bindArguments, flags: readFlags(reader) };
}

const PASSIVE_HINT = 'IsPassive is true: it must exist already, or set IsPassive "false" to declare it';
const DECLARE_HINT = 'it exists with other attributes (IsDurable/AutoDelete/type), or the user may not declare it';

/** Checks (passive) or declares the exchange; nothing for the default exchange. */
export async function declareExchange(component: string, ch: Channel, ex: ExchangeSettings): Promise<void> {
  if (ex.name === '') return;
  if (ex.passive) await amqpStep(component, `check of exchange "${ex.name}"`, () => ch.checkExchange(ex.name), PASSIVE_HINT);
  else await amqpStep(component, `declare of ${ex.type} exchange "${ex.name}"`, () => ch.assertExchange(ex.name, ex.type, { durable: ex.durable, autoDelete: ex.autoDelete }), DECLARE_HINT);
}

/** Declares/checks the source and binds it. Resolves with the queue name (the server's, for a server-named queue). */
export async function declareSource(component: string, ch: Channel, t: SourceTopology): Promise<string> {
  await declareExchange(component, ch, t.exchange);
  let queue: string;
  if (t.queue === '') queue = (await amqpStep(component, 'declare of a server-named queue', () => ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false }))).queue;
  else if (t.flags.passive) queue = (await amqpStep(component, `check of queue "${t.queue}"`, () => ch.checkQueue(t.queue), PASSIVE_HINT)).queue;
  else queue = (await amqpStep(component, `declare of queue "${t.queue}"`, () => ch.assertQueue(t.queue, { durable: t.flags.durable, autoDelete: t.flags.autoDelete, exclusive: false }), DECLARE_HINT)).queue;
  const ex = t.exchange;
  if (ex.name === '') return queue;
  const bind = (key: string, args?: Record<string, string>) =>
    amqpStep(component, `binding of queue "${queue}" to exchange "${ex.name}"${key ? ` with key "${key}"` : ''}`, () => ch.bindQueue(queue, ex.name, key, args));
  switch (ex.type) {
    case 'direct':
    case 'topic':
      for (const key of t.routingKeys) await bind(key);
      break;
    case 'fanout':
      await bind('');
      break;
    case 'headers':
      await bind('', { 'x-match': 'all', ...t.bindArguments });
      break;
  }
  return queue;
}
