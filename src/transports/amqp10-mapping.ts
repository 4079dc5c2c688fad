/**
 * THE mapping between AMQP 1.0 messages (as rhea hands them over and takes them) and xroute's message model,
 * written once for every JMS-over-AMQP component. It follows the AMQP JMS mapping that Qpid JMS and
 * ActiveMQ/Artemis use, so that messages exchanged with JMS clients keep their meaning:
 *
 * | AMQP 1.0                                   | message model                         |
 * |--------------------------------------------|---------------------------------------|
 * | properties.message_id                      | JMSMessageID (non-string ids as text) |
 * | properties.correlation_id                  | JMSCorrelationID                      |
 * | properties.subject                         | JMSType                               |
 * | header.priority (default 4)                | JMSPriority                           |
 * | header.durable true / false                | JMSDeliveryMode 2 / 1                 |
 * | properties.absolute_expiry_time, header.ttl| JMSExpiration (epoch ms; ttl counts from creation_time or now) |
 * | properties.creation_time                   | JMSTimestamp                          |
 * | properties.reply_to                        | JMSReplyTo                            |
 * | properties.to (else the link's address)    | JMSDestination                        |
 * | header.delivery_count > 0                  | JMSRedelivered                        |
 * | properties.group_id / group_sequence / user_id | properties JMSXGroupID / JMSXGroupSeq / JMSXUserID |
 * | application_properties                     | properties (values as strings; doubles and floats as Java writes them, 123.0 → "123.0") |
 * | amqp-value string                          | text body                             |
 * | data section(s), binary amqp-value         | bytes body (text body when content_type is text/*, or x-opt-jms-msg-type is 5) |
 * | amqp-value map                             | map body                              |
 * | amqp-value null / no body                  | no body                               |
 * | amqp-value list, amqp-sequence             | text body: the JSON of the list       |
 *
 * Sending reverses it: a text body goes as an amqp-value string (or, with TextMode 0, as a data section),
 * bytes as a data section, a map as an amqp-value map, and `x-opt-jms-msg-type` tells JMS clients which
 * JMS message type to build. An in-process object body cannot leave the process (AmqpMappingError).
 */
import rhea = require('rhea');
import { Message, MessageBody, MapValue } from '../message/message';
import { SelectorSource, SelectorValue } from '../jms/selector';
import { floatingType } from './amqp10-typed-values';
import { javaDoubleToString, javaFloatToString } from '../rules/java-numbers';
import { AmqpMappingError } from './amqp10-errors';

/** The fields of a received or outgoing AMQP 1.0 message that the mapping reads or writes (rhea's flat form). */
export interface AmqpMessage {
  message_id?: unknown;
  correlation_id?: unknown;
  subject?: string;
  priority?: number;
  durable?: boolean;
  ttl?: number;
  absolute_expiry_time?: Date | number;
  creation_time?: Date | number;
  reply_to?: string;
  to?: string;
  user_id?: unknown;
  group_id?: string;
  group_sequence?: number;
  content_type?: string;
  delivery_count?: number;
  application_properties?: Record<string, unknown>;
  message_annotations?: Record<string, unknown>;
  body?: unknown;
}

/** x-opt-jms-msg-type values (the AMQP JMS mapping). */
const JMS_MSG_TYPE = { message: 0, object: 1, map: 2, bytes: 3, stream: 4, text: 5 } as const;

export interface ReceiveContext {
  /** The address the message was received from, used when the message has no `to`. */
  readonly destination?: string;
  readonly now?: number;
}

export function amqpToMessage(m: AmqpMessage, ctx: ReceiveContext = {}): Message {
  const msg = new Message({ body: bodyFromAmqp(m) });
  const h = msg.headers;
  const id = idText(m.message_id);
  if (id !== undefined) h.JMSMessageID = id;
  const corr = idText(m.correlation_id);
  if (corr !== undefined) h.JMSCorrelationID = corr;
  if (typeof m.subject === 'string') h.JMSType = m.subject;
  h.JMSPriority = typeof m.priority === 'number' ? Math.min(9, Math.max(0, m.priority)) : 4;
  h.JMSDeliveryMode = m.durable === true ? 2 : 1;
  const created = timeMs(m.creation_time);
  if (created !== undefined) h.JMSTimestamp = created;
  const expiry = expiryMs(m, ctx.now);
  if (expiry !== undefined) h.JMSExpiration = expiry;
  if (typeof m.reply_to === 'string') h.JMSReplyTo = m.reply_to;
  const to = typeof m.to === 'string' ? m.to : ctx.destination;
  if (to !== undefined) h.JMSDestination = to;
  if (typeof m.delivery_count === 'number' && m.delivery_count > 0) h.JMSRedelivered = true;
  if (typeof m.group_id === 'string') msg.properties.set('JMSXGroupID', m.group_id);
  if (typeof m.group_sequence === 'number') msg.properties.set('JMSXGroupSeq', String(m.group_sequence));
  const user = userText(m.user_id);
  if (user !== undefined) msg.properties.set('JMSXUserID', user);
  const props = m.application_properties;
  if (props) {
    // for-in, not Object.entries: no array of pairs per received message (rhea's map is a plain object)
    for (const k in props) {
      const v = props[k];
      const floating = typeof v === 'number' ? floatingType(props, k) : undefined;
      // a JMS double or float reads as Java writes it: 123.0 is "123.0", the float 1.1 is "1.1"
      const s = floating === undefined ? propertyText(v) : floating === 'Float' ? javaFloatToString(v as number) : javaDoubleToString(v as number);
      if (s !== undefined) msg.properties.set(k, s);
    }
  }
  return msg;
}

