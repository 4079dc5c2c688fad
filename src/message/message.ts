/**
 * The one message model every transport maps to and from (docs/messages.md).
 * Close to JMS because the configurations speak JMS: a fixed set of headers, string-valued
 * user properties and a body that is text, bytes, a map or (in process only) an object.
 */
import { XrouteError } from '../foundation/xroute-error';
import { isUtf8 } from 'buffer';

/** Names of the JMS header fields. A field name beginning with `JMS` that is not one of these is a property. */
export const HEADER_NAMES = [
  'JMSMessageID',
  'JMSCorrelationID',
  'JMSType',
  'JMSPriority',
  'JMSDeliveryMode',
  'JMSExpiration',
  'JMSTimestamp',
  'JMSReplyTo',
  'JMSDestination',
  'JMSRedelivered',
] as const;

export type HeaderName = (typeof HEADER_NAMES)[number];

export interface MessageHeaders {
  JMSMessageID?: string;
  JMSCorrelationID?: string;
  JMSType?: string;
  /** 0..9, JMS default 4 */
  JMSPriority?: number;
  /** 1 = non-persistent, 2 = persistent */
  JMSDeliveryMode?: number;
  /** epoch ms; 0 or absent = never expires */
  JMSExpiration?: number;
  /** epoch ms */
  JMSTimestamp?: number;
  JMSReplyTo?: string;
  JMSDestination?: string;
  JMSRedelivered?: boolean;
}

export type MapValue = string | number | boolean | null;

export type MessageBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'map'; readonly map: Readonly<Record<string, MapValue>> }
  | { readonly kind: 'object'; readonly object: unknown };

const HEADER_SET: ReadonlySet<string> = new Set(HEADER_NAMES);
const NUMERIC_HEADERS: ReadonlySet<string> = new Set(['JMSPriority', 'JMSDeliveryMode', 'JMSExpiration', 'JMSTimestamp']);

export function isHeaderName(name: string): name is HeaderName {
  return HEADER_SET.has(name);
}

/** Thrown when a value cannot be stored in a header (for example JMSPriority = "high"). */
export class MessageFieldError extends XrouteError {
  constructor(
    readonly field: string,
    readonly value: string,
    readonly expected: string,
  ) {
    super(`cannot set ${field} to ${JSON.stringify(value)}: expected ${expected}`);
    this.name = 'MessageFieldError';
  }
}

/** Invalid sequences in `bytes` (each decodes to one U+FFFD); a genuine encoded U+FFFD is not counted. */
export function countInvalidUtf8(bytes: Buffer): number {
  if (isUtf8(bytes)) return 0;
  let replaced = 0;
  for (const ch of bytes.toString('utf8')) if (ch === '\uFFFD') replaced++;
  let genuine = 0;
  for (let i = bytes.indexOf(ENCODED_REPLACEMENT_CHARACTER); i >= 0; i = bytes.indexOf(ENCODED_REPLACEMENT_CHARACTER, i + 3)) genuine++;
  return replaced - genuine;
}

const ENCODED_REPLACEMENT_CHARACTER = Buffer.from([0xef, 0xbf, 0xbd]);

/** JMS defaults of a new message: priority 4, delivery mode 2 (persistent). */
export const DEFAULT_PRIORITY = 4;
export const PERSISTENT = 2;

/**
 * The slot where tracing keeps a message's span context while it travels through the XQueues
 * (src/tracing/message-trace.ts). A symbol key: no property list, JSON form, template or mapping sees it.
 */
export const TRACE_SLOT: unique symbol = Symbol('xroute.trace');

export class Message {
  /** Tracing's state of this message (src/tracing/message-trace.ts); absent while tracing is off. */
  declare [TRACE_SLOT]?: unknown;
  headers: MessageHeaders;
  /** User properties; values are strings as in the original. Insertion order is kept. */
  readonly properties: Map<string, string>;
  body: MessageBody;

  constructor(init: { headers?: MessageHeaders; properties?: Iterable<[string, string]> | Record<string, string>; body?: MessageBody } = {}) {
    // A fresh message carries the JMS defaults the original's messages have, so templates and patterns see them. With no
    // headers or properties given nothing is copied (a request per round trip is made this way; issue 32).
    // Object.assign, not a spread: on Node 20 (V8 11.3) an object made by a warm `{ ...x }` does not cache the
    // transitions of the properties added to it afterwards, so each message added JMSPriority to a fresh hidden class
    // and descriptor array in the old generation: garbage only a full collection frees (docs/benchmarks.md, latency).
    const headers: MessageHeaders = init.headers === undefined ? {} : Object.assign({}, init.headers);
    headers.JMSPriority ??= DEFAULT_PRIORITY;
    headers.JMSDeliveryMode ??= PERSISTENT;
    this.headers = headers;
    const props = init.properties;
    this.properties =
      props === undefined
        ? new Map()
        : Symbol.iterator in props
          ? new Map(props as Iterable<[string, string]>)
          : new Map(Object.entries(props as Record<string, string>));
    this.body = init.body ?? { kind: 'none' };
  }

  static text(text: string, properties?: Record<string, string>, headers?: MessageHeaders): Message {
    return new Message({ body: { kind: 'text', text }, properties, headers });
  }

