/**
 * AmqpReceiver (the original's RMQReceiver), operation `get`: consumes a RabbitMQ queue into its output
 * XQueue (components.md §8, with the R: recommendations).
 *
 * Flow control: the channel's prefetch is the output credit (partition length, else capacity), so the
 * broker never has more unacknowledged deliveries out than the XQueue can hold; deliveries that arrive
 * while no cell is free wait in a local list that the prefetch bounds.
 * Ack: XAMode bit 1 (default) acks a delivery when the downstream consumer removes its message from the
 * XQueue (onDone 'done'); a removal with outcome 'failed' is nacked per FailurePolicy. XAMode 0 acks as
 * soon as the message is in the XQueue.
 * Reconnection (src/runtime/reconnector.ts): a lost connection or channel starts an outage (logged once);
 * acks for deliveries of a dead channel are never attempted (the broker redelivers those, flagged
 * JMSRedelivered), and messages of the dead channel that no consumer has taken yet are taken back out of
 * the XQueue, since they will come again. Configuration errors (wrong password, passive check of a missing
 * exchange/queue, inequivalent declare) make the status FAILED with the reason; outages keep RETRYING.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import { ActorContext, Behaviour, StopReason } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { amqpReconnector } from '../support/amqp091-config';
import { displayMessage } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { Outcome, XQueue } from '../../src/xqueue/xqueue';
import { XQueueStoppedError } from '../../src/xqueue/errors';
import { messageFromAmqp } from '../../src/transports/amqp091-mapping';
import { amqpStep, settleWithin } from '../../src/transports/amqp091-connection';
import { AmqpSessionBase, openAmqpSession } from '../../src/transports/amqp091-session';
import { declareSource } from '../../src/transports/amqp091-topology';
import { ComponentConfigError, reportConfigurationError } from '../support/config-values';
import { AMQP_RECEIVER_SCHEMA, AmqpReceiverSettings, readReceiverSettings } from './amqp-receiver-settings';

interface Session extends AmqpSessionBase {
  readonly id: number;
  readonly ch: Channel;
  queue: string;
  consumerTag?: string;
  /** Ack coalescing: the lowest delivery tag not yet acked or nacked (tags count up from 1 per channel). */
  nextTag: number;
  /** Settled tags >= nextTag (acked or nacked, out of order). */
  readonly settled: Set<number>;
  /** Tags done since the last flush, to be acked. */
  ackQueue: number[];
  flushScheduled: boolean;
}

interface Delivery {
  readonly session: Session;
  readonly m: ConsumeMessage;
}

/** The broker cancelled our consumer (e.g. the queue was deleted). */
export class ConsumerCancelledError extends Error {
  constructor(
    readonly component: string,
    readonly queue: string,
  ) {
    super(`${component}: the broker cancelled the consumer of queue "${queue}" (queue deleted?)`);
    this.name = 'ConsumerCancelledError';
  }
}

/** How long a stopping receiver waits for downstream to finish messages it already handed over. */
const STOP_DRAIN_MS = 2000;
const CLOSE_TIMEOUT_MS = 2000;

export class AmqpReceiver implements Behaviour<never> {
  private s!: AmqpReceiverSettings;
  private ctx!: ActorContext<never>;
  private output!: XQueue<Message>;
  private reconnector?: Reconnector<Session>;
  private session?: Session;
  private sessionIds = 0;
  private pending: Delivery[] = [];
  private pendingHead = 0;
  private waitingForCell = false;
  /** XAMode 1: the unacknowledged delivery held by each output cell this receiver filled. */
  private byCell: (Delivery | undefined)[] = [];
  private outstanding = 0;
  private readonly abort = new AbortController();
  private stopping = false;
  private deliveredSinceIdleCheck = false;

