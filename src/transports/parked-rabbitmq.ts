/**
 * A RabbitMQ queue as a parking place: an xroute receiver's ParkingQueue, or any dead-letter queue (origin from
 * x-death). RabbitMQ cannot browse a queue, so every operation reads with basic.get and manual ack, at most the
 * queue's message count when it starts (so a message it puts back is not read again):
 * - list/show hold what they read unacknowledged and close the channel, which puts every message back in its
 *   place; those messages are then flagged redelivered (a consumer sees `redelivered` set), their order is kept.
 * - retry publishes a selected message to its origin queue (default exchange, mandatory) on a confirm channel and
 *   acks the original only once the publish is confirmed and not returned, one window of publishes at a time.
 *   A process killed in between leaves each message parked (unacked: the broker puts it back) or delivered; at
 *   most the messages of one window are both (delivered, and put back because their ack was not sent).
 * - drop acks the selected messages.
 * Messages not selected stay unacknowledged until the end and go back in place with the channel's close.
 */
import type { ChannelModel, ConfirmChannel, GetMessage, Message as AmqpMessage, MessageProperties, Options } from 'amqplib';
import { randomUUID } from 'crypto';
import { PARKED_HEADERS, headersForRetry, originOf } from '../parking/parked-origin';
import {
  DEFAULT_RETRY_WINDOW,
  MAX_EXAMINED,
  ParkedMessage,
  ParkedStore,
  Receipt,
  Pacer,
  ReceiptTally,
  RetryOptions,
  Selection,
  Selector,
  checkSelection,
  digestId,
} from '../parking/parked-store';
import { ParkingPlaceMissingError } from './amqp091-errors';

/** Marks a retry publish so that a return (unroutable) finds its message. */
const RETRY_ID_HEADER = 'x-xroute-retry-id';

function parkedFrom(m: AmqpMessage): ParkedMessage {
  const { headers, ...properties } = m.properties;
  const h = (headers ?? {}) as Record<string, unknown>;
  const given = h[PARKED_HEADERS.id];
  const id =
    typeof given === 'string' ? given : typeof properties.messageId === 'string' && properties.messageId !== '' ? properties.messageId : digestId(m.content, h);
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(properties)) if (v !== undefined) props[k] = v;
  return { id, origin: originOf(h), body: m.content, properties: props, headers: h };
}

/**
 * The publish options that send a message again as it was (dead-lettering, parking, retry): its properties
 * (user-id left out: RabbitMQ refuses one that is not the publisher's login) with `headers`, mandatory.
 */
export function republishOptions(p: MessageProperties, headers: Record<string, unknown>): Options.Publish {
  const options: Options.Publish = {
    contentType: p.contentType,
    contentEncoding: p.contentEncoding,
    deliveryMode: p.deliveryMode,
    priority: p.priority,
    correlationId: p.correlationId,
    replyTo: p.replyTo,
    expiration: p.expiration,
    messageId: p.messageId,
    timestamp: p.timestamp,
    type: p.type,
    appId: p.appId,
    headers,
    mandatory: true,
  };
  for (const k of Object.keys(options) as (keyof Options.Publish)[]) if (options[k] === undefined) delete options[k];
  return options;
}

export class RabbitParkedStore implements ParkedStore {
  readonly place: string;

  private constructor(
    private readonly conn: ChannelModel,
    readonly queue: string,
    where: string,
  ) {
    this.place = `RabbitMQ queue "${queue}" on ${where}`;
  }

  /** `connect` opens the connection (a URL given to the CLI, or a receiver's settings); the queue must exist. */
  static async open(connect: () => Promise<ChannelModel>, queue: string, where: string): Promise<RabbitParkedStore> {
    const conn = await connect();
    conn.on('error', () => undefined); // the operation in progress fails with the reason
    const store = new RabbitParkedStore(conn, queue, where);
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    try {
      await ch.checkQueue(queue);
      await ch.close();
    } catch (e) {
      await conn.close().catch(() => undefined);
      throw new ParkingPlaceMissingError(store.place, e);
    }
    return store;
  }

  /** A channel for one operation, and the queue's message count when it starts. */
  private async channel(): Promise<{ ch: ConfirmChannel; count: number }> {
    const ch = await this.conn.createConfirmChannel();
    ch.on('error', () => undefined);
    const ok = await ch.checkQueue(this.queue);
    return { ch, count: Math.min(ok.messageCount, MAX_EXAMINED) };
  }