  static bytes(bytes: Buffer, properties?: Record<string, string>, headers?: MessageHeaders): Message {
    return new Message({ body: { kind: 'bytes', bytes }, properties, headers });
  }

  static object(object: unknown, properties?: Record<string, string>, headers?: MessageHeaders): Message {
    return new Message({ body: { kind: 'object', object }, properties, headers });
  }

  static map(map: Record<string, MapValue>, properties?: Record<string, string>, headers?: MessageHeaders): Message {
    return new Message({ body: { kind: 'map', map }, properties, headers });
  }

  /** A deep-enough copy: headers, properties and body container are new; a bytes body is copied. */
  clone(): Message {
    const body: MessageBody =
      this.body.kind === 'bytes'
        ? { kind: 'bytes', bytes: Buffer.from(this.body.bytes) }
        : this.body.kind === 'map'
          ? { kind: 'map', map: { ...this.body.map } }
          : this.body;
    const copy = new Message({ headers: this.headers, properties: this.properties, body });
    // A copy is work on the same message: it continues the same trace.
    if (this[TRACE_SLOT] !== undefined) copy[TRACE_SLOT] = this[TRACE_SLOT];
    return copy;
  }

  // ---- properties -------------------------------------------------------------------------

  getProperty(name: string): string | undefined {
    return this.properties.get(name);
  }

  setProperty(name: string, value: string): void {
    this.properties.set(name, value);
  }

  deleteProperty(name: string): boolean {
    return this.properties.delete(name);
  }

  // ---- fields: the names templates and pattern groups use -----------------------------------

  /**
   * The value of a field by the name a configuration uses: a JMS header (as a string),
   * `body` (the body text), or a user property. Undefined when absent.
   */
  getField(name: string): string | undefined {
    if (name === 'body') return this.bodyText();
    if (isHeaderName(name)) return headerToString(this.headers[name]);
    return this.properties.get(name);
  }

  /** Sets a header (parsed to its type), the body text, or a user property. */
  setField(name: string, value: string): void {
    if (name === 'body') {
      this.setText(value);
    } else if (isHeaderName(name)) {
      this.setHeaderFromString(name, value);
    } else {
      this.properties.set(name, value);
    }
  }

  /** Removes a header, the body, or a property. */
  deleteField(name: string): void {
    if (name === 'body') this.body = { kind: 'none' };
    else if (isHeaderName(name)) delete this.headers[name];
    else this.properties.delete(name);
  }

  setHeaderFromString(name: HeaderName, value: string): void {
    if (NUMERIC_HEADERS.has(name)) {
      const trimmed = value.trim();
      if (trimmed === '') {
        delete this.headers[name];
        return;
      }
      if (!/^-?\d+$/.test(trimmed)) throw new MessageFieldError(name, value, 'an integer');
      const n = Number(trimmed);
      if (name === 'JMSPriority' && (n < 0 || n > 9)) throw new MessageFieldError(name, value, 'an integer from 0 to 9');
      if (name === 'JMSDeliveryMode' && n !== 1 && n !== 2) throw new MessageFieldError(name, value, '1 (non-persistent) or 2 (persistent)');
      (this.headers as Record<string, number>)[name] = n;
    } else if (name === 'JMSRedelivered') {
      this.headers.JMSRedelivered = value.trim().toLowerCase() === 'true';
    } else {
      (this.headers as Record<string, string>)[name] = value;
    }
  }

  // ---- body ---------------------------------------------------------------------------------

  /**
   * The body as text, the way the original reads it: text as is, bytes decoded as one UTF-8
   * buffer, a map as `<name>value</name>` lines, an object as "" and no body as undefined.
   */
  bodyText(): string | undefined {
    const b = this.body;
    switch (b.kind) {
      case 'text':
        return b.text;
      case 'bytes':
        return b.bytes.toString('utf8');
      case 'map':
        return Object.entries(b.map)
          .map(([k, v]) => `<${k}>${v === null ? '' : String(v)}</${k}>\n`)
          .join('');
      case 'object':
        return '';
      case 'none':
        return undefined;
    }
  }

  /**
   * How many invalid UTF-8 sequences a bytes body holds: bodyText() turns each into U+FFFD, so this is
   * what makes that corruption visible (0 for every other body).
   */
  invalidUtf8Sequences(): number {
    return this.body.kind === 'bytes' ? countInvalidUtf8(this.body.bytes) : 0;
  }

  /** Replaces the body with text; a bytes body stays bytes (UTF-8 encoded), as the original keeps the body type. */
  setText(text: string): void {
    this.body = this.body.kind === 'bytes' ? { kind: 'bytes', bytes: Buffer.from(text, 'utf8') } : { kind: 'text', text };
  }

  /** Size of the body in bytes (text as UTF-8), for display and limits. */
  bodySize(): number {
    const b = this.body;
    if (b.kind === 'text') return Buffer.byteLength(b.text, 'utf8');
    if (b.kind === 'bytes') return b.bytes.length;
    if (b.kind === 'map') return Buffer.byteLength(this.bodyText() ?? '', 'utf8');
    return 0;
  }

  /** The in-process object of an ObjectMessage, or undefined for any other body. */
  object<T = unknown>(): T | undefined {
    return this.body.kind === 'object' ? (this.body.object as T) : undefined;
  }
}

export function headerToString(v: string | number | boolean | undefined): string | undefined {
  return v === undefined ? undefined : String(v);
}
