/**
 * The AMQP 0-9-1 <-> message-model mapping, written once for AmqpReceiver (deliveries -> Message) and
 * AmqpPersister (Message -> basic.publish). The table in docs/components/amqp.md documents it:
 *
 * | AMQP 0-9-1                        | Message                                                          |
 * |-----------------------------------|------------------------------------------------------------------|
 * | properties.messageId              | JMSMessageID                                                     |
 * | properties.correlationId          | JMSCorrelationID                                                 |
 * | properties.type                   | JMSType                                                          |
 * | properties.priority               | JMSPriority (absent stays absent)                                |
 * | properties.deliveryMode 1/2       | JMSDeliveryMode 1/2                                              |
 * | properties.timestamp (seconds)    | JMSTimestamp (ms); values > 1e11 are taken as ms already         |
 * | properties.expiration (TTL ms)    | JMSExpiration = (JMSTimestamp or receive time) + TTL (JMS rule)  |
 * | properties.replyTo                | JMSReplyTo                                                       |
 * | fields.redelivered                | JMSRedelivered (receive only)                                    |
 * | consumed queue                    | JMSDestination (receive only)                                    |
 * | properties.headers                | user properties, values as strings (bytes as UTF-8, tables JSON) |
 * | contentType / contentEncoding     | RMQ_ContentType / RMQ_ContentEncoding (both ways)                |
 * | appId                             | RMQ_AppId (both ways)                                            |
 * | userId, clusterId                 | RMQ_UserId, RMQ_ClusterId (receive only: RabbitMQ refuses a      |
 * |                                   | userId other than the connection's user)                         |
 * | fields.deliveryTag/exchange/key   | RMQ_DeliveryTag, RMQ_Exchange, RMQ_RoutingKey (receive only)     |
 * | content                           | TextMode 1: text body (UTF-8); TextMode 0: bytes body            |
 *
 * Publishing: a text body is sent as UTF-8; bytes as they are; a map or object body as JSON (content type
 * application/json unless RMQ_ContentType says otherwise); no body as an empty payload. Properties whose
 * names start with RMQ_ are transport metadata and never become headers.
 */
import type { ConsumeMessage, Options } from 'amqplib';
import { Message, MessageHeaders } from '../message/message';

/** Prefix of the properties that carry AMQP delivery metadata rather than user data. */
const RMQ_PREFIX = 'RMQ_';

export interface FromAmqpOptions {
  /** true: text body (UTF-8, TextMode 1); false: bytes body (TextMode 0). */
  readonly text: boolean;
  /** The queue the delivery came from (JMSDestination). */
  readonly queue?: string;
  /** Receive time, used for JMSExpiration when the delivery has no timestamp. */
  readonly now?: number;
}

/** Amqp timestamps are POSIX seconds; a few clients send milliseconds. 1e11 s is the year 5138. */
const MS_TIMESTAMP_THRESHOLD = 1e11;

export function amqpTimestampToMs(ts: unknown): number | undefined {
  const n = typeof ts === 'number' ? ts : typeof ts === 'bigint' ? Number(ts) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return n > MS_TIMESTAMP_THRESHOLD ? Math.floor(n) : Math.floor(n * 1000);
}

/** A header value as the string the message model keeps. */
export function headerValueToString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    // amqplib gives typed values as {'!': type, value}, e.g. timestamps and floats.
    const typed = v as { '!'?: unknown; value?: unknown };
    if (typeof typed['!'] === 'string' && 'value' in typed) return headerValueToString(typed.value);
    try {
      return JSON.stringify(v, (_k, x) => (Buffer.isBuffer(x) ? x.toString('utf8') : typeof x === 'bigint' ? x.toString() : x));
    } catch {
      return String(v);
    }
  }
  return String(v);
}

