/**
 * The header relay of the RabbitMQ JMS dialect: moves the messages that AMQP 0-9-1 clients published to a
 * subscription's topic from their side queue into the subscription queue, over AMQP 1.0 with their headers as
 * typed application-properties (src/transports/amqp091-to-amqp10.ts). RabbitMQ 3.10's AMQP 1.0 plugin drops
 * 0-9-1 headers on the way to an AMQP 1.0 receiver, and amqplib decodes the plugin's binary
 * `x-amqp-1.0-app-properties` header as (lossy) UTF-8, so neither protocol alone delivers both kinds of
 * publisher with their properties; the dialect splits them (src/transports/amqp10-dialect.ts) and this relay
 * joins them again. docs/jms-migration.md describes the topology.
 *
 * Nothing is lost: a side-queue delivery is acked only after RabbitMQ accepted its copy into the subscription
 * queue (AMQP 1.0 unsettled transfer: RabbitMQ settles it once the queue has it), and the acks of one channel are
 * coalesced by src/transports/ack-tracker.ts. A copy refused by the broker is requeued after a pause. If a
 * connection breaks between the broker's accept and the ack, the broker redelivers the delivery and it is
 * relayed a second time: the one duplicate window of the relay, which a graceful stop closes by waiting for
 * the outstanding accepts before it closes the connections.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Delivery, EventContext, Sender } from 'rhea';
import { AckTracker } from './ack-tracker';
import { Amqp10Connection, Amqp10Endpoint, deliveryRejection } from './amqp10-connection';
import { isFatalAmqp10Error } from './amqp10-errors';
import { amqp10FromAmqp091 } from './amqp091-to-amqp10';
import { flushSettlement, scheduleSettlement } from './amqp091-session';
import { RelayRoute, connectRabbitAmqp091 } from './amqp10-dialect';
import { Reconnector } from '../runtime/reconnector';
import { StatusReporter } from '../runtime/component';
import { Logger } from '../logging/logger';
import { describe } from '../runtime/actor';
import type { ReconnectPolicy, ReconnectTimers } from '../runtime/reconnector';

/** Side-queue deliveries the relay holds at most (its prefetch). */
const RELAY_WINDOW = 200;
/** Pause before a copy the broker refused is requeued (a refusal that persists must not spin). */
const REFUSED_RETRY_MS = 1000;
/** How long a stopping relay waits for the broker to accept the copies it already sent. */
const STOP_DRAIN_MS = 2000;

export interface RelayOptions {
  readonly name: string;
  readonly endpoint: Amqp10Endpoint;
  readonly route: RelayRoute;
  readonly reconnect: ReconnectPolicy;
  /** The component's IdleTimeout (ms; 0 = off): the liveness limit of the AMQP 1.0 side, the heartbeat of the 0-9-1 side. */
  readonly idleTimeoutMs?: number;
  readonly timers: ReconnectTimers;
  readonly guard: <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => void;
  readonly logger: Logger;
  /** Counters `relayed` and `relayRefused` (the component's own status is left to its consumer). */
  readonly status: Pick<StatusReporter, 'count'>;
}

interface RelaySession {
  readonly conn091: ChannelModel;
  readonly ch: Channel;
  readonly conn10: Amqp10Connection;
  readonly sender: Sender;
  readonly acks: AckTracker;
  /** Copies sent and not yet settled by the broker: their side-queue delivery tag. */
  readonly inFlight: Map<Delivery, number>;
  /** Deliveries waiting for link credit. */
  readonly waiting: ConsumeMessage[];
  consumerTag?: string;
  flushScheduled: boolean;
  alive: boolean;
}

export class RabbitHeaderRelay {
  private readonly reconnector: Reconnector<RelaySession>;
  private session: RelaySession | undefined;
  private stopped = false;

  constructor(private readonly o: RelayOptions) {
    this.reconnector = new Reconnector<RelaySession>({
      name: `${o.name} header relay`,
      connect: () => this.connect(),
      onConnected: (s) => this.connected(s),
      discard: (s) => void this.discard(s),
      isFatal: isFatalAmqp10Error,
      backoff: o.reconnect.backoff,
      tolerance: o.reconnect.tolerance,
      maxRetry: o.reconnect.maxRetry,
      logger: o.logger,
      timers: o.timers,
    });
  }

  get route(): RelayRoute {
    return this.o.route;
  }

  start(): void {
    this.reconnector.start();
  }

