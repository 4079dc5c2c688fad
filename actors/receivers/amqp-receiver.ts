/**
 * AmqpReceiver (the original's RMQReceiver), operation `get`: consumes a RabbitMQ queue into its output
 * XQueue (docs/components/amqp.md).
 *
 * Flow control: the channel's prefetch is the output credit (partition length, else capacity), so the
 * broker never has more unacknowledged deliveries out than the XQueue can hold; deliveries that arrive
 * while no cell is free wait in a local list that the prefetch bounds.
 * Ack: XAMode bit 1 (default) acks a delivery when the downstream consumer removes its message from the
 * XQueue (onDone 'done'). XAMode 0 acks as soon as the message is in the XQueue. Which frames settle the
 * deliveries of a channel, whatever order they finish in, is decided by src/transports/ack-tracker.ts.
 * Failure (removal with outcome 'failed'): per FailurePolicy, the delivery is held (unacked) and handed
 * downstream again after the RedeliveryDelay back-off, up to MaxAttempts; a message given up on is
 * published (confirmed) to DeadLetterExchange, or else to its ParkingQueue on the broker with its origin and
 * failure (docs/operations.md "Parked and dead-lettered messages"), and acked only then; or nacked without
 * requeue (dead-letter, requeue-once) - never dropped by xroute. Repeated failures are logged rate-limited.
 * Counting: in/done/failed count messages (failed = given up), the counter `attempts` counts every hand-over
 * downstream and `failedAttempts` every failed one.
 * Reconnection (src/runtime/reconnector.ts): a lost connection or channel starts an outage (logged once);
 * acks for deliveries of a dead channel are never attempted (the broker redelivers those, flagged
 * JMSRedelivered), and messages of the dead channel that no consumer has taken yet are taken back out of
 * the XQueue, since they will come again. Configuration errors (wrong password, passive check of a missing
 * exchange/queue, inequivalent declare) make the status FAILED with the reason; outages keep RETRYING.
 * Stop (docs/operations.md#stopping): drain() cancels the consumer and keeps the channel until downstream has
 * finished what it took, or the deadline; stop() then closes the channel (its close-ok follows the acks) and the
 * connection.
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import type { Channel, ConfirmChannel, ConsumeMessage, Message as AmqpMessage } from 'amqplib';
import { ActorContext, Behaviour, StopReason } from '../../src/runtime/actor';
import { DrainReport, DrainRequest, SWAP_POLL_MS, untilDoneOrDeadline } from '../../src/runtime/drain';
import { REDELIVERED_COUNTER } from '../../src/runtime/reload-receipt';
import { ComponentDefinition, ComponentEnv, outputOf, StatusCounter } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { amqpReconnector, reportSessionLost } from '../support/amqp091-config';
import { AckTracker } from '../../src/transports/ack-tracker';
import { Backoff } from '../../src/foundation/backoff';
import { FailureSummary } from '../../src/logging/failure-summary';
import { displayMessage } from '../../src/logging/display';
import { debugEnabled } from '../../src/logging/logger';
import { Message } from '../../src/message/message';
import { Outcome, XQueue } from '../../src/xqueue/xqueue';
import { XQueueStoppedError } from '../../src/xqueue/errors';
import { messageFromAmqp } from '../../src/transports/amqp091-mapping';
import { amqpStep, describeAddress, openAmqpConnection, settleWithin } from '../../src/transports/amqp091-connection';
import { RabbitParkedStore, republishOptions } from '../../src/transports/parked-rabbitmq';
import { traceDelivery, traceSettled, tracingActive } from '../../src/tracing/message-trace';
import { AmqpSessionBase, flushSettlement, openAmqpSession, scheduleSettlement } from '../../src/transports/amqp091-session';
import { checkExchange, declareSource } from '../../src/transports/amqp091-topology';
import { PARKED_HEADERS } from '../../src/parking/parked-origin';
import { randomUUID } from 'crypto';
import { AMQP_RECEIVER_SCHEMA, AmqpReceiverSettings, readReceiverSettings } from './amqp-receiver-settings';
import { isBrokerNack } from '../../src/transports/amqp091-errors';

interface Session extends AmqpSessionBase {
  readonly id: number;
  /** A confirm channel when a DeadLetterExchange or ParkingQueue is used (those publishes are confirmed). */
  readonly ch: Channel | ConfirmChannel;
  queue: string;
  consumerTag?: string;
  /** Which ack/nack frames settle this channel's deliveries (coalesced once per event-loop turn). */
  readonly acks: AckTracker;
  flushScheduled: boolean;
  /** Dead-letter and parking publishes awaiting their confirm, by the id in their x-xroute-parked-id header. */
  readonly deadLetters: Map<string, { returned: boolean }>;
}