  /** Reads up to `max` messages unacknowledged, handing each to `each` until it answers false. */
  private async read(ch: ConfirmChannel, max: number, each: (m: GetMessage) => Promise<boolean> | boolean): Promise<void> {
    for (let i = 0; i < max; i++) {
      const m = await ch.get(this.queue, { noAck: false });
      if (m === false) return;
      if (!(await each(m))) return;
    }
  }

  async list(limit: number): Promise<ParkedMessage[]> {
    const { ch, count } = await this.channel();
    const out: ParkedMessage[] = [];
    try {
      await this.read(ch, Math.min(count, limit), (m) => {
        out.push(parkedFrom(m));
        return true;
      });
    } finally {
      await ch.close().catch(() => undefined); // puts back everything read
    }
    return out;
  }

  async show(id: string): Promise<ParkedMessage | undefined> {
    const { ch, count } = await this.channel();
    let found: ParkedMessage | undefined;
    try {
      await this.read(ch, count, (m) => {
        const p = parkedFrom(m);
        if (p.id === id) found = p;
        return found === undefined;
      });
    } finally {
      await ch.close().catch(() => undefined);
    }
    return found;
  }

  async retry(selection: Selection, options: RetryOptions = {}): Promise<Receipt> {
    checkSelection(selection);
    const selector = new Selector(selection);
    const tally = new ReceiptTally();
    const window = Math.max(1, options.window ?? DEFAULT_RETRY_WINDOW);
    const pacer = new Pacer(options.ratePerSecond);
    const { ch, count } = await this.channel();
    const returned = new Set<string>();
    ch.on('return', (m: AmqpMessage) => {
      const id = m.properties.headers?.[RETRY_ID_HEADER];
      if (typeof id === 'string') returned.add(id);
    });
    let batch: { m: GetMessage; retryId: string; confirmed: Promise<boolean> }[] = [];
    const settle = async () => {
      for (const b of batch) {
        const ok = await b.confirmed;
        if (!ok) tally.leave('refused by the broker, or the channel closed first');
        else if (returned.has(b.retryId)) tally.leave('unroutable (no such queue?)');
        else {
          try {
            ch.ack(b.m);
            tally.delivered++;
          } catch {
            tally.leave('delivered, and still parked: the channel closed before its removal');
          }
        }
      }
      batch = [];
      options.progress?.(tally.receipt(selector));
    };
    try {
      await this.read(ch, count, async (m) => {
        if (tally.stopped(options.signal)) return false; // this message was read: the close puts it back
        tally.examined++;
        const p = parkedFrom(m);
        if (!selector.takes(p.id)) return true;
        tally.selected++;
        const target = options.to ?? p.origin.queue;
        if (target === undefined) {
          tally.leave('origin unknown (give --to)');
          return !selector.satisfied;
        }
        await pacer.next();
        const retryId = randomUUID();
        const confirmed = new Promise<boolean>((resolve) => {
          const headers = m.properties.headers as Record<string, unknown> | undefined;
          const mode = headers?.[PARKED_HEADERS.deliveryMode];
          const properties = typeof mode === 'number' ? { ...m.properties, deliveryMode: mode } : m.properties;
          ch.publish('', target, m.content, republishOptions(properties, { ...headersForRetry(headers), [RETRY_ID_HEADER]: retryId }), (err: unknown) =>
            resolve(!err),
          );
        });
        batch.push({ m, retryId, confirmed });
        if (batch.length >= window) await settle();
        return !selector.satisfied;
      });
      await settle();
      // The acks reach the broker before the channel's close-ok: the messages left are put back only then.
    } catch (e) {
      tally.interrupted ??= `interrupted: ${(e as Error).message}`;
      await settle().catch(() => undefined);
    } finally {
      await ch.close().catch(() => undefined);
    }
    return tally.receipt(selector);
  }

  async drop(selection: Selection, signal?: AbortSignal): Promise<Receipt> {
    checkSelection(selection);
    const selector = new Selector(selection);
    const tally = new ReceiptTally();
    const { ch, count } = await this.channel();
    try {
      await this.read(ch, count, (m) => {
        if (tally.stopped(signal)) return false;
        tally.examined++;
        if (!selector.takes(parkedFrom(m).id)) return true;
        tally.selected++;
        ch.ack(m);
        tally.dropped++;
        return !selector.satisfied;
      });
    } catch (e) {
      tally.interrupted ??= `interrupted: ${(e as Error).message}`;
    } finally {
      await ch.close().catch(() => undefined);
    }
    return tally.receipt(selector);
  }

  async close(): Promise<void> {
    await this.conn.close().catch(() => undefined);
  }
}
