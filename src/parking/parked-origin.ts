/**
 * Where a parked or dead-lettered message came from, and why it is there (docs/operations.md "Parked and
 * dead-lettered messages"). One reading for the three kinds of message the `xroute parked` commands meet:
 * - parked by an xroute receiver: the x-xroute-* headers written by AmqpReceiver when it gave up on a message;
 * - dead-lettered by RabbitMQ: its x-death header (the first entry is the latest death: queue, exchange, keys);
 * - dead-lettered by ActiveMQ (ActiveMQ.DLQ): the original-destination property, and the failure cause.
 */

/** The headers AmqpReceiver stamps on a message it parks (the original headers are kept beside them). */
export const PARKED_HEADERS = {
  id: 'x-xroute-parked-id',
  queue: 'x-xroute-queue',
  exchange: 'x-xroute-exchange',
  routingKey: 'x-xroute-routing-key',
  receiver: 'x-xroute-receiver',
  reason: 'x-xroute-failure',
  attempts: 'x-xroute-attempts',
  parkedAt: 'x-xroute-parked-at',
  /** The delivery mode the message had (1 transient) when the parking copy is persistent; restored by a retry. */
  deliveryMode: 'x-xroute-delivery-mode',
} as const;

/** The parking queue of a receiver that names none: one per receiver, named after it. */
export function defaultParkingQueue(component: string): string {
  return `xroute.parked.${component}`;
}

/** Headers of the parking place (and of a broker's dead-lettering) that a retry does not send home. */
const PARKING_ONLY_HEADERS: readonly string[] = [
  ...Object.values(PARKED_HEADERS),
  'x-death',
  'x-first-death-queue',
  'x-first-death-exchange',
  'x-first-death-reason',
  'x-last-death-queue',
  'x-last-death-exchange',
  'x-last-death-reason',
];

/** ActiveMQ's names for a dead-lettered message's origin and cause, as they arrive over AMQP 1.0. */
export const ACTIVEMQ_ORIGIN_PROPERTIES = ['originalDestination', 'OriginalDestination', 'x-opt-original-destination'] as const;
const ACTIVEMQ_CAUSE_PROPERTY = 'dlqDeliveryFailureCause';

export interface MessageOrigin {
  /** Who put it where it is now: an xroute receiver, RabbitMQ's dead-lettering, ActiveMQ's DLQ, or unknown. */
  readonly by: 'xroute' | 'rabbitmq' | 'activemq' | 'unknown';
  /** The queue it was consumed from (RabbitMQ), or the destination address it was sent to (ActiveMQ). */
  readonly queue?: string;
  readonly exchange?: string;
  readonly routingKeys?: readonly string[];
  readonly receiver?: string;
  readonly reason?: string;
  /** Attempts (xroute) or deaths (x-death count). */
  readonly attempts?: number;
  /** Epoch ms when it was parked or dead-lettered, when known. */
  readonly at?: number;
}

type Headers = Readonly<Record<string, unknown>>;

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return undefined;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/**
 * An AMQP timestamp as epoch ms: amqplib reads one in a header table as {"!": "timestamp", value: seconds}; a plain
 * number below 1e11 is seconds, above it ms (x-xroute-parked-at); a Date is possible from other clients.
 */
function epochMs(v: unknown): number | undefined {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'object' && v !== null && 'value' in v) return epochMs((v as { value: unknown }).value);
  const n = num(v);
  if (n === undefined) return undefined;
  return n < 1e11 ? n * 1000 : n;
}

/** The origin of a message read from a parking place or a dead-letter queue, from its headers/properties. */
export function originOf(headers: Headers | undefined): MessageOrigin {
  const h = headers ?? {};
  const parkedQueue = text(h[PARKED_HEADERS.queue]);
  if (parkedQueue !== undefined) {
    const key = text(h[PARKED_HEADERS.routingKey]);
    return {
      by: 'xroute',
      queue: parkedQueue,
      exchange: text(h[PARKED_HEADERS.exchange]),
      routingKeys: key === undefined ? undefined : [key],
      receiver: text(h[PARKED_HEADERS.receiver]),
      reason: text(h[PARKED_HEADERS.reason]),
      attempts: num(h[PARKED_HEADERS.attempts]),
      at: epochMs(h[PARKED_HEADERS.parkedAt]),
    };
  }
  const deaths = h['x-death'];
  if (Array.isArray(deaths) && deaths.length > 0) {
    const d = deaths[0] as Headers;
    const keys = Array.isArray(d['routing-keys']) ? (d['routing-keys'] as unknown[]).map(text).filter((k): k is string => k !== undefined) : undefined;
    return {
      by: 'rabbitmq',
      queue: text(d.queue),
      exchange: text(d.exchange),
      routingKeys: keys,
      reason: text(d.reason),
      attempts: num(d.count),
      at: epochMs(d.time),
    };
  }
  for (const p of ACTIVEMQ_ORIGIN_PROPERTIES) {
    const dest = text(h[p]);
    if (dest !== undefined) return { by: 'activemq', queue: dest, reason: text(h[ACTIVEMQ_CAUSE_PROPERTY]) };
  }
  return { by: 'unknown', reason: text(h[ACTIVEMQ_CAUSE_PROPERTY]) };
}

/** The headers a retried message is sent home with: its own, without the parking place's bookkeeping. */
export function headersForRetry(headers: Headers | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (!PARKING_ONLY_HEADERS.includes(k)) out[k] = v;
  return out;
}

/** "queue q1 (exchange ex, key k)", for lists and receipts. */
export function describeOrigin(o: MessageOrigin): string {
  if (o.queue === undefined) return '?';
  const parts = [o.exchange ? `exchange ${o.exchange}` : '', o.routingKeys && o.routingKeys.length > 0 ? `key ${o.routingKeys.join(',')}` : ''].filter(
    (p) => p !== '',
  );
  return parts.length > 0 ? `${o.queue} (${parts.join(', ')})` : o.queue;
}