interface Delivery {
  readonly session: Session;
  readonly m: ConsumeMessage;
  /** Attempts downstream that failed so far. */
  failures: number;
  /** Delays between this message's attempts; created at its first failure. */
  backoff?: Backoff;
  /** Counted in (status totals) at its first hand-over; given back to the broker, it is counted again when redelivered. */
  counted?: boolean;
}

/** Where a message given up on is published before its original is acked. */
interface GiveUpTarget {
  readonly exchange: string;
  readonly routingKey: string;
  /** The counter (and log word) of a confirmed publish. */
  readonly counter: 'deadLettered' | 'parked';
  /** For the logs: "dead-letter exchange x", "parking queue y". */
  readonly label: string;
}

/** How often the receiver reads how many messages are still in its parking queue (the status's `parked`). */
const PARKED_COUNT_MS = 2000;

/** The broker cancelled our consumer (e.g. the queue was deleted). */
class ConsumerCancelledError extends XrouteError {
  constructor(
    readonly component: string,
    readonly queue: string,
  ) {
    super(`${component}: the broker cancelled the consumer of queue "${queue}" (queue deleted?)`);
    this.name = 'ConsumerCancelledError';
  }
}

/** How long a receiver stopped without a drain (a restart, a non-daemon end) waits for downstream to finish messages it already handed over. */
const STOP_DRAIN_MS = 2000;
const CLOSE_TIMEOUT_MS = 2000;

