/**
 * Broker dialects of JMS over AMQP 1.0: how a topic subscription, a queue consumer and a sender address
 * are expressed for each broker family (docs/components/jms-subscriber.md lists what each broker really does).
 *
 * - activemq (ActiveMQ Classic, Artemis and other JMS brokers following the AMQP JMS mapping): topics are
 *   `topic://name` (or the topic-prefix the broker advertises in its open frame), queues `queue://name`;
 *   the JMS selector goes in the standard `jms-selector` filter and the broker applies it; a durable
 *   subscription is the durable terminus (durable 2 = unsettled-state, expiry `never`) keyed by container id
 *   (= ClientID) and link name (= SubscriptionID).
 * - rabbitmq (RabbitMQ's rabbitmq_amqp1_0 plugin): topics are routing keys on amq.topic (`/topic/key` or
 *   `/exchange/<exchange>/<key>` are accepted too). RabbitMQ neither applies selectors nor resumes durable
 *   terminus subscriptions, and every plain `/topic/` link leaves a queue behind. So xroute declares the
 *   subscription queue itself over AMQP 0-9-1 (amqplib, same broker and login) and consumes it as
 *   `/amq/queue/<name>`: a durable subscription is the durable queue `<ClientID>.<SubscriptionID>`, kept while
 *   xroute is away; a non-durable one is an auto-delete queue (with a 60 s x-expires safety net), gone when the
 *   link goes. The selector filter is still sent; xroute applies it itself.
 *   RabbitMQ 3.10's plugin drops the headers of messages published over AMQP 0-9-1 on their way to an AMQP 1.0
 *   receiver, so the topic reaches the subscription queue through a headers exchange `<name>.split`: messages
 *   published over AMQP 1.0 (the plugin marks them with `x-amqp-1.0-*` headers) go straight to `<name>`; the
 *   others fall through to its alternate exchange and queue `<name>.amqp091`, from which the header relay
 *   (src/transports/rabbit-header-relay.ts) moves them into `<name>` with their headers as application properties.
 * The dialect comes from configuration (Dialect) or, by default, from the broker's open frame: RabbitMQ names
 * itself in `product`; anything else is treated as a JMS broker (ActiveMQ advertises `topic-prefix`).
 */
import rhea = require('rhea');
import * as amqplib from 'amqplib';
import { Amqp10Connection, Amqp10Endpoint, endpointLabel } from './amqp10-connection';
import { Amqp10ConnectError, connectFailure } from './amqp10-errors';
import { tlsSocketOptions } from './tls';

type DialectName = 'activemq' | 'rabbitmq';
export const DIALECT_CHOICES = ['auto', 'activemq', 'artemis', 'rabbitmq'] as const;
export type DialectChoice = (typeof DIALECT_CHOICES)[number];

/** What to attach: link name and the source terminus (rhea form). */
export interface SourcePlan {
  readonly linkName: string;
  readonly source: Record<string, unknown>;
  /** The address attached to. */
  readonly address: string;
  /** The destination messages were sent to (JMSDestination of received messages). */
  readonly destination: string;
  /** Messages to move into the source queue first (RabbitMQ: those published over AMQP 0-9-1). */
  readonly relay?: RelayRoute;
}

/** A queue whose messages the header relay moves into another queue (src/transports/rabbit-header-relay.ts). */
export interface RelayRoute {
  /** The side queue the AMQP 0-9-1 publishers' messages land in. */
  readonly from: string;
  /** The subscription queue the JMS consumer reads. */
  readonly to: string;
}

export interface TargetPlan {
  readonly target: Record<string, unknown>;
  readonly address: string;
}

interface SubscriptionSpec {
  readonly topic: string;
  readonly clientId?: string;
  /** Present = durable subscription. */
  readonly subscriptionId?: string;
  readonly selector?: string;
  /** Unique per component instance: names the link (and RabbitMQ queue) of a non-durable subscription. */
  readonly instanceId: string;
}

interface QueueSpec {
  readonly queue: string;
  readonly selector?: string;
  readonly instanceId: string;
}

export interface Dialect {
  readonly name: DialectName;
  /**
   * The broker applies the JMS selector it is given (ActiveMQ, Artemis). RabbitMQ echoes the filter in its attach
   * but delivers everything (docs/components/jms-subscriber.md), so there xroute applies the selector itself. Where
   * the broker selects, xroute does not select again: the two evaluate some expressions differently (ActiveMQ divides
   * integers as doubles), and a second opinion would drop messages the broker selected.
   */
  readonly appliesSelectors: boolean;
  subscription(conn: Amqp10Connection, spec: SubscriptionSpec): Promise<SourcePlan>;
  queueSource(conn: Amqp10Connection, spec: QueueSpec): Promise<SourcePlan>;
  topicTarget(conn: Amqp10Connection, topic: string): Promise<TargetPlan>;
  queueTarget(conn: Amqp10Connection, queue: string): Promise<TargetPlan>;
}