export interface SendOptions {
  /** true (TextMode 1, default): text goes as an amqp-value string; false: as a UTF-8 data section. */
  readonly textMode?: boolean;
  /** Overrides from the persister's configuration (Persistence, Priority, Expiry), applied after the message's own. */
  readonly durable?: boolean;
  readonly priority?: number;
  /** Time to live in ms; replaces the message's JMSExpiration. */
  readonly ttlMs?: number;
  readonly now?: number;
}

/** The AMQP 1.0 form of a message, ready for rhea's sender.send(). */
export function messageToAmqp(msg: Message, options: SendOptions = {}): AmqpMessage {
  const now = options.now ?? Date.now();
  const h = msg.headers;
  const out: AmqpMessage = {};
  if (h.JMSMessageID !== undefined) out.message_id = h.JMSMessageID;
  if (h.JMSCorrelationID !== undefined) out.correlation_id = h.JMSCorrelationID;
  if (h.JMSType !== undefined) out.subject = h.JMSType;
  const priority = options.priority ?? h.JMSPriority;
  if (priority !== undefined) out.priority = priority;
  const durable = options.durable ?? (h.JMSDeliveryMode === undefined ? undefined : h.JMSDeliveryMode === 2);
  if (durable !== undefined) out.durable = durable;
  out.creation_time = h.JMSTimestamp ?? now;
  const expiry = options.ttlMs !== undefined ? now + options.ttlMs : h.JMSExpiration;
  if (expiry !== undefined && expiry > 0) {
    // An already expired message still gets a second to live, as the original persister does (docs/components/jms-queues.md).
    const ttl = Math.max(1000, Math.round(expiry - now));
    out.ttl = ttl;
    out.absolute_expiry_time = now + ttl;
  }
  if (h.JMSReplyTo !== undefined && h.JMSReplyTo !== '') out.reply_to = h.JMSReplyTo;
  let app: Record<string, unknown> | undefined; // made only for a message with properties to send
  const properties = msg.properties;
  // By key: `for (const [k, v] of map)` allocates a [key, value] pair per property (as in amqp091-mapping.ts).
  for (const k of properties.keys()) {
    const v = properties.get(k) as string;
    if (k === 'JMSXGroupID') out.group_id = v;
    else if (k === 'JMSXGroupSeq' && /^\d+$/.test(v)) out.group_sequence = Number(v);
    else if (k === 'JMSXUserID')
      continue; // set by the broker from the authenticated user
    else (app ??= {})[k] = v;
  }
  if (app !== undefined) out.application_properties = app;
  setBody(out, msg.body, options.textMode ?? true);
  return out;
}

/**
 * What a JMS selector sees of an AMQP message: the JMS headers with their JMS types, the JMSX properties,
 * and the application properties with their AMQP types (a number stays a number).
 */
export function amqpSelectorSource(m: AmqpMessage, now = Date.now()): SelectorSource {
  const long = (v: number | undefined): bigint | null => (v === undefined ? null : BigInt(Math.trunc(v)));
  return {
    jmsTyped: true,
    get(name: string): SelectorValue | undefined {
      switch (name) {
        case 'JMSDeliveryMode':
          return m.durable === true ? 'PERSISTENT' : 'NON_PERSISTENT';
        case 'JMSPriority':
          return BigInt(typeof m.priority === 'number' ? m.priority : 4);
        case 'JMSMessageID':
          return idText(m.message_id) ?? null;
        case 'JMSCorrelationID':
          return idText(m.correlation_id) ?? null;
        case 'JMSType':
          return m.subject ?? null;
        case 'JMSTimestamp':
          return long(timeMs(m.creation_time));
        case 'JMSExpiration':
          return long(expiryMs(m, now) ?? 0);
        case 'JMSRedelivered':
          return typeof m.delivery_count === 'number' && m.delivery_count > 0;
        case 'JMSReplyTo':
          return m.reply_to ?? null;
        case 'JMSDestination':
          return m.to ?? null;
        case 'JMSXDeliveryCount':
          return BigInt((typeof m.delivery_count === 'number' ? m.delivery_count : 0) + 1);
        case 'JMSXGroupID':
          return m.group_id ?? null;
        case 'JMSXGroupSeq':
          return long(m.group_sequence);
        case 'JMSXUserID':
          return userText(m.user_id) ?? null;
      }
      const props = m.application_properties;
      return selectorValue(props?.[name], floatingType(props, name) !== undefined);
    },
  };
}

