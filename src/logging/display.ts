/**
 * DisplayMask: which fields of a handled message are logged (docs/operations.md). Written once and used
 * by every component. -1 turns every bit on. Property names come from the component's StringProperty keys.
 */
import { Logger } from './logger';
import { Message } from '../message/message';

const DISPLAY = {
  BODY: 1,
  DATE: 2,
  SIZE: 4,
  DESTINATION: 8,
  MESSAGE_ID: 16,
  CORRELATION_ID: 32,
  PROPERTIES: 64,
  EXPIRATION: 128,
  PRIORITY: 256,
  DELIVERY_MODE: 512,
  DELIVERY_COUNT: 1024,
  TIMESTAMP: 2048,
  TYPE: 4096,
  REPLY_TO: 8192,
  FAMILY: 16384,
  AGE: 32768,
  ONLY_PROPERTIES: 65536,
} as const;

/** Longest body text shown in a log line; longer bodies are cut with a marker. */
const MAX_BODY_IN_LOG = 4096;

/** The fields of `msg` that `mask` selects, as a plain object ready for a structured log line. */
export function displayFields(msg: Message, mask: number, propertyNames: readonly string[] = [], now = Date.now()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (mask === 0) return out;
  const on = (bit: number) => mask === -1 || (mask & bit) !== 0;
  const h = msg.headers;
  if (!on(DISPLAY.ONLY_PROPERTIES) || mask === -1) {
    if (on(DISPLAY.DATE)) out.date = new Date(h.JMSTimestamp ?? now).toISOString();
    if (on(DISPLAY.SIZE)) out.size = msg.bodySize();
    if (on(DISPLAY.DESTINATION) && h.JMSDestination !== undefined) out.destination = h.JMSDestination;
    if (on(DISPLAY.MESSAGE_ID) && h.JMSMessageID !== undefined) out.messageId = h.JMSMessageID;
    if (on(DISPLAY.CORRELATION_ID) && h.JMSCorrelationID !== undefined) out.correlationId = h.JMSCorrelationID;
    if (on(DISPLAY.EXPIRATION) && h.JMSExpiration !== undefined) out.expiration = h.JMSExpiration;
    if (on(DISPLAY.PRIORITY) && h.JMSPriority !== undefined) out.priority = h.JMSPriority;
    if (on(DISPLAY.DELIVERY_MODE) && h.JMSDeliveryMode !== undefined) out.deliveryMode = h.JMSDeliveryMode;
    if (on(DISPLAY.DELIVERY_COUNT) && h.JMSRedelivered !== undefined) out.redelivered = h.JMSRedelivered;
    if (on(DISPLAY.TIMESTAMP) && h.JMSTimestamp !== undefined) out.timestamp = h.JMSTimestamp;
    if (on(DISPLAY.TYPE) && h.JMSType !== undefined) out.type = h.JMSType;
    if (on(DISPLAY.REPLY_TO) && h.JMSReplyTo !== undefined) out.replyTo = h.JMSReplyTo;
    if (on(DISPLAY.AGE) && h.JMSTimestamp !== undefined) out.ageMs = now - h.JMSTimestamp;
    if (on(DISPLAY.BODY)) {
      const text = msg.bodyText();
      out.body = text === undefined ? null : text.length > MAX_BODY_IN_LOG ? `${text.slice(0, MAX_BODY_IN_LOG)}…[${text.length} chars]` : text;
    }
  }
  const names = on(DISPLAY.PROPERTIES) ? [...msg.properties.keys()] : propertyNames;
  if (names.length > 0) {
    const props: Record<string, string> = {};
    for (const n of names) {
      const v = msg.getField(n);
      if (v !== undefined && n !== 'body') props[n] = v;
    }
    out.properties = props;
  }
  return out;
}

/** Logs `msg` at info when `mask` is non-zero (the logger's redaction masks secret-looking properties). */
export function displayMessage(logger: Logger, event: string, msg: Message, mask: number, propertyNames: readonly string[] = []): void {
  if (mask === 0) return;
  logger.info(event, displayFields(msg, mask, propertyNames));
}

/** Parses a DisplayMask configuration value ("0", "22", "-1"); undefined gives 0. */
export function parseDisplayMask(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const n = Number(value.trim());
  return Number.isInteger(n) ? n : 0;
}
