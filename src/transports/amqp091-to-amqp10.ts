/**
 * The AMQP 1.0 form of a message that an AMQP 0-9-1 client published to RabbitMQ, for the header relay of the
 * RabbitMQ JMS dialect (src/transports/rabbit-header-relay.ts, docs/jms-migration.md).
 *
 * Why it exists: RabbitMQ 3.10's AMQP 1.0 plugin hands a message published over AMQP 0-9-1 to an AMQP 1.0
 * receiver WITHOUT its headers (no application-properties, no annotations), so JMS selectors on them select
 * nothing and the rules downstream see no properties. The relay takes such messages over AMQP 0-9-1 and sends
 * them over AMQP 1.0 in this form, with the headers as application-properties of their own AMQP types, so the
 * JMS consumer reads them with the one AMQP 1.0 mapping (src/transports/amqp10-mapping.ts):
 *
 * | AMQP 0-9-1                      | AMQP 1.0 (as the JMS consumer reads it)                          |
 * |---------------------------------|------------------------------------------------------------------|
 * | headers                         | application_properties: string, number (integer or not), boolean |
 * |                                 | and null as they are; timestamp as a timestamp; decimal as a     |
 * |                                 | number; bytes, arrays and tables as text (as AmqpReceiver does)  |
 * | messageId / correlationId       | message_id / correlation_id (JMSMessageID / JMSCorrelationID)    |
 * | type                            | subject (JMSType)                                                |
 * | priority                        | priority (JMSPriority)                                           |
 * | deliveryMode 2                  | durable true (JMSDeliveryMode 2)                                 |
 * | timestamp (seconds)             | creation_time (ms; values > 1e11 are taken as ms already)        |
 * | expiration (TTL ms)             | ttl                                                              |
 * | replyTo                         | reply_to                                                         |
 * | contentType / contentEncoding   | content_type / content_encoding (text/* bodies become text)      |
 * | appId, userId, clusterId        | RMQ_AppId, RMQ_UserId, RMQ_ClusterId application properties      |
 * | exchange / routing key          | RMQ_Exchange, RMQ_RoutingKey application properties              |
 * | content                         | one data section                                                 |
 */
import rhea = require('rhea');
import type { ConsumeMessage } from 'amqplib';
import { AmqpMessage } from './amqp10-mapping';
import { amqpTimestampToMs, headerValueToString } from './amqp091-mapping';

/** An application-property value in a form rhea encodes with the right AMQP type. */
export type ApplicationPropertyValue = string | number | boolean | null | Date;

/**
 * One 0-9-1 header value as an application property: simple values keep their type (so `size > 2` compares
 * numbers); amqplib's typed wrappers are unwrapped; values JMS has no property type for become text.
 */
export function headerToApplicationProperty(v: unknown): ApplicationPropertyValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (typeof v === 'object' && !Buffer.isBuffer(v) && !Array.isArray(v)) {
    const typed = v as { '!'?: unknown; value?: unknown };
    if (typed['!'] === 'timestamp') {
      const ms = amqpTimestampToMs(typed.value);
      return ms === undefined ? null : new Date(ms);
    }
    if (typed['!'] === 'decimal') {
      const d = typed.value as { places?: unknown; digits?: unknown } | undefined;
      if (typeof d?.places === 'number' && typeof d.digits === 'number') return d.digits / 10 ** d.places;
    }
    if (typeof typed['!'] === 'string' && 'value' in typed) return headerToApplicationProperty(typed.value);
  }
  return headerValueToString(v);
}

/** The fields of a 0-9-1 delivery the relay reads. */
export type Amqp091Delivery = Pick<ConsumeMessage, 'content' | 'fields' | 'properties'>;

/** The AMQP 1.0 message that carries a 0-9-1 delivery, headers included, to the JMS consumer. */
export function amqp10FromAmqp091(d: Amqp091Delivery): AmqpMessage & { content_encoding?: string } {
  const p = d.properties;
  const out: AmqpMessage & { content_encoding?: string } = {};
  const app: Record<string, ApplicationPropertyValue> = {};
  const h = p.headers as Record<string, unknown> | undefined;
  if (h) for (const key of Object.keys(h)) app[key] = headerToApplicationProperty(h[key]);
  if (present(p.messageId)) out.message_id = String(p.messageId);
  if (present(p.correlationId)) out.correlation_id = String(p.correlationId);
  if (present(p.type)) out.subject = String(p.type);
  if (typeof p.priority === 'number') out.priority = p.priority;
  if (p.deliveryMode === 2 || p.deliveryMode === 1) out.durable = p.deliveryMode === 2;
  const created = amqpTimestampToMs(p.timestamp);
  if (created !== undefined) out.creation_time = new Date(created);
  if (present(p.expiration)) {
    const ttl = Number(p.expiration);
    if (Number.isFinite(ttl) && ttl >= 0) out.ttl = ttl;
  }
  if (present(p.replyTo)) out.reply_to = String(p.replyTo);
  if (present(p.contentType)) out.content_type = String(p.contentType);
  if (present(p.contentEncoding)) out.content_encoding = String(p.contentEncoding);
  if (present(p.appId)) app.RMQ_AppId = String(p.appId);
  // user_id is checked by RabbitMQ against the relay's own login: carried as a property instead
  if (present(p.userId)) app.RMQ_UserId = String(p.userId);
  if (present(p.clusterId)) app.RMQ_ClusterId = String(p.clusterId);
  if (d.fields.exchange) app.RMQ_Exchange = d.fields.exchange;
  if (d.fields.routingKey) app.RMQ_RoutingKey = d.fields.routingKey;
  if (Object.keys(app).length > 0) out.application_properties = app;
  out.body = rhea.message.data_section(d.content);
  return out;
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}
