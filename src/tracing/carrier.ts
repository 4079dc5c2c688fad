/**
 * Reading and writing W3C trace context in message headers: AMQP 0-9-1 headers (amqplib) and AMQP 1.0
 * application properties (rhea). A producer may have written `traceparent` as a string or as bytes (an AMQP
 * binary, a 0-9-1 byte array, or a JMS BytesMessage-minded client): both read the same, as UTF-8 text.
 */
import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

export type HeaderCarrier = Readonly<Record<string, unknown>>;

/** The text of a header value: a string as is, bytes as UTF-8; anything else (a number, a table) is no context. */
export function headerText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  return undefined;
}

export const headerGetter: TextMapGetter<HeaderCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => headerText(carrier[key]),
};

export const headerSetter: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};
