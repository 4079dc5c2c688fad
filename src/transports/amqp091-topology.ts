/**
 * Exchange/queue declaration and bindings for AmqpReceiver (the source queue) and AmqpPersister (the
 * target exchange), from the original's properties, with the original's bugs fixed (docs/components/amqp.md):
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
import { amqpStep } from './amqp091-connection';

export const EXCHANGE_TYPES = ['direct', 'fanout', 'topic', 'headers'] as const;
type ExchangeType = (typeof EXCHANGE_TYPES)[number];

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

const PASSIVE_HINT = 'IsPassive is true: it must exist already, or set IsPassive "false" to declare it';
const DECLARE_HINT = 'it exists with other attributes (IsDurable/AutoDelete/type), or the user may not declare it';

/** Checks (passive) or declares the exchange; nothing for the default exchange. */
export async function declareExchange(component: string, ch: Channel, ex: ExchangeSettings): Promise<void> {
  if (ex.name === '') return;
  if (ex.passive) await amqpStep(component, `check of exchange "${ex.name}"`, () => ch.checkExchange(ex.name), PASSIVE_HINT);
  else
    await amqpStep(
      component,
      `declare of ${ex.type} exchange "${ex.name}"`,
      () => ch.assertExchange(ex.name, ex.type, { durable: ex.durable, autoDelete: ex.autoDelete }),
      DECLARE_HINT,
    );
}

/** Checks that an exchange named by `property` (e.g. DeadLetterExchange) exists; never declares it. */
export async function checkExchange(component: string, ch: Channel, name: string, property: string): Promise<void> {
  await amqpStep(component, `check of exchange "${name}" (${property})`, () => ch.checkExchange(name), `the ${property} must exist already`);
}

/** Checks (passive) or declares a named queue, with no arguments. Resolves with its name. */
export async function declareQueue(component: string, ch: Channel, name: string, flags: DeclareFlags): Promise<string> {
  if (flags.passive) return (await amqpStep(component, `check of queue "${name}"`, () => ch.checkQueue(name), PASSIVE_HINT)).queue;
  return (
    await amqpStep(
      component,
      `declare of queue "${name}"`,
      () => ch.assertQueue(name, { durable: flags.durable, autoDelete: flags.autoDelete, exclusive: false }),
      DECLARE_HINT,
    )
  ).queue;
}

/** Declares/checks the source and binds it. Resolves with the queue name (the server's, for a server-named queue). */
export async function declareSource(component: string, ch: Channel, t: SourceTopology): Promise<string> {
  await declareExchange(component, ch, t.exchange);
  let queue: string;
  if (t.queue === '')
    queue = (await amqpStep(component, 'declare of a server-named queue', () => ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false })))
      .queue;
  else queue = await declareQueue(component, ch, t.queue, t.flags);
  const ex = t.exchange;
  if (ex.name === '') return queue;
  const bind = (key: string, args?: Record<string, string>) =>
    amqpStep(component, `binding of queue "${queue}" to exchange "${ex.name}"${key ? ` with key "${key}"` : ''}`, () =>
      ch.bindQueue(queue, ex.name, key, args),
    );
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