class AmqpReceiver implements Behaviour<never> {
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
  /** drain() ran: stop() has nothing more to wait for. */
  private drained = false;
  private deliveredSinceIdleCheck = false;
  /** Failed deliveries waiting for their next attempt (held unacked). */
  private waitingRetry = 0;
  private failures!: FailureSummary;
  /** Debug lines (ack and nack sent, retry scheduled) are built only when the log writes them. */
  private debug = false;
  /** The status counters counted per message, held (an increment each, no look-up by name). */
  private readonly received: StatusCounter;
  private readonly attempts: StatusCounter;
  private readonly acked: StatusCounter;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: AmqpReceiverSettings,
  ) {
    this.received = env.status.counter('received');
    this.attempts = env.status.counter('attempts');
    this.acked = env.status.counter('acked');
  }

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const env = this.env;
    this.debug = debugEnabled(env.logger);
    this.output = outputOf(env);
    this.byCell = new Array<Delivery | undefined>(this.output.capacity).fill(undefined);
    this.failures = new FailureSummary(env.logger, env.name, 'messages failed', { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms) });
    if (!this.s.daemon) ctx.setInterval(() => this.checkIdle(), this.s.receiveTimeMs);
    const parking = this.s.redelivery.parkingQueue;
    if (parking !== undefined) {
      const connection = this.s.connection;
      env.status.provideParking(() => RabbitParkedStore.open(() => openAmqpConnection(connection, () => undefined), parking, describeAddress(connection)));
      ctx.setInterval(() => this.countParked(), PARKED_COUNT_MS);
    }
    this.reconnector = amqpReconnector<Session>(
      ctx,
      env,
      this.s.reconnect,
      () => this.open(),
      (session, attempts) => this.connected(session, attempts),
      (session) => this.discard(session),
    );
    this.reconnector.start();
  }

  /**
   * Drain before a stop (docs/operations.md#stopping): cancels the consumer but keeps the connection until
   * downstream has finished what it took (acknowledged as usual) or the deadline passes; deliveries no consumer
   * has taken are given back at once (nack with requeue), the unfinished ones when stop() closes the connection.
   */
  async drain(_ctx: ActorContext<never>, request: DrainRequest): Promise<DrainReport> {
    const ackedBefore = this.ackedCount();
    if (request.forReplace === true) await this.handDownstream(request.deadline);
    this.stopping = true;
    this.reconnector?.stop();
    const session = this.session;
    if (session === undefined || !session.alive) return { acknowledged: this.ackedCount() - ackedBefore, returned: 0 };
    if (session.consumerTag !== undefined) {
      await settleWithin(session.ch.cancel(session.consumerTag), CLOSE_TIMEOUT_MS);
      session.consumerTag = undefined;
    }
    let returned = 0;
    const finished = () => !session.alive || !this.holdsTaken(session) || this.output.stats().consumers === 0;
    await untilDoneOrDeadline(request.deadline, finished, () => (returned += this.giveBack(session)));
    this.drained = true;
    if (session.alive) flushSettlement(session, this.ackSkipped);
    returned += this.byCell.filter((d) => d?.session === session).length + this.waitingRetry;
    return { acknowledged: this.ackedCount() - ackedBefore, returned };
  }

  /**
   * A reload replaces this receiver (docs/operations.md#changing-a-running-flow): it takes no new delivery, but what
   * it received already still goes downstream (the link stays) and is acknowledged once done, so the broker has
   * nothing to redeliver to its successor. Until the deadline; what is left then is given back as on a stop.
   */
  private async handDownstream(deadline: number): Promise<void> {
    this.reconnector?.stop();
    const session = this.session;
    if (session === undefined || !session.alive) return;
    if (session.consumerTag !== undefined) {
      await settleWithin(session.ch.cancel(session.consumerTag), CLOSE_TIMEOUT_MS);
      session.consumerTag = undefined;
    }
    const handedAll = () => this.pendingHead >= this.pending.length && !this.holdsTaken(session);
    await untilDoneOrDeadline(deadline, () => !session.alive || handedAll() || this.output.stats().consumers === 0, undefined, SWAP_POLL_MS);
  }

  private ackedCount(): number {
    return this.env.status.get().counters.acked ?? 0;
  }

  /** Downstream holds (has taken) a delivery of `session` that is not finished yet. */
  private holdsTaken(session: Session): boolean {
    return this.byCell.some((d) => d?.session === session);
  }

  /** Draining: deliveries of `session` that no consumer has taken go back to the broker now (nack, requeue). */
  private giveBack(session: Session): number {
    let n = 0;
    const nack = (d: Delivery) => {
      if (session.alive && session.acks.failed(d.m.fields.deliveryTag, true)) n++;
    };
    for (let i = this.pendingHead; i < this.pending.length; i++) {
      if (this.pending[i].session !== session) continue;
      this.uncount(this.pending[i]);
      nack(this.pending[i]);
    }
    this.pending = this.pending.filter((d, i) => i < this.pendingHead || d.session !== session);
    this.withdrawUntaken(session, nack);
    if (n > 0) {
      this.env.status.count('returned', n);
      this.scheduleFlush(session);
    }
    return n;
  }

  async stop(_ctx: ActorContext<never>, reason: StopReason): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.failures?.flush();
    this.reconnector?.stop();
    const session = this.session;
    this.session = undefined;
    if (session?.alive) {
      if (reason === 'stop' && session.consumerTag) await settleWithin(session.ch.cancel(session.consumerTag), CLOSE_TIMEOUT_MS);
      this.takeBackUntaken(session);
      if (reason === 'stop' && !this.drained) await this.drainOutstanding(session, STOP_DRAIN_MS);
      // After a drain, the channel is closed first: its close-ok comes only once the broker has handled the acks
      // sent before it (closing the connection alone lost the last ack in about 1 run of 3).
      if (this.drained) {
        flushSettlement(session, this.ackSkipped);
        await settleWithin(session.ch.close(), CLOSE_TIMEOUT_MS);
      }
      session.alive = false;
      await settleWithin(session.conn.close(), CLOSE_TIMEOUT_MS);
    }
    if (this.env.status.status !== 'FAILED' && this.env.status.status !== 'STOPPED') this.env.status.set('STOPPED');
  }

  // ------------------------------------------------------------------ connection

  private open(): Promise<Session> {
    const { connection, topology, prefetch, redelivery } = this.s;
    const name = this.env.name;
    const dlx = redelivery.deadLetterExchange;
    const parking = redelivery.parkingQueue;
    return openAmqpSession<Channel, Session>({
      component: name,
      connection,
      confirm: dlx !== undefined || parking !== undefined,
      create: (conn, ch) => ({
        id: ++this.sessionIds,
        conn,
        ch,
        queue: topology.queue,
        alive: true,
        acks: new AckTracker(),
        flushScheduled: false,
        deadLetters: new Map(),
      }),
      onLost: this.ctx.guard((s: Session, e: unknown) => this.lost(s, e)),
      setup: async (s, ch) => {
        if (dlx !== undefined) await checkExchange(name, ch, dlx, 'DeadLetterExchange');
        if (parking !== undefined) {
          const ok = await amqpStep(
            name,
            `declare of parking queue "${parking}" (ParkingQueue)`,
            () => ch.assertQueue(parking, { durable: true, autoDelete: false, exclusive: false }),
            'it exists with other attributes; name another ParkingQueue or delete it once empty',
          );
          this.env.status.setParked(ok.messageCount);
        }
        if (dlx !== undefined || parking !== undefined)
          ch.on(
            'return',
            this.ctx.guard((m: AmqpMessage) => this.onGivenUpReturned(s, m)),
          );
        s.queue = await declareSource(name, ch, topology);
        await amqpStep(name, `prefetch ${prefetch}`, () => ch.prefetch(prefetch));
        const ok = await amqpStep(name, `consume from queue "${s.queue}"`, () =>
          ch.consume(
            s.queue,
            this.ctx.guard((m: ConsumeMessage | null) => this.onDelivery(s, m)),
            { noAck: false },
          ),
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

  /** A session that came up after the stop began: its consumer's deliveries go back to the broker with it. */
  private discard(session: Session): void {
    session.alive = false;
    void session.conn.close().catch(() => undefined);
  }

  /** The connection or channel of `session` is gone: nothing of it can be acked any more. */
  private lost(session: Session, error: unknown): void {
    if (!session.alive) return;
    session.alive = false;
    session.lostError = error;
    const unsettled = session.acks.unsettledCount;
    this.env.status.count('ackSkipped', session.acks.lost());
    this.takeBackUntaken(session);
    this.compactPending();
    void session.conn.close().catch(() => undefined);
    const wasRunning = this.session === session;
    if (wasRunning) this.session = undefined;
    // A session that dies during its set-up (a DeadLetterExchange check refused, ...) is no loss to report: the
    // open fails with this reason and the reconnector treats it as a failed attempt. Reporting it too would count
    // a channel error, and hand the reconnector a session it never had, depending on which event came first.
    if (!wasRunning) return;
    reportSessionLost(this.env, this.reconnector, session, error, { queue: session.queue, redelivered: unsettled });
  }

  /** XAMode 1: messages of `session` still waiting in the XQueue will be redelivered, so withdraw them. */
  private takeBackUntaken(session: Session): void {
    if (!this.s.clientAck) return;
    this.withdrawUntaken(session, () => this.env.status.count('takenBack'));
  }

  /** Takes back from the XQueue each delivery of `session` no consumer has taken yet, and hands it to `withdrawn`. */
  private withdrawUntaken(session: Session, withdrawn: (d: Delivery) => void): void {
    for (let cell = 0; cell < this.byCell.length; cell++) {
      const d = this.byCell[cell];
      if (d?.session === session && this.output.takeback(cell) !== undefined) {
        this.byCell[cell] = undefined;
        this.outstanding--;
        this.uncount(d);
        withdrawn(d);
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
    session.acks.delivered(m.fields.deliveryTag);
    this.received.add();
    // A reload's receipt reports how many the broker redelivered while it swapped components (expected 0).
    if (m.fields.redelivered) this.env.status.count(REDELIVERED_COUNTER);
    this.deliveredSinceIdleCheck = true;
    this.pending.push({ session, m, failures: 0 });
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
        this.uncount(d);
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
          while (this.pendingHead < this.pending.length && !this.pending[this.pendingHead].session.alive) this.uncount(this.pending[this.pendingHead++]);
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
      this.failed(d, `cannot convert the delivery: ${(e as Error).message}`);
      return;
    }
    if (s.displayMask !== 0) displayMessage(this.env.logger, 'received', msg, s.displayMask, s.displayProperties);
    if (tracingActive()) traceDelivery(msg, d.m.properties.headers, { component: this.env.name, system: 'rabbitmq', destination: d.session.queue });
    if (s.clientAck) {
      this.byCell[cell] = d;
      this.outstanding++;
      // Messages are counted once (in, then done or given up); each hand-over is an attempt.
      if (d.counted !== true) {
        d.counted = true;
        this.env.status.totals.countIn();
      }
      this.attempts.add();
      this.output.add(cell, msg, this.onDone);
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
    if (d.failures > 0) msg.headers.JMSRedelivered = true;
    return msg;
  }

  /** XAMode 1: downstream removed the message of `cell`. */
  private readonly onDone = (msg: Message, outcome: Outcome, cell: number, reason?: string): void => {
    traceSettled(msg, outcome, reason);
    const d = this.byCell[cell];
    if (d === undefined) return;
    this.byCell[cell] = undefined;
    this.outstanding--;
    if (outcome === 'done') {
      this.env.status.totals.countDone();
      this.ack(d);
    } else this.failed(d, reason ?? 'failed downstream');
  };

  /** A message given back to the broker (or left to it) is no longer counted in: its redelivery is counted then. */
  private uncount(d: Delivery): void {
    if (d.counted !== true) return;
    d.counted = false;
    this.env.status.totals.countIn(-1);
  }

  /** XAMode 0: the message was acked when it entered the XQueue; a failure can only be reported. */
  private readonly onDoneAcked = (msg: Message, outcome: Outcome): void => {
    traceSettled(msg, outcome);
    if (outcome === 'failed') {
      this.env.status.count('failedAfterAck');
      this.env.logger.error('downstream failed a message that was already acknowledged (XAMode 0)', {
        component: this.env.name,
        messageId: msg.headers.JMSMessageID,
      });
    }
  };

  /** Acks are coalesced per turn of the event loop (the AckTracker decides the frames). */
  private ack(d: Delivery): void {
    if (!d.session.alive || !d.session.acks.done(d.m.fields.deliveryTag)) {
      this.env.status.count('ackSkipped');
      return;
    }
    this.acked.add();
    if (this.debug) this.env.logger.debug('ack sent', { queue: d.session.queue, deliveryTag: d.m.fields.deliveryTag, messageId: d.m.properties.messageId });
    this.scheduleFlush(d.session);
  }

  private nackWithoutRequeue(d: Delivery): void {
    if (!d.session.alive || !d.session.acks.failed(d.m.fields.deliveryTag, false)) {
      this.env.status.count('ackSkipped');
      return;
    }
    this.env.status.count('deadLettered');
    if (this.debug)
      this.env.logger.debug('nack sent (no requeue)', { queue: d.session.queue, deliveryTag: d.m.fields.deliveryTag, messageId: d.m.properties.messageId });
    this.scheduleFlush(d.session);
  }

  private scheduleFlush(session: Session): void {
    scheduleSettlement(session, this.ackSkipped);
  }

  private readonly ackSkipped = (): void => {
    this.env.status.count('ackSkipped');
  };

  // ------------------------------------------------------------------ failures and redelivery

  /** Downstream failed the message of `d` (or it could not be converted): retry later, or give up on it. */
  private failed(d: Delivery, reason: string): void {
    d.failures++;
    this.env.status.count('failedAttempts');
    const { failurePolicy: policy, redelivery } = this.s;
    const giveUp =
      policy === 'dead-letter' ||
      (policy === 'requeue-once' && (d.failures >= 2 || d.m.fields.redelivered)) ||
      (policy === 'requeue' && redelivery.maxAttempts > 0 && d.failures >= redelivery.maxAttempts);
    const meta = { queue: d.session.queue, messageId: d.m.properties.messageId, attempts: d.failures, policy };
    if (!d.session.alive) {
      this.failures.record(reason, 'a message failed; its channel is gone, the broker redelivers it', meta);
      this.env.status.count('ackSkipped');
      this.uncount(d);
      return;
    }
    if (!giveUp) {
      const delay = this.retryLater(d);
      this.failures.record(reason, `a message failed; attempting it again in ${delay} ms`, meta);
      return;
    }
    this.env.status.count('failed');
    this.env.status.totals.countFailed();
    const target = this.giveUpTarget(d);
    if (target !== undefined) {
      this.failures.record(reason, `a message failed; publishing it to ${target.label}`, meta);
      this.publishGivenUp(d, reason, target);
    } else {
      this.env.logger.error('message rejected without requeue: dead-lettered if the queue has a dead-letter exchange, otherwise dropped by the broker', {
        component: this.env.name,
        reason,
        ...meta,
      });
      this.nackWithoutRequeue(d);
    }
  }

  /** DeadLetterExchange when configured, else the ParkingQueue (FailurePolicy requeue), else none (nack). */
  private giveUpTarget(d: Delivery): GiveUpTarget | undefined {
    const { deadLetterExchange, deadLetterRoutingKey, parkingQueue } = this.s.redelivery;
    if (deadLetterExchange !== undefined)
      return {
        exchange: deadLetterExchange,
        routingKey: deadLetterRoutingKey ?? d.m.fields.routingKey,
        counter: 'deadLettered',
        label: `dead-letter exchange "${deadLetterExchange}"`,
      };
    if (parkingQueue !== undefined) return { exchange: '', routingKey: parkingQueue, counter: 'parked', label: `parking queue "${parkingQueue}"` };
    return undefined;
  }

  /** Reads how many messages are still parked (an operator may have retried or dropped some). */
  private countParked(): void {
    const session = this.session;
    const queue = this.s.redelivery.parkingQueue;
    if (session === undefined || !session.alive || queue === undefined) return;
    session.ch.checkQueue(queue).then(
      (ok) => this.env.status.setParked(ok.messageCount),
      () => undefined, // the channel closed: the session's loss is reported by its close event
    );
  }

  /** Holds `d` (unacked) and hands it downstream again after its back-off delay; returns the delay. */
  private retryLater(d: Delivery): number {
    d.backoff ??= new Backoff(this.s.redelivery.backoff);
    const delay = d.backoff.next();
    this.waitingRetry++;
    this.env.status.count('redeliveries');
    if (this.debug)
      this.env.logger.debug('retry scheduled', { queue: d.session.queue, messageId: d.m.properties.messageId, attempts: d.failures, delayMs: delay });
    this.ctx.setTimeout(() => {
      this.waitingRetry--;
      if (!d.session.alive || this.stopping) {
        this.uncount(d); // the broker redelivers it
        return;
      }
      this.pending.push(d);
      this.pump();
    }, delay);
    return delay;
  }

  /**
   * Publishes the given-up message to `target` (DeadLetterExchange or ParkingQueue) with its body, properties
   * and headers, plus its origin and failure (PARKED_HEADERS); the original is acked once that is confirmed.
   */
  private publishGivenUp(d: Delivery, reason: string, target: GiveUpTarget): void {
    const session = d.session;
    const id = randomUUID();
    const p = d.m.properties;
    const f = d.m.fields;
    // The parking copy is persistent, so that a broker restart keeps it too; a retry restores the original mode.
    const parking = target.counter === 'parked';
    const transient = parking && p.deliveryMode !== 2 && p.deliveryMode !== true;
    const options = republishOptions(transient ? { ...p, deliveryMode: 2 } : p, {
      ...(transient ? { [PARKED_HEADERS.deliveryMode]: typeof p.deliveryMode === 'number' ? p.deliveryMode : 1 } : {}),
      ...(p.headers ?? {}),
      [PARKED_HEADERS.id]: id,
      [PARKED_HEADERS.queue]: session.queue,
      [PARKED_HEADERS.exchange]: f.exchange,
      [PARKED_HEADERS.routingKey]: f.routingKey,
      [PARKED_HEADERS.receiver]: this.env.name,
      [PARKED_HEADERS.reason]: reason,
      [PARKED_HEADERS.attempts]: d.failures,
      [PARKED_HEADERS.parkedAt]: Date.now(),
    });
    const record = { returned: false };
    session.deadLetters.set(id, record);
    const retry = (why: string) => {
      this.env.status.count(target.counter === 'parked' ? 'parkFailed' : 'deadLetterFailed');
      this.env.logger.error(`the publish to ${target.label} failed (${why}); the message is held unacknowledged and published there again later`, {
        component: this.env.name,
        messageId: p.messageId,
      });
      this.waitingRetry++;
      this.ctx.setTimeout(() => {
        this.waitingRetry--;
        if (d.session.alive && !this.stopping) this.publishGivenUp(d, reason, target);
      }, this.s.redelivery.backoff.maxMs);
    };
    try {
      (session.ch as ConfirmChannel).publish(
        target.exchange,
        target.routingKey,
        d.m.content,
        options,
        this.ctx.guard((err: unknown) => {
          session.deadLetters.delete(id);
          if (!session.alive) return; // the channel died first: the broker redelivers the original
          if (err instanceof Error && !isBrokerNack(err)) return;
          if (err) retry('nacked by the broker');
          else if (record.returned) retry('unroutable');
          else {
            this.env.status.count(target.counter);
            if (target.counter === 'parked') this.env.status.setParked((this.env.status.parked() ?? 0) + 1);
            this.ack(d);
          }
        }),
      );
    } catch {
      session.deadLetters.delete(id); // the channel closed under us: the broker redelivers the original
    }
  }

  private onGivenUpReturned(session: Session, m: AmqpMessage): void {
    const id = m.properties.headers?.[PARKED_HEADERS.id];
    const record = typeof id === 'string' ? session.deadLetters.get(id) : undefined;
    if (record) record.returned = true;
  }

  /** Drops the waiting deliveries of dead channels (the broker redelivers them). */
  private compactPending(): void {
    this.pending = this.pending.slice(this.pendingHead).filter((d) => {
      if (!d.session.alive) this.uncount(d);
      return d.session.alive;
    });
    this.pendingHead = 0;
  }

  private outputStopped(e: unknown): void {
    if (this.stopping) return;
    this.env.logger.info('output queue stopped; deliveries not yet handed over will be redelivered', {
      component: this.env.name,
      queue: this.output.name,
      error: (e as Error).message,
    });
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
    if (this.pendingHead < this.pending.length || this.outstanding > 0 || this.waitingRetry > 0) return;
    this.env.logger.info('queue idle; stopping (Mode non-daemon)', { component: this.env.name, queue: session.queue, idleMs: this.s.receiveTimeMs });
    this.env.status.set('STOPPED', `queue "${session.queue}" idle for ${this.s.receiveTimeMs} ms (Mode non-daemon)`);
    this.ctx.stopSelf();
  }
}

/** What amqplib's ack needs of a message: its delivery tag. */
export const AMQP_RECEIVER: ComponentDefinition<never, AmqpReceiverSettings> = {
  className: 'receiver.AmqpReceiver',
  aliases: ['receiver.RMQReceiver'],
  role: 'receiver',
  needsOutput: true,
  operations: ['get'],
  description:
    'Consumes a RabbitMQ (AMQP 0-9-1) queue into its output XQueue, with prefetch tied to the output capacity and ack after downstream work (XAMode 1).',
  schema: AMQP_RECEIVER_SCHEMA,
  // Validation has no output XQueue: any Partition within a large capacity reads.
  settings: (name, config, baseDir, context) => readReceiverSettings(name, config, baseDir, context.outputCapacity ?? 1 << 30),
  create: (env, settings) => new AmqpReceiver(env, settings),
};