// ------------------------------------------------------------------------------------------- helpers

function bodyFromAmqp(m: AmqpMessage): MessageBody {
  const b = m.body;
  const jmsType = m.message_annotations?.['x-opt-jms-msg-type'];
  const textual = jmsType === JMS_MSG_TYPE.text || (typeof m.content_type === 'string' && /^text\/|[/+](json|xml)\b/i.test(m.content_type));
  if (b === undefined || b === null) return { kind: 'none' };
  if (typeof b === 'string') return { kind: 'text', text: b };
  if (Buffer.isBuffer(b)) return bytesBody(b, textual);
  if (isSection(b)) {
    if (b.typecode === 0x75) {
      const content = b.multiple ? Buffer.concat((b.content as unknown[]).filter(Buffer.isBuffer)) : b.content;
      return Buffer.isBuffer(content) ? bytesBody(content, textual) : { kind: 'none' };
    }
    return { kind: 'text', text: JSON.stringify(b.content, jsonReplacer) }; // amqp-sequence
  }
  if (Array.isArray(b)) return { kind: 'text', text: JSON.stringify(b, jsonReplacer) };
  if (typeof b === 'object') {
    const map: Record<string, MapValue> = {};
    for (const [k, v] of Object.entries(b as Record<string, unknown>)) map[k] = mapValue(v);
    return { kind: 'map', map };
  }
  return { kind: 'text', text: String(b) };
}

function bytesBody(buf: Buffer, textual: boolean): MessageBody {
  return textual ? { kind: 'text', text: buf.toString('utf8') } : { kind: 'bytes', bytes: buf };
}

interface Section {
  typecode: number;
  content: unknown;
  multiple?: boolean;
}

function isSection(b: unknown): b is Section {
  return typeof b === 'object' && b !== null && typeof (b as Section).typecode === 'number' && 'content' in b;
}

/** rhea's data section (a body object that knows how to encode itself as a data section). */
function dataSection(buf: Buffer): unknown {
  return rhea.message.data_section(buf);
}

/** Sets the body, its x-opt-jms-msg-type and (for bytes) the content type. */
function setBody(out: AmqpMessage, body: MessageBody, textMode: boolean): void {
  switch (body.kind) {
    case 'none':
      out.body = null;
      out.message_annotations = { 'x-opt-jms-msg-type': JMS_MSG_TYPE.message };
      return;
    case 'text':
      if (textMode) {
        out.body = body.text;
        out.message_annotations = { 'x-opt-jms-msg-type': JMS_MSG_TYPE.text };
      } else setBytes(out, Buffer.from(body.text, 'utf8'));
      return;
    case 'bytes':
      setBytes(out, body.bytes);
      return;
    case 'map':
      out.body = { ...body.map };
      out.message_annotations = { 'x-opt-jms-msg-type': JMS_MSG_TYPE.map };
      return;
    case 'object':
      throw new AmqpMappingError('body', 'an in-process object body cannot be sent over AMQP 1.0');
  }
}

function setBytes(out: AmqpMessage, bytes: Buffer): void {
  out.body = dataSection(bytes);
  out.content_type = 'application/octet-stream';
  out.message_annotations = { 'x-opt-jms-msg-type': JMS_MSG_TYPE.bytes };
}

function mapValue(v: unknown): MapValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  return propertyText(v) ?? null;
}

function idText(id: unknown): string | undefined {
  if (id === undefined || id === null) return undefined;
  if (typeof id === 'string') return id;
  if (Buffer.isBuffer(id)) return id.length === 16 ? uuidText(id) : id.toString('hex');
  return String(id);
}

function uuidText(b: Buffer): string {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function userText(u: unknown): string | undefined {
  if (Buffer.isBuffer(u)) return u.toString('utf8');
  return typeof u === 'string' ? u : undefined;
}

function timeMs(t: unknown): number | undefined {
  if (t instanceof Date) return t.getTime();
  if (typeof t === 'number' && Number.isFinite(t)) return t;
  return undefined;
}

/** `now` (default the clock, read only when needed) is the start of a ttl on a message without creation_time. */
function expiryMs(m: AmqpMessage, now?: number): number | undefined {
  const abs = timeMs(m.absolute_expiry_time);
  if (abs !== undefined && abs > 0) return abs;
  if (typeof m.ttl === 'number' && m.ttl > 0) return (timeMs(m.creation_time) ?? now ?? Date.now()) + m.ttl;
  return undefined;
}

function propertyText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return String(v.getTime());
  if (Buffer.isBuffer(v)) return v.toString('base64');
  return JSON.stringify(v, jsonReplacer);
}

/** An application property with its JMS type: integers as bigint, doubles and floats as number. */
function selectorValue(v: unknown, floating: boolean): SelectorValue | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return floating || !Number.isInteger(v) ? v : BigInt(v);
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v;
  if (v instanceof Date) return BigInt(v.getTime());
  return undefined;
}

function jsonReplacer(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer') return Buffer.from((v as { data: number[] }).data).toString('base64');
  return v;
}