export function chooseDialect(choice: DialectChoice, remoteProperties: Readonly<Record<string, unknown>>): Dialect {
  if (choice === 'rabbitmq') return rabbitmqDialect;
  if (choice === 'activemq' || choice === 'artemis') return activemqDialect(remoteProperties);
  return String(remoteProperties.product ?? '').toLowerCase() === 'rabbitmq' ? rabbitmqDialect : activemqDialect(remoteProperties);
}

function selectorFilter(selector: string | undefined): Record<string, unknown> | undefined {
  return selector === undefined || selector.trim() === '' ? undefined : (rhea.filter.selector(selector) as Record<string, unknown>);
}

function withFilter(source: Record<string, unknown>, selector: string | undefined): Record<string, unknown> {
  const filter = selectorFilter(selector);
  return filter ? { ...source, filter } : source;
}

// ------------------------------------------------------------------------------------ ActiveMQ / Artemis

function activemqDialect(props: Readonly<Record<string, unknown>>): Dialect {
  const topicPrefix = typeof props['topic-prefix'] === 'string' ? (props['topic-prefix'] as string) : 'topic://';
  const queuePrefix = typeof props['queue-prefix'] === 'string' ? (props['queue-prefix'] as string) : 'queue://';
  const topicAddress = (t: string) => (/^(topic|queue|temp-topic|temp-queue):\/\//.test(t) || t.startsWith(topicPrefix) ? t : topicPrefix + t);
  const queueAddress = (q: string) => (/^(topic|queue|temp-topic|temp-queue):\/\//.test(q) || q.startsWith(queuePrefix) ? q : queuePrefix + q);
  return {
    name: 'activemq',
    appliesSelectors: true,
    async subscription(_conn, spec) {
      const address = topicAddress(spec.topic);
      const durable = spec.subscriptionId !== undefined;
      const source = withFilter(
        { address, capabilities: ['topic'], durable: durable ? 2 : 0, expiry_policy: durable ? 'never' : 'link-detach' },
        spec.selector,
      );
      return { linkName: spec.subscriptionId ?? `xroute-sub-${spec.instanceId}`, source, address, destination: address };
    },
    async queueSource(_conn, spec) {
      const address = queueAddress(spec.queue);
      return {
        linkName: `xroute-get-${spec.instanceId}`,
        source: withFilter({ address, capabilities: ['queue'] }, spec.selector),
        address,
        destination: address,
      };
    },
    async topicTarget(_conn, topic) {
      const address = topicAddress(topic);
      return { target: { address, capabilities: ['topic'] }, address };
    },
    async queueTarget(_conn, queue) {
      const address = queueAddress(queue);
      return { target: { address, capabilities: ['queue'] }, address };
    },
  };
}

// ------------------------------------------------------------------------------------------ RabbitMQ

/** A RabbitMQ topic as exchange + routing key: `/topic/k`, `/exchange/e/k`, `topic://k` or a bare key. */
function rabbitTopic(topic: string): { exchange: string; key: string } {
  const ex = /^\/exchange\/([^/]+)(?:\/(.*))?$/.exec(topic);
  if (ex) return { exchange: ex[1], key: ex[2] ?? '' };
  const key = topic.replace(/^\/topic\//, '').replace(/^topic:\/\//, '');
  return { exchange: 'amq.topic', key };
}

const rabbitmqDialect: Dialect = {
  name: 'rabbitmq',
  appliesSelectors: false,
  async subscription(conn, spec) {
    const { exchange, key } = rabbitTopic(spec.topic);
    const durable = spec.subscriptionId !== undefined;
    const queue = durable
      ? [spec.clientId, spec.subscriptionId].filter((p) => p !== undefined && p !== '').join('.')
      : `xroute.sub.${spec.clientId ?? 'anonymous'}.${spec.instanceId}`;
    const relay = splitRoute(queue);
    await withChannel(conn.endpoint, `declare the subscription queue ${queue}`, (ch) => declareSplitSubscription(ch, { exchange, key, durable, relay }));
    const address = `/amq/queue/${queue}`;
    return {
      linkName: spec.subscriptionId ?? `xroute-sub-${spec.instanceId}`,
      source: withFilter({ address }, spec.selector),
      address,
      destination: spec.topic,
      relay,
    };
  },
  async queueSource(conn, spec) {
    await declareDurableQueue(conn.endpoint, spec.queue);
    const address = `/amq/queue/${spec.queue}`;
    return { linkName: `xroute-get-${spec.instanceId}`, source: withFilter({ address }, spec.selector), address, destination: spec.queue };
  },
  async topicTarget(_conn, topic) {
    const { exchange, key } = rabbitTopic(topic);
    const address = key === '' ? `/exchange/${exchange}` : `/exchange/${exchange}/${key}`;
    return { target: { address }, address };
  },
  async queueTarget(conn, queue) {
    await declareDurableQueue(conn.endpoint, queue);
    const address = `/amq/queue/${queue}`;
    return { target: { address }, address };
  },
};

/** The side queue of a subscription queue (also the name of the split's alternate exchange). */
export function splitRoute(queue: string): RelayRoute {
  return { from: `${queue}.amqp091`, to: queue };
}

/** Everything the split of subscription queue `queue` consists of (for removing a durable subscription by hand). */
export function splitObjects(queue: string): { readonly queues: readonly string[]; readonly exchanges: readonly string[] } {
  const { from: side } = splitRoute(queue);
  return { queues: [queue, side], exchanges: [`${queue}.split`, side] };
}

/**
 * Binding arguments that select the messages published over AMQP 1.0: the plugin stores their properties,
 * application-properties and annotations in `x-amqp-1.0-*` headers (any one present is enough; a void value
 * matches presence, and `any-with-x` makes the headers exchange look at x- headers at all).
 */
export const AMQP10_PUBLISHED: Readonly<Record<string, unknown>> = Object.freeze({
  'x-match': 'any-with-x',
  'x-amqp-1.0-properties': null,
  'x-amqp-1.0-app-properties': null,
  'x-amqp-1.0-message-annotations': null,
});

/**
 * topic --> `<queue>.split` (headers) --AMQP 1.0 published--> `<queue>`
 *                 \--alternate exchange--> `<queue>.amqp091` (fanout) --> queue `<queue>.amqp091` --relay--> `<queue>`
 * Idempotent; also removes the direct topic binding of `<queue>` that xroute made before the relay existed (it
 * would deliver 0-9-1 messages twice, once without headers).
 */
async function declareSplitSubscription(ch: amqplib.Channel, t: { exchange: string; key: string; durable: boolean; relay: RelayRoute }): Promise<void> {
  const { to: queue, from: side } = t.relay;
  const [split] = splitObjects(queue).exchanges;
  const exchangeOptions = { durable: t.durable, autoDelete: !t.durable };
  const queueOptions: amqplib.Options.AssertQueue = t.durable ? { durable: true } : { durable: false, autoDelete: true, arguments: { 'x-expires': 60_000 } };
  await ch.assertExchange(side, 'fanout', exchangeOptions);
  await ch.assertExchange(split, 'headers', { ...exchangeOptions, alternateExchange: side });
  await ch.assertQueue(queue, queueOptions);
  await ch.assertQueue(side, queueOptions);
  await ch.bindQueue(side, side, '');
  await ch.bindQueue(queue, split, '', AMQP10_PUBLISHED);
  await ch.bindExchange(split, t.exchange, t.key);
  await ch.unbindQueue(queue, t.exchange, t.key);
}

/** Declares the durable queue unless it exists already (an existing queue is used as it is, whatever its arguments). */
async function declareDurableQueue(endpoint: Amqp10Endpoint, queue: string): Promise<void> {
  await withChannel(endpoint, `declare the queue ${queue}`, async (ch, connection) => {
    try {
      await ch.checkQueue(queue);
    } catch {
      // 404: the passive check closed that channel; declare on a new one
      const declare = await connection.createChannel();
      declare.on('error', () => undefined);
      await declare.assertQueue(queue, { durable: true });
    }
  });
}

/** Runs `work` on a short-lived AMQP 0-9-1 channel to the same RabbitMQ (same host, port, login, vhost). */
async function withChannel(
  endpoint: Amqp10Endpoint,
  what: string,
  work: (ch: amqplib.Channel, connection: amqplib.ChannelModel) => Promise<void>,
): Promise<void> {
  const label = endpointLabel(endpoint);
  let connection: amqplib.ChannelModel | undefined;
  try {
    connection = await connectRabbitAmqp091(endpoint, what, 0);
    const ch = await connection.createChannel();
    ch.on('error', () => undefined);
    await work(ch, connection);
  } catch (e) {
    if (e instanceof Amqp10ConnectError) throw e; // from connectRabbitAmqp091, already classified
    throw connectFailure(label, e, `cannot ${what} over AMQP 0-9-1: ${(e as Error).message}`);
  } finally {
    if (connection) await connection.close().catch(() => undefined);
  }
}

/**
 * An AMQP 0-9-1 connection to the RabbitMQ behind an AMQP 1.0 endpoint (same host, port, login, vhost and TLS
 * settings); its 'error' events are absorbed (a 'close' always follows). A failure to connect is the same
 * kind of error as on the AMQP 1.0 side (a TLS or login failure is fatal there and here).
 */
export async function connectRabbitAmqp091(endpoint: Amqp10Endpoint, what: string, heartbeatSeconds = 10): Promise<amqplib.ChannelModel> {
  try {
    const connection = await amqplib.connect(
      {
        protocol: endpoint.tls ? 'amqps' : 'amqp',
        hostname: endpoint.host,
        port: endpoint.port,
        username: endpoint.username ?? 'guest',
        password: endpoint.password ?? 'guest',
        vhost: endpoint.vhost ?? '/',
        heartbeat: heartbeatSeconds,
      },
      endpoint.tls ? tlsSocketOptions(endpoint.tlsSettings ?? { rejectUnauthorized: true }, endpoint.host) : {},
    );
    connection.on('error', () => undefined);
    return connection;
  } catch (e) {
    throw connectFailure(endpointLabel(endpoint), e, `cannot ${what} over AMQP 0-9-1: ${(e as Error).message}`);
  }
}