  /** Stops taking side-queue deliveries, waits (bounded) for the copies on their way, then closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reconnector.stop();
    const s = this.session;
    this.session = undefined;
    if (!s) return;
    if (s.consumerTag !== undefined) await s.ch.cancel(s.consumerTag).catch(() => undefined);
    const deadline = Date.now() + STOP_DRAIN_MS;
    while (s.alive && s.inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    flushSettlement(s, this.ackFailed);
    s.alive = false;
    s.acks.lost();
    await s.conn10.close();
    await s.conn091.close().catch(() => undefined);
  }

  // ------------------------------------------------------------------ connection

  private async connect(): Promise<RelaySession> {
    const idle = this.o.idleTimeoutMs;
    const conn091 = await connectRabbitAmqp091(
      this.o.endpoint,
      `relay from the queue ${this.o.route.from}`,
      idle === undefined ? undefined : Math.ceil(idle / 1000),
    );
    let conn10: Amqp10Connection | undefined;
    try {
      const ch = await conn091.createChannel();
      ch.on('error', () => undefined);
      conn10 = await Amqp10Connection.open({ endpoint: this.o.endpoint, idleTimeoutMs: idle });
      const sender = await conn10.openSender({ target: { address: `/amq/queue/${this.o.route.to}` }, autosettle: true });
      const s: RelaySession = { conn091, ch, conn10, sender, acks: new AckTracker(), inFlight: new Map(), waiting: [], flushScheduled: false, alive: true };
      // Before the first delivery can be relayed: the broker's outcomes must find their listeners.
      sender.on(
        'accepted',
        this.o.guard((c: EventContext) => this.onOutcome(s, c.delivery as Delivery, true)),
      );
      sender.on(
        'released',
        this.o.guard((c: EventContext) => this.onOutcome(s, c.delivery as Delivery, false)),
      );
      sender.on(
        'rejected',
        this.o.guard((c: EventContext) => this.onOutcome(s, c.delivery as Delivery, false)),
      );
      sender.on(
        'sendable',
        this.o.guard(() => this.sendWaiting(s)),
      );
      await ch.prefetch(RELAY_WINDOW);
      // Consumes even when stopped meanwhile (discard closes it then): a non-durable side queue is auto-deleted only once it had a consumer.
      const ok = await ch.consume(
        this.o.route.from,
        this.o.guard((m: ConsumeMessage | null) => this.onDelivery(s, m)),
        { noAck: false },
      );
      s.consumerTag = ok.consumerTag;
      return s;
    } catch (e) {
      await conn10?.close(500);
      await conn091.close().catch(() => undefined);
      throw e;
    }
  }

  private connected(s: RelaySession): void {
    this.session = s;
    this.o.logger.info('header relay running', { component: this.o.name, from: this.o.route.from, to: this.o.route.to });
    s.conn10.onLost((err) => this.o.guard(() => this.lost(s, err))());
    s.conn091.on(
      'close',
      this.o.guard((err?: Error) => this.lost(s, err ?? new Error('AMQP 0-9-1 connection closed'))),
    );
    s.ch.on(
      'close',
      this.o.guard(() => this.lost(s, new Error('AMQP 0-9-1 channel closed'))),
    );
    this.sendWaiting(s);
  }

  /** Either connection broke: what was not acked comes back from the side queue on the next session. */
  private lost(s: RelaySession, err: Error): void {
    if (!s.alive) return;
    s.alive = false;
    s.acks.lost();
    if (this.session === s) this.session = undefined;
    void this.discard(s);
    if (!this.stopped) this.reconnector.lost(err, s);
  }

  private async discard(s: RelaySession): Promise<void> {
    s.alive = false;
    await s.conn10.close(500);
    await s.conn091.close().catch(() => undefined);
  }

  // ------------------------------------------------------------------ relaying

  private onDelivery(s: RelaySession, m: ConsumeMessage | null): void {
    if (m === null) {
      this.lost(s, new Error(`the broker cancelled the relay's consumer of ${this.o.route.from}`));
      return;
    }
    if (!s.alive || this.stopped) return; // not taken: back to the side queue when the connection closes
    s.acks.delivered(m.fields.deliveryTag);
    s.waiting.push(m);
    this.sendWaiting(s);
  }

  private sendWaiting(s: RelaySession): void {
    while (s.alive && s.waiting.length > 0 && s.sender.sendable()) {
      const m = s.waiting.shift() as ConsumeMessage;
      const delivery = s.sender.send(amqp10FromAmqp091(m) as never);
      s.inFlight.set(delivery, m.fields.deliveryTag);
    }
  }

  private onOutcome(s: RelaySession, delivery: Delivery, accepted: boolean): void {
    const tag = s.inFlight.get(delivery);
    if (tag === undefined) return;
    s.inFlight.delete(delivery);
    if (accepted) {
      this.o.status.count('relayed');
      if (s.acks.done(tag)) this.scheduleFlush(s);
      return;
    }
    this.o.status.count('relayRefused');
    const error = deliveryRejection(delivery);
    this.o.logger.warn('the broker refused a relayed message; it is requeued on its side queue', {
      component: this.o.name,
      queue: this.o.route.to,
      condition: error?.condition,
      reason: error?.description,
      retryInMs: REFUSED_RETRY_MS,
    });
    this.o.timers.setTimeout(
      this.o.guard(() => {
        if (s.acks.failed(tag, true)) this.scheduleFlush(s);
      }),
      REFUSED_RETRY_MS,
    );
  }

  private scheduleFlush(s: RelaySession): void {
    scheduleSettlement(s, this.ackFailed);
  }

  private readonly ackFailed = (e: unknown): void => {
    this.o.logger.warn('header relay could not ack (its channel is gone; the broker redelivers to the relay)', { component: this.o.name, error: describe(e) });
  };
}