/** Converts one delivery into a new, writable message. */
export function messageFromAmqp(delivery: Pick<ConsumeMessage, 'content' | 'fields' | 'properties'>, options: FromAmqpOptions): Message {
  const p = delivery.properties;
  const f = delivery.fields;
  const headers: MessageHeaders = {};
  if (p.messageId !== undefined && p.messageId !== null) headers.JMSMessageID = String(p.messageId);
  if (p.correlationId !== undefined && p.correlationId !== null) headers.JMSCorrelationID = String(p.correlationId);
  if (p.type !== undefined && p.type !== null) headers.JMSType = String(p.type);
  if (typeof p.priority === 'number') headers.JMSPriority = Math.min(9, Math.max(0, p.priority));
  if (p.deliveryMode === 1 || p.deliveryMode === 2) headers.JMSDeliveryMode = p.deliveryMode;
  const ts = amqpTimestampToMs(p.timestamp);
  if (ts !== undefined) headers.JMSTimestamp = ts;
  if (p.expiration !== undefined && p.expiration !== null && p.expiration !== '') {
    const ttl = Number(p.expiration);
    if (Number.isFinite(ttl) && ttl >= 0) headers.JMSExpiration = (ts ?? options.now ?? Date.now()) + ttl;
  }
  if (p.replyTo !== undefined && p.replyTo !== null && p.replyTo !== '') headers.JMSReplyTo = String(p.replyTo);
  if (options.queue !== undefined) headers.JMSDestination = options.queue;
  headers.JMSRedelivered = f.redelivered === true;

  // The message's own property map is filled in place (a map built here would be copied by the constructor).
  const msg = new Message({ headers });
  const properties = msg.properties;
  const h = p.headers;
  if (h) for (const key of Object.keys(h)) properties.set(key, headerValueToString(h[key]));
  properties.set('RMQ_DeliveryTag', String(f.deliveryTag));
  if (f.exchange) properties.set('RMQ_Exchange', f.exchange);
  if (f.routingKey) properties.set('RMQ_RoutingKey', f.routingKey);
  if (p.contentType) properties.set('RMQ_ContentType', String(p.contentType));
  if (p.contentEncoding) properties.set('RMQ_ContentEncoding', String(p.contentEncoding));
  if (p.userId) properties.set('RMQ_UserId', String(p.userId));
  if (p.appId) properties.set('RMQ_AppId', String(p.appId));
  if (p.clusterId) properties.set('RMQ_ClusterId', String(p.clusterId));

  msg.body = options.text ? { kind: 'text', text: delivery.content.toString('utf8') } : { kind: 'bytes', bytes: delivery.content };
  return msg;
}

export interface AmqpPublication {
  readonly content: Buffer;
  readonly options: Options.Publish;
}

/** Converts a message into the payload and properties of a basic.publish. */
export function messageToAmqp(msg: Message, now = Date.now()): AmqpPublication {
  const h = msg.headers;
  const options: Options.Publish = {};
  if (h.JMSMessageID !== undefined) options.messageId = h.JMSMessageID;
  if (h.JMSCorrelationID !== undefined) options.correlationId = h.JMSCorrelationID;
  if (h.JMSType !== undefined) options.type = h.JMSType;
  if (h.JMSPriority !== undefined) options.priority = h.JMSPriority;
  if (h.JMSDeliveryMode === 1 || h.JMSDeliveryMode === 2) options.deliveryMode = h.JMSDeliveryMode;
  if (h.JMSTimestamp !== undefined) options.timestamp = Math.floor(h.JMSTimestamp / 1000);
  // AMQP has a relative TTL; an already expired message gets 0 (dropped unless a consumer takes it at once).
  if (h.JMSExpiration !== undefined && h.JMSExpiration > 0) options.expiration = String(Math.max(0, h.JMSExpiration - now));
  if (h.JMSReplyTo !== undefined && h.JMSReplyTo !== '') options.replyTo = h.JMSReplyTo;

  let headers: Record<string, string> | undefined;
  const properties = msg.properties;
  // By key: a [key, value] pair per property is what `for (const [k, v] of map)` allocates (issue 32).
  for (const k of properties.keys()) {
    if (k.startsWith(RMQ_PREFIX)) continue;
    (headers ??= {})[k] = properties.get(k) as string;
  }
  if (headers) options.headers = headers;
  const contentType = msg.properties.get('RMQ_ContentType');
  const contentEncoding = msg.properties.get('RMQ_ContentEncoding');
  const appId = msg.properties.get('RMQ_AppId');
  if (contentType !== undefined) options.contentType = contentType;
  if (contentEncoding !== undefined) options.contentEncoding = contentEncoding;
  if (appId !== undefined) options.appId = appId;

  const b = msg.body;
  let content: Buffer;
  switch (b.kind) {
    case 'text':
      content = Buffer.from(b.text, 'utf8');
      break;
    case 'bytes':
      content = b.bytes;
      break;
    case 'map':
      content = Buffer.from(JSON.stringify(b.map), 'utf8');
      options.contentType ??= 'application/json';
      break;
    case 'object':
      content = Buffer.from(JSON.stringify(b.object) ?? 'null', 'utf8');
      options.contentType ??= 'application/json';
      break;
    case 'none':
      content = Buffer.alloc(0);
      break;
  }
  return { content, options };
}