  constructor(private readonly env: ComponentEnv) {}

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const env = this.env;
    try {
      if (!env.output) throw new ComponentConfigError(env.name, 'LinkName', undefined, 'an output XQueue (the receiver has none)');
      this.output = env.output;
      this.s = readReceiverSettings(env.name, env.config, env.baseDir, env.output.capacity);
    } catch (e) {
      reportConfigurationError(env, e);
      return;
    }
    this.byCell = new Array<Delivery | undefined>(this.output.capacity).fill(undefined);
    if (!this.s.daemon) ctx.setInterval(() => this.checkIdle(), this.s.receiveTimeMs);
    this.reconnector = amqpReconnector<Session>(ctx, env, this.s.reconnect, () => this.open(), (session, attempts) => this.connected(session, attempts));
    this.reconnector.start();
  }

  async stop(_ctx: ActorContext<never>, reason: StopReason): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.reconnector?.stop();
    const session = this.session;
    this.session = undefined;
    if (session?.alive) {
      if (reason === 'stop' && session.consumerTag) await settleWithin(session.ch.cancel(session.consumerTag), CLOSE_TIMEOUT_MS);
      this.takeBackUntaken(session);
      if (reason === 'stop') await this.drainOutstanding(session, STOP_DRAIN_MS);
      session.alive = false;
      await settleWithin(session.conn.close(), CLOSE_TIMEOUT_MS);
    }
    if (this.env.status.status !== 'FAILED' && this.env.status.status !== 'STOPPED') this.env.status.set('STOPPED');
  }

  // ------------------------------------------------------------------ connection

  private open(): Promise<Session> {
    const { connection, topology, prefetch } = this.s;
    const name = this.env.name;
    return openAmqpSession<Channel, Session>({
      component: name,
      connection,
      confirm: false,
      create: (conn, ch) => ({ id: ++this.sessionIds, conn, ch, queue: topology.queue, alive: true, nextTag: 1, settled: new Set(), ackQueue: [], flushScheduled: false }),
      onLost: this.ctx.guard((s: Session, e: unknown) => this.lost(s, e)),
      setup: async (s, ch) => {
        s.queue = await declareSource(name, ch, topology);
        await amqpStep(name, `prefetch ${prefetch}`, () => ch.prefetch(prefetch));
        const ok = await amqpStep(name, `consume from queue "${s.queue}"`, () =>
          ch.consume(s.queue, this.ctx.guard((m: ConsumeMessage | null) => this.onDelivery(s, m)), { noAck: false }),
        );
        s.consumerTag = ok.consumerTag;
      },
    });
  }

  private connected(session: Session, attempts: number): void {
    if (!session.alive || this.stopping) {
      this.reconnector?.lost(session.lostError ?? new Error('connection lost'), session);
      return;
    }
    this.session = session;
    this.deliveredSinceIdleCheck = true;
    this.env.status.count('connects');
    this.env.logger.info('consuming', { component: this.env.name, queue: session.queue, prefetch: this.s.prefetch, clientAck: this.s.clientAck, attempts });
  }

  /** The connection or channel of `session` is gone: nothing of it can be acked any more. */
  private lost(session: Session, error: unknown): void {
    if (!session.alive) return;
    session.alive = false;
    session.lostError = error;
    this.takeBackUntaken(session);
    this.compactPending();
    void session.conn.close().catch(() => undefined);
    if (this.session === session) this.session = undefined;
    this.reconnector?.lost(error, session);
  }

  /** XAMode 1: messages of `session` still waiting in the XQueue will be redelivered, so withdraw them. */
  private takeBackUntaken(session: Session): void {
    if (!this.s.clientAck) return;
    for (let cell = 0; cell < this.byCell.length; cell++) {
      const d = this.byCell[cell];
      if (d?.session === session && this.output.takeback(cell) !== undefined) {
        this.byCell[cell] = undefined;
        this.outstanding--;
        this.env.status.count('takenBack');
      }
    }
  }

  /** Waits (bounded) until downstream has removed the messages of `session` it already took, so they are acked. */
  private async drainOutstanding(session: Session, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const mine = () => this.byCell.some((d) => d?.session === session);
    while (mine() && Date.now() < deadline && this.output.stats().consumers > 0) await new Promise((r) => setTimeout(r, 10));
  }

  // ------------------------------------------------------------------ deliveries

  private onDelivery(session: Session, m: ConsumeMessage | null): void {
    if (m === null) {
      this.lost(session, new ConsumerCancelledError(this.env.name, session.queue));
      return;
    }
    if (!session.alive) return;
    this.env.status.count('received');
    this.deliveredSinceIdleCheck = true;
    this.pending.push({ session, m });
    this.pump();
  }

  /** Moves waiting deliveries into free output cells, in order; waits for a cell when none is free. */
  private pump(): void {
    if (this.waitingForCell || this.stopping) return;
    const out = this.output;
    const partition = this.s.partition;
    while (this.pendingHead < this.pending.length) {
      const d = this.pending[this.pendingHead];
      if (!d.session.alive) {
        this.pendingHead++;
        continue;
      }
      let cell: number;
      try {
        cell = out.tryReserve(partition);
      } catch (e) {
        this.outputStopped(e);
        return;
      }
      if (cell < 0) {
        this.waitForCell();
        return;
      }
      this.pendingHead++;
      this.enqueue(cell, d);
    }
    this.pending.length = 0;
    this.pendingHead = 0;
  }

  private waitForCell(): void {
    this.waitingForCell = true;
    this.output.reserve({ partition: this.s.partition, signal: this.abort.signal }).then(
      (cell) => {
        this.waitingForCell = false;
        try {
          while (this.pendingHead < this.pending.length && !this.pending[this.pendingHead].session.alive) this.pendingHead++;
          if (this.stopping || this.pendingHead >= this.pending.length) {
            this.output.cancel(cell);
            return;
          }
          this.enqueue(cell, this.pending[this.pendingHead++]);
          this.pump();
        } catch (e) {
          this.ctx.fail(e);
        }
      },
      (e: unknown) => {
        this.waitingForCell = false;
        if (e instanceof XQueueStoppedError) this.outputStopped(e);
      },
    );
  }

  private enqueue(cell: number, d: Delivery): void {
    const s = this.s;
    let msg: Message;
    try {
      msg = this.convert(d);
    } catch (e) {
      this.output.cancel(cell);
      this.env.logger.error('cannot convert a delivery; nacking it', { component: this.env.name, policy: s.failurePolicy, error: (e as Error).message });
      this.nack(d);
      return;
    }
    if (s.displayMask !== 0) displayMessage(this.env.logger, 'received', msg, s.displayMask, s.displayProperties);
    if (s.clientAck) {
      this.byCell[cell] = d;
      this.outstanding++;
      this.output.add(cell, msg, this.onDone, this.env.status.totals);
    } else {
      this.output.add(cell, msg, this.onDoneAcked, this.env.status.totals);
      this.ack(d);
    }
  }

  private convert(d: Delivery): Message {
    const s = this.s;
    const msg = messageFromAmqp(d.m, { text: s.textMode, queue: d.session.queue });
    s.stamp(msg);
    if (s.priority !== undefined) msg.headers.JMSPriority = s.priority;
    if (s.persistence !== undefined) msg.headers.JMSDeliveryMode = s.persistence;
    // Spec: Expiry is added to the message's expiration (the original added it to the timestamp).
    // A message that never expires (no expiration) keeps never expiring.
    if (s.expiryMs !== undefined && msg.headers.JMSExpiration !== undefined && msg.headers.JMSExpiration > 0) msg.headers.JMSExpiration += s.expiryMs;
    return msg;
  }

  /** XAMode 1: downstream removed the message of `cell`. */
  private readonly onDone = (msg: Message, outcome: Outcome, cell: number): void => {
    const d = this.byCell[cell];
    if (d === undefined) return;
    this.byCell[cell] = undefined;
    this.outstanding--;
    if (outcome === 'done') this.ack(d);
    else {
      this.env.logger.warn('downstream failed a message; nacking it', { component: this.env.name, policy: this.s.failurePolicy, messageId: msg.headers.JMSMessageID });
      this.nack(d);
    }
  };

  /** XAMode 0: the message was acked when it entered the XQueue; a failure can only be reported. */
  private readonly onDoneAcked = (msg: Message, outcome: Outcome): void => {
    if (outcome === 'failed') {
      this.env.status.count('failedAfterAck');
      this.env.logger.error('downstream failed a message that was already acknowledged (XAMode 0)', { component: this.env.name, messageId: msg.headers.JMSMessageID });
    }
  };

  /**
   * Acks are coalesced per turn of the event loop: the contiguous run of settled tags goes out as one
   * multiple-ack, later done tags (behind a message still being processed) are acked one by one, so the
   * prefetch window never waits for a slow message's neighbours.
   */
  private ack(d: Delivery): void {
    const session = d.session;
    if (!session.alive) {
      this.env.status.count('ackSkipped');
      return;
    }
    const tag = d.m.fields.deliveryTag;
    session.settled.add(tag);
    session.ackQueue.push(tag);
    if (!session.flushScheduled) {
      session.flushScheduled = true;
      queueMicrotask(() => this.flushAcks(session));
    }
  }

  private flushAcks(session: Session): void {
    session.flushScheduled = false;
    const tags = session.ackQueue;
    session.ackQueue = [];
    if (!session.alive) {
      this.env.status.count('ackSkipped', tags.length);
      return;
    }
    while (session.settled.delete(session.nextTag)) session.nextTag++;
    const upTo = session.nextTag - 1;
    try {
      let multiple = false;
      for (const t of tags) {
        if (t <= upTo) multiple = true;
        else session.ch.ack(tagOnly(t), false);
      }
      if (multiple) session.ch.ack(tagOnly(upTo), true);
      this.env.status.count('acked', tags.length);
    } catch {
      this.env.status.count('ackSkipped', tags.length); // the channel died under us: the broker redelivers them
    }
  }

  private nack(d: Delivery): void {
    const policy = this.s.failurePolicy;
    const requeue = policy === 'requeue' || (policy === 'requeue-once' && !d.m.fields.redelivered);
    if (!d.session.alive) {
      this.env.status.count('ackSkipped');
      return;
    }
    d.session.settled.add(d.m.fields.deliveryTag);
    try {
      d.session.ch.nack(d.m, false, requeue);
      this.env.status.count(requeue ? 'requeued' : 'deadLettered');
      if (!requeue) {
        this.env.logger.error('message rejected without requeue: dead-lettered if the queue has a dead-letter exchange, otherwise dropped by the broker', {
          component: this.env.name,
          queue: d.session.queue,
          messageId: d.m.properties.messageId,
        });
      }
    } catch {
      this.env.status.count('ackSkipped');
    }
  }

  private compactPending(): void {
    this.pending = this.pending.slice(this.pendingHead).filter((d) => d.session.alive);
    this.pendingHead = 0;
  }

  private outputStopped(e: unknown): void {
    if (this.stopping) return;
    this.env.logger.info('output queue stopped; deliveries not yet handed over will be redelivered', { component: this.env.name, queue: this.output.name, error: (e as Error).message });
  }

  // ------------------------------------------------------------------ non-daemon mode

  /** Mode non-daemon: once the queue gave nothing for ReceiveTime and everything handed over is done, stop. */
  private checkIdle(): void {
    const session = this.session;
    if (this.stopping || !session?.alive) return;
    if (this.deliveredSinceIdleCheck) {
      this.deliveredSinceIdleCheck = false;
      return;
    }
    if (this.pendingHead < this.pending.length || this.outstanding > 0) return;
    this.env.logger.info('queue idle; stopping (Mode non-daemon)', { component: this.env.name, queue: session.queue, idleMs: this.s.receiveTimeMs });
    this.env.status.set('STOPPED', `queue "${session.queue}" idle for ${this.s.receiveTimeMs} ms (Mode non-daemon)`);
    this.ctx.stopSelf();
  }
}

/** What amqplib's ack needs of a message: its delivery tag. */
function tagOnly(deliveryTag: number): ConsumeMessage {
  return { fields: { deliveryTag } } as ConsumeMessage;
}

export const AMQP_RECEIVER: ComponentDefinition<never> = {
  className: 'receiver.AmqpReceiver',
  aliases: ['receiver.RMQReceiver'],
  role: 'receiver',
  operations: ['get'],
  description: 'Consumes a RabbitMQ (AMQP 0-9-1) queue into its output XQueue, with prefetch tied to the output capacity and ack after downstream work (XAMode 1).',
  schema: AMQP_RECEIVER_SCHEMA,
  validate(config, baseDir) {
    try {
      readReceiverSettings(typeof config.Name === 'string' ? config.Name : 'AmqpReceiver', config, baseDir, 1 << 30);
      return [];
    } catch (e) {
      const property = e instanceof ComponentConfigError ? e.property : ((e as { key?: string }).key ?? '');
      return [{ property, message: (e as Error).message, severity: 'error' }];
    }
  },
  create: (env) => new AmqpReceiver(env),
};
