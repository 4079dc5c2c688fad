/**
 * Parking for the JMS receivers over AMQP 1.0 (docs/operations.md "Parked and dead-lettered messages"): with
 * FailedOutcome release or modified and MaxAttempts, a message that failed downstream MaxAttempts times is sent to
 * the receiver's ParkingQueue on the broker (its body, properties and application properties kept, plus its origin
 * and failure as the x-xroute-* properties) and accepted from its source only once the broker accepted that send.
 * Brokers do not count redeliveries reliably over AMQP 1.0 (ActiveMQ leaves delivery-count unset on a
 * redelivery), so the attempts are counted here, per message id, for a bounded number of messages.
 */
import type { Delivery, Message as RheaMessage, Sender } from 'rhea';
import { AmqpMessage } from './amqp10-mapping';
import { randomUUID } from 'crypto';
import { Amqp10Connection } from './amqp10-connection';
import { Dialect } from './amqp10-dialect';
import { PARKED_HEADERS } from '../parking/parked-origin';

export interface Amqp10ParkingSettings {
  /** Attempts in all (the first included) before a message is parked. */
  readonly maxAttempts: number;
  /** The queue parked messages are sent to (the dialect's queue address). */
  readonly queue: string;
}

/** Messages whose attempts are remembered at once; the oldest is forgotten first (it starts again at one). */
const MAX_TRACKED = 10_000;
/** How long a parking send may wait for the broker's answer before the message is released instead. */
const SEND_TIMEOUT_MS = 10_000;

export class Amqp10Parking {
  private readonly attempts = new Map<string, number>();
  private readonly senders = new WeakMap<Amqp10Connection, Promise<Sender>>();

  constructor(
    readonly settings: Amqp10ParkingSettings,
    private readonly receiver: string,
  ) {}

  private static key(m: AmqpMessage): string | undefined {
    return m.message_id === undefined || m.message_id === null ? undefined : String(m.message_id);
  }

  /** Counts a failed attempt of `m`; resolves with the attempts so far (a message without an id: always 1). */
  failed(m: AmqpMessage): number {
    const key = Amqp10Parking.key(m);
    if (key === undefined) return 1;
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.delete(key); // re-inserted last: the map's order is the order of last failure
    if (n < this.settings.maxAttempts) {
      this.attempts.set(key, n);
      if (this.attempts.size > MAX_TRACKED) this.attempts.delete(this.attempts.keys().next().value as string);
    }
    return n;
  }

  succeeded(m: AmqpMessage): void {
    const key = Amqp10Parking.key(m);
    if (key !== undefined) this.attempts.delete(key);
  }

  /** Whether `m` reached MaxAttempts with this failure (and is forgotten then). */
  exhausted(attempts: number): boolean {
    return attempts >= this.settings.maxAttempts;
  }

  private sender(conn: Amqp10Connection, dialect: Dialect): Promise<Sender> {
    let s = this.senders.get(conn);
    if (s === undefined) {
      s = dialect.queueTarget(conn, this.settings.queue).then((plan) => conn.openSender({ target: plan.target as never, autosettle: true }));
      s.catch(() => this.senders.delete(conn));
      this.senders.set(conn, s);
    }
    return s;
  }

  /** Sends `m` to the parking queue; resolves true once the broker accepted it, false when it did not. */
  async park(conn: Amqp10Connection, dialect: Dialect, source: string, m: AmqpMessage, reason: string, attempts: number): Promise<boolean> {
    const sender = await this.sender(conn, dialect);
    const copy = {
      ...m,
      durable: true,
      application_properties: {
        ...(m.application_properties ?? {}),
        [PARKED_HEADERS.id]: randomUUID(),
        [PARKED_HEADERS.queue]: source,
        [PARKED_HEADERS.receiver]: this.receiver,
        [PARKED_HEADERS.reason]: reason,
        [PARKED_HEADERS.attempts]: attempts,
        [PARKED_HEADERS.parkedAt]: Date.now(),
      },
    } as RheaMessage;
    return new Promise<boolean>((resolve) => {
      const delivery = sender.send(copy);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        sender.removeListener('accepted', onAccepted);
        sender.removeListener('rejected', onRefused);
        sender.removeListener('released', onRefused);
        sender.removeListener('modified', onRefused);
        resolve(ok);
      };
      const timer = setTimeout(() => done(false), SEND_TIMEOUT_MS);
      const onAccepted = (ctx: { delivery?: Delivery }) => {
        if (ctx.delivery === delivery) done(true);
      };
      const onRefused = (ctx: { delivery?: Delivery }) => {
        if (ctx.delivery === delivery) done(false);
      };
      sender.on('accepted', onAccepted);
      sender.on('rejected', onRefused);
      sender.on('released', onRefused);
      sender.on('modified', onRefused);
    });
  }
}
