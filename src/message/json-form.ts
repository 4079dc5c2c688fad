/**
 * The JSON form of a message, used by the CLI (`xroute eval`), tests and fixtures:
 *   {"body": "...", "properties": {"RuleName": "r1"}, "headers": {"JMSType": "order", "JMSPriority": "4"}}
 * Body forms: a string is a text body; {"bytes": "<base64>"} a bytes body; {"map": {...}} a map body;
 * {"object": <json>} an object body; absent or null means no body.
 * Header values are strings (as in templates). A JMS header name given under "properties" is
 * treated as a header, as the original does.
 */
import { XrouteError } from '../foundation/xroute-error';
import { DEFAULT_PRIORITY, HEADER_NAMES, Message, MessageBody, MapValue, PERSISTENT, isHeaderName, headerToString } from './message';

export interface MessageJson {
  body?: string | { bytes: string } | { map: Record<string, MapValue> } | { object: unknown } | null;
  properties?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Raised for JSON that is not a message in JSON form; `path` names the offending member. */
export class MessageJsonError extends XrouteError {
  constructor(
    readonly path: string,
    readonly expected: string,
    cause?: unknown,
  ) {
    super(`invalid message JSON at ${path}: expected ${expected}`, cause === undefined ? undefined : { cause });
    this.name = 'MessageJsonError';
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function messageFromJson(input: unknown): Message {
  if (!isRecord(input)) throw new MessageJsonError('$', 'an object with body, properties and headers');
  for (const key of Object.keys(input)) {
    if (key !== 'body' && key !== 'properties' && key !== 'headers') throw new MessageJsonError(`$.${key}`, 'only body, properties and headers');
  }
  const msg = new Message({ body: bodyFromJson(input.body) });
  const setAll = (section: 'properties' | 'headers') => {
    const value = input[section];
    if (value === undefined || value === null) return;
    if (!isRecord(value)) throw new MessageJsonError(`$.${section}`, 'an object of string values');
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new MessageJsonError(`$.${section}.${k}`, 'a string');
      if (section === 'headers' && !isHeaderName(k)) throw new MessageJsonError(`$.headers.${k}`, `one of ${HEADER_NAMES.join(', ')}`);
      try {
        msg.setField(k, String(v));
      } catch (e) {
        throw new MessageJsonError(`$.${section}.${k}`, (e as Error).message, e);
      }
    }
  };
  setAll('headers');
  setAll('properties');
  return msg;
}

function bodyFromJson(body: unknown): MessageBody {
  if (body === undefined || body === null) return { kind: 'none' };
  if (typeof body === 'string') return { kind: 'text', text: body };
  if (isRecord(body)) {
    if (typeof body.bytes === 'string') return { kind: 'bytes', bytes: Buffer.from(body.bytes, 'base64') };
    if (isRecord(body.map)) return { kind: 'map', map: body.map as Record<string, MapValue> };
    if ('object' in body) return { kind: 'object', object: body.object };
  }
  throw new MessageJsonError('$.body', 'a string, {"bytes": base64}, {"map": {...}} or {"object": ...}');
}

export function messageToJson(msg: Message): MessageJson {
  const out: MessageJson = {};
  const b = msg.body;
  if (b.kind === 'text') out.body = b.text;
  else if (b.kind === 'bytes') out.body = { bytes: b.bytes.toString('base64') };
  else if (b.kind === 'map') out.body = { map: { ...b.map } };
  else if (b.kind === 'object') out.body = { object: safeJson(b.object) };
  if (msg.properties.size > 0) out.properties = Object.fromEntries(msg.properties);
  const headers: Record<string, string> = {};
  for (const name of HEADER_NAMES) {
    const v = headerToString(msg.headers[name]);
    if (v !== undefined && !atJmsDefault(name, msg.headers[name])) headers[name] = v;
  }
  if (Object.keys(headers).length > 0) out.headers = headers;
  return out;
}

/** Headers at the JMS defaults every message has (priority 4, persistent) are left out of the JSON form. */
function atJmsDefault(name: string, value: unknown): boolean {
  return (name === 'JMSPriority' && value === DEFAULT_PRIORITY) || (name === 'JMSDeliveryMode' && value === PERSISTENT);
}

/** Object bodies may hold live handles (queues, actors); keep only what JSON can say. */
function safeJson(value: unknown): unknown {
  try {
    return JSON.parse(
      JSON.stringify(value, (_k, v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as { toJSON?: unknown }).toJSON !== 'function' &&
        v.constructor &&
        v.constructor !== Object &&
        !Array.isArray(v)
          ? `[${v.constructor.name}]`
          : v,
      ),
    );
  } catch {
    return '[unserialisable]';
  }
}
