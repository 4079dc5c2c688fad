/**
 * Receives from one AMQP 1.0 source into an XQueue, across reconnections: the engine under JMSSubscriber
 * (topic) and JMSReceiver (queue).
 *
 * Flow control: link credit is never rhea's credit_window (which re-issues credit when messages arrive,
 * not when they are done). Each credit is backed by an XQueue cell reserved beforehand, so the broker may
 * never send more than there are free cells in the Partition, and a message always has a cell waiting.
 * When the queue is full the credit pump waits for a cell to free up. On RabbitMQ, freed cells are granted
 * in batches (half the window, or at once when the link has no credit left): RabbitMQ 3.10 can overshoot
 * the credit by the messages already on their way when a top-up arrives. A JMS broker (ActiveMQ, Artemis)
 * counts credit exactly, so there each freed cell is granted at once (rhea sends the grants of one tick in
 * one flow frame): batching there kept only half to all of the window in credit, not all of it. A message
 * beyond the credit takes a free
 * cell if there is one; otherwise it waits in a small overflow list (at most one window) that freed cells
 * serve before any new credit is granted, and beyond that it is released to the broker.
 *
 * A delivery held unsettled (XAMode 1, a long job downstream) never closes the session window for the others:
 * the receiver is opened with Amqp10Connection.openReceiver, which frees the window out of order (unsettled()
 * reports what is held; docs/components/jms-queues.md "One held delivery never stops the receiver").
 *
 * Acknowledgement (XAMode): 1 = a delivery is accepted when the downstream removes the message from the
 * XQueue (its onDone); 0 = accepted as soon as it is safely in the XQueue. onDone with outcome 'failed'
 * settles with the configured failure outcome (default reject: the broker dead-letters it). A release or
 * modified outcome makes the broker redeliver at once, so it is sent only after a back-off delay (the
 * `redelivery` option: doubling per consecutive failure, reset by a success), and while as many failed
 * deliveries as the window wait for it no new credit is granted: a message that always fails slows the
 * link down instead of spinning, and the held deliveries stay bounded. An accept
 * that cannot be sent because its link died is not counted as done: the broker redelivers that message.
 * When a link dies, its messages still waiting in the XQueue (not yet taken) are withdrawn, because the
 * broker will redeliver them on the next link anyway.
 *
 * On a broker that ignores the selector filter (RabbitMQ), messages the JMS selector does not select are accepted
 * and dropped, or (option `unselected: 'release'`, for queues) handed back as modified/undeliverable-here. A broker
 * that applies it (ActiveMQ, Artemis) is trusted: its selection is not checked again.
 */
import type { Delivery, EventContext, Receiver } from 'rhea';
import { Message } from '../../src/message/message';
import { XQueue, Outcome } from '../../src/xqueue/xqueue';
import { XQueueStoppedError } from '../../src/xqueue/errors';
import { Partition } from '../../src/xqueue/partition';
import { ReconnectPolicy, ReconnectTimers, Reconnector } from '../../src/runtime/reconnector';
import { Backoff, BackoffOptions } from '../../src/foundation/backoff';
import { StatusCounter, StatusReporter, UnsettledDeliveries } from '../../src/runtime/component';
import { debugEnabled, Logger } from '../../src/logging/logger';
import { describe } from '../../src/runtime/actor';
import { DrainReport, SWAP_POLL_MS, untilDoneOrDeadline } from '../../src/runtime/drain';
import { Amqp10Parking } from '../../src/transports/amqp10-parking';
import { JmsSelector } from '../../src/jms/selector';
import { Amqp10Connection, Amqp10Endpoint } from '../../src/transports/amqp10-connection';
import { isFatalAmqp10Error } from '../../src/transports/amqp10-errors';
import { amqpSelectorSource, amqpToMessage, AmqpMessage } from '../../src/transports/amqp10-mapping';
import { chooseDialect, Dialect, DialectChoice, SourcePlan } from '../../src/transports/amqp10-dialect';
import { traceDelivery, traceSettled, tracingActive } from '../../src/tracing/message-trace';

export type FailedOutcome = 'reject' | 'release' | 'modified';
/** A delivery the selector does not select: accept (consumed and dropped) or release it undeliverable-here (left for other consumers). */
export type UnselectedOutcome = 'accept' | 'release';

export interface ConsumerOptions {
  readonly name: string;
  readonly output: XQueue<Message>;
  readonly partition: Partition;
  readonly endpoint: Amqp10Endpoint;
  readonly containerId?: string;
  /** Liveness limit of the connection (IdleTimeout, ms; 0 = off): src/transports/amqp10-connection.ts. */
  readonly idleTimeoutMs?: number;
  readonly dialect: DialectChoice;
  /** Which source to attach, once the dialect is known (may declare broker objects first). */
  readonly plan: (dialect: Dialect, conn: Amqp10Connection) => Promise<SourcePlan>;
  readonly xaMode: 0 | 1;
  readonly selector?: JmsSelector;
  /** What happens to a delivery the selector does not select (default accept). */
  readonly unselected?: UnselectedOutcome;
  /** Applied to each message before it enters the XQueue (StringProperty, display). */
  readonly decorate?: (msg: Message) => void;
  readonly failedOutcome: FailedOutcome;
  /** Delay before a release/modified settlement (which the broker redelivers at once). */
  readonly redelivery: BackoffOptions;
  readonly reconnect: ReconnectPolicy;
  readonly timers: ReconnectTimers;
  /** Wraps callbacks from rhea so that a throw becomes a supervised crash. */
  readonly guard: <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => void;
  readonly logger: Logger;
  readonly status: StatusReporter;
  /** Broker errors logged at error level as they happen (EnableExceptionListener). */
  readonly exceptionListener: boolean;
  /** A fatal connect error (bad credentials, TLS) moved reconnection to the slow schedule. */
  readonly onGiveUp: (error: unknown) => void;
  /** Delay between attempts after a fatal connect error (default 30 s). */
  readonly fatalRetryMs?: number;
  /** FailedOutcome release/modified with MaxAttempts: where a message that failed that often is parked. */
  readonly parking?: Amqp10Parking;
}

/** One connection with its receiver link and the cells that back the credit granted on it. */
interface Session {
  readonly conn: Amqp10Connection;
  readonly receiver: Receiver;
  readonly plan: SourcePlan;
  readonly dialect: Dialect;
  /** Cells reserved for credit, not yet used by a delivery (any one serves: a delivery takes the last, O(1)). */
  readonly cells: number[];
  /** How many of `cells` have not been granted to the broker as credit yet. */
  uncredited: number;
  /** Deliveries the broker sent beyond the credit, waiting for a cell (oldest first, at most one window). */
  readonly overflow: { amqp: AmqpMessage; delivery: Delivery }[];
  /**
   * XAMode 1: per cell, the delivery of this session whose message the cell holds until its onDone fires
   * (a plain array indexed by cell, and one onDone per session: nothing allocated per message for it).
   */
  readonly pending: (Delivery | undefined)[];
  /** XAMode 1: per cell, when its pending delivery arrived (ms), for the age of the oldest unsettled one. */
  readonly pendingSince: number[];
  /** XAMode 1 with parking: per cell, the AMQP message of its pending delivery (parked as it came). */
  readonly pendingMessage: (AmqpMessage | undefined)[];
  /** The onDone of every message of this session (XAMode 1): settles the delivery its cell holds. */
  onDone?: (item: Message, outcome: Outcome, cell: number, reason?: string) => void;
  /** Takes the session's wait for a free cell out of the XQueue (see pump). */
  cancelWait?: () => void;
  /** The session's whenFree callback (one per session, nothing allocated per wait). */
  onFreeCell: (cell: number) => void;
  /** Makes a freed cell credit (or serves the overflow with it); a retired session hands it straight back. */
  takeUp: (cell: number) => void;
  alive: boolean;
}

/** How long a replaced receiver waits for the broker's answer to its drain flow (see handDownstream). */
const DRAIN_FLOW_MS = 2000;

/** XAMode 1: the deliveries of `s` handed downstream and not settled yet. */
function held(s: Session): number {
  return s.pending.reduce((n, d) => (d === undefined ? n : n + 1), 0);
}

export class Amqp10Consumer {
  private readonly reconnector: Reconnector<Session>;
  private session: Session | undefined;
  private stopped = false;
  /** Granting no more credit (a non-daemon receiver that went idle). */
  private finished = false;
  /** A reload replaces the receiver: no new credit, but what the credit already granted brings still goes downstream. */
  private handingOver = false;
  private lastActivity = Date.now();
  /** Delay of the next release/modified settlement: grows with consecutive failures, reset by a success. */
  private readonly failureBackoff: Backoff;
  /** Failed deliveries waiting for their delayed release/modified settlement. */
  private heldFailures = 0;
  /** Debug lines (settlement sent, retry scheduled) are built only when the log writes them. */
  private readonly debug: boolean;
  /** The status counters counted per message, held (an increment each, no look-up by name). */
  private readonly received: StatusCounter;
  private readonly acked: StatusCounter;

  constructor(private readonly o: ConsumerOptions) {
    this.received = o.status.counter('received');
    this.acked = o.status.counter('acked');
    this.failureBackoff = new Backoff(o.redelivery);
    this.debug = debugEnabled(o.logger);
    this.reconnector = new Reconnector<Session>({
      name: o.name,
      connect: () => this.connect(),
      onConnected: (s) => this.connected(s),
      // Came up after the stop: nothing was wired to it yet (no credit granted), so closing it is all.
      discard: (s) => void s.conn.close(500),
      isFatal: isFatalAmqp10Error,
      onGiveUp: (e) => o.onGiveUp(e),
      fatalRetryMs: o.fatalRetryMs,
      backoff: o.reconnect.backoff,
      tolerance: o.reconnect.tolerance,
      maxRetry: o.reconnect.maxRetry,
      logger: o.logger,
      status: o.status,
      timers: o.timers,
    });
  }

  start(): void {
    this.reconnector.start();
  }

  /** The dialect of the current connection, once connected. */
  get dialect(): Dialect | undefined {
    return this.session?.dialect;
  }

  get isConnected(): boolean {
    return this.session?.alive === true;
  }

  /** Milliseconds since the last delivery (or since start). */
  idleMs(now = Date.now()): number {
    return now - this.lastActivity;
  }

  /**
   * XAMode 1: the deliveries of the current link handed downstream and not settled yet, and the age of the
   * oldest. Counted when asked (a status or metrics read), so the message path pays one store per delivery.
   */
  unsettled(now = Date.now()): UnsettledDeliveries {
    const s = this.session;
    let deliveries = 0;
    let oldest = now;
    if (s !== undefined) {
      for (let cell = 0; cell < s.pending.length; cell++) {
        if (s.pending[cell] === undefined) continue;
        deliveries++;
        oldest = Math.min(oldest, s.pendingSince[cell]);
      }
    }
    return { deliveries, oldestAgeSeconds: (now - oldest) / 1000 };
  }

  /** Grants no more credit; what was delivered is still acknowledged as usual. */
  finish(): void {
    this.finished = true;
    const s = this.session;
    if (s) this.returnCells(s);
  }

  /**
   * Drain before a stop (docs/operations.md#stopping): grants no more credit (deliveries still arriving are
   * released), releases the messages no consumer has taken, and keeps the
   * link until downstream has finished the rest (accepted as usual) or the deadline passes. stop() follows.
   */
  async drain(deadline: number, forReplace = false): Promise<DrainReport> {
    this.reconnector.stop();
    const s = this.session;
    if (s === undefined || !s.alive) {
      this.finished = true;
      return { acknowledged: 0, returned: 0 };
    }
    const acked = () => this.o.status.get().counters.acked ?? 0;
    const ackedBefore = acked();
    if (forReplace) await this.handDownstream(s, deadline);
    let returned = s.overflow.length; // never settled: the broker redelivers them once the link closes
    // No drain flow (drain=true) is sent: in 1 run of 3, RabbitMQ 3.10 ended the link at once. Credit left with
    // the broker is used up by messages that are released as they arrive (finish).
    this.finish();
    const finished = () => !s.alive || held(s) === 0 || this.o.output.stats().consumers === 0;
    await untilDoneOrDeadline(deadline, finished, () => (returned += this.releaseUntaken(s)));
    return { acknowledged: acked() - ackedBefore, returned: returned + held(s) + this.heldFailures };
  }

  /**
   * A reload replaces this receiver (docs/operations.md#changing-a-running-flow): no new credit, and what the
   * broker already sent goes downstream and is accepted once done, rather than released for the broker to
   * redeliver (a duplicate risk, and a redelivery in the receipt). A JMS broker is asked to use up or return the
   * credit it holds (a drain flow; not on RabbitMQ, see drain); its answer is awaited at most DRAIN_FLOW_MS.
   * Until everything delivered is settled or the deadline; drain() then gives back whatever is left.
   */
  private async handDownstream(s: Session, deadline: number): Promise<void> {
    this.handingOver = true;
    s.uncredited = 0;
    let creditSettled = s.dialect.name === 'rabbitmq';
    if (!creditSettled && Amqp10Connection.credit(s.receiver) > 0) {
      s.receiver.once('receiver_drained', () => (creditSettled = true));
      s.receiver.drain_credit();
    }
    const flowDeadline = Math.min(deadline, Date.now() + DRAIN_FLOW_MS);
    // Credit used up (what it granted has arrived) is as good as the broker's answer, which ActiveMQ then omits.
    const arrived = () => creditSettled || Amqp10Connection.credit(s.receiver) === 0 || Date.now() >= flowDeadline;
    const done = () => !s.alive || this.o.output.stats().consumers === 0 || (arrived() && held(s) === 0);
    await untilDoneOrDeadline(deadline, done, undefined, SWAP_POLL_MS);
  }

  /** Draining: messages of `s` that no consumer has taken are withdrawn from the XQueue and released to the broker. */
  private releaseUntaken(s: Session): number {
    let n = 0;
    for (let cell = 0; cell < s.pending.length; cell++) {
      const d = s.pending[cell];
      if (d === undefined || this.o.output.takeback(cell) === undefined) continue;
      s.pending[cell] = undefined;
      if (s.alive && s.conn.isOpen() && s.receiver.is_open()) d.release();
      n++;
    }
    if (n > 0) this.o.status.count('returned', n);
    return n;
  }

  /** Stops reconnecting and closes the connection (a durable subscription is kept: the link is detached). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reconnector.stop();
    const s = this.session;
    this.session = undefined;
    if (s) {
      this.retire(s);
      s.conn.closeLink(s.receiver);
      await s.conn.close();
    }
  }

  // ------------------------------------------------------------------ connection

  private async connect(): Promise<Session> {
    const conn = await Amqp10Connection.open({ endpoint: this.o.endpoint, containerId: this.o.containerId, idleTimeoutMs: this.o.idleTimeoutMs });
    try {
      const dialect = chooseDialect(this.o.dialect, conn.remoteProperties);
      const plan = await this.o.plan(dialect, conn);
      // Unsettled at once: the credit cells, the overflow and the failures held for their delay (one window each).
      const receiver = await conn.openReceiver({ name: plan.linkName, source: plan.source as never, autoaccept: false, credit_window: 0 }, 3 * this.window());
      const session: Session = {
        conn,
        receiver,
        plan,
        dialect,
        cells: [],
        uncredited: 0,
        overflow: [],
        pending: [],
        pendingSince: [],
        pendingMessage: [],
        onFreeCell: () => undefined,
        takeUp: () => undefined,
        alive: true,
      };
      const takeUp = this.o.guard((cell: number) => this.takeUp(session, cell));
      // A retired session cancels its wait first; a cell that reaches it anyway (or after the wait) goes back.
      session.takeUp = (cell) => (session.alive ? takeUp(cell) : this.o.output.cancel(cell));
      session.onFreeCell = (cell) => this.freeCell(session, cell);
      return session;
    } catch (e) {
      await conn.close(500);
      throw e;
    }
  }

  private connected(s: Session): void {
    this.session = s;
    this.lastActivity = Date.now();
    this.o.logger.info('subscribed', { component: this.o.name, address: s.plan.address, link: s.plan.linkName, dialect: s.dialect.name });
    s.receiver.on(
      'message',
      this.o.guard((ctx: EventContext) => this.onMessage(s, ctx)),
    );
    s.conn.onLost((err) => this.lost(s, err));
    this.pump(s);
  }

  private lost(s: Session, err: Error): void {
    if (!s.alive) return;
    this.retire(s);
    if (this.session === s) this.session = undefined;
    if (this.o.exceptionListener) this.o.logger.error('broker connection error', { component: this.o.name, error: describe(err) });
    this.o.status.count('disconnects');
    if (!this.stopped) this.reconnector.lost(err, s);
  }

  /** The session is over: its credit cells go back, and its undelivered-downstream messages are withdrawn. */
  private retire(s: Session): void {
    s.alive = false;
    s.cancelWait?.();
    s.cancelWait = undefined;
    this.returnCells(s);
    if (this.o.xaMode === 1) {
      for (let cell = 0; cell < s.pending.length; cell++) {
        if (s.pending[cell] !== undefined && this.o.output.takeback(cell) !== undefined) {
          s.pending[cell] = undefined;
          this.o.status.count('withdrawn');
        }
      }
    }
  }

  private returnCells(s: Session): void {
    s.uncredited = 0;
    s.overflow.length = 0; // never accepted: the broker redelivers them
    for (const cell of s.cells.splice(0)) {
      try {
        this.o.output.cancel(cell);
      } catch {
        // the queue was stopped
      }
    }
  }

  // ------------------------------------------------------------------ credit

  /**
   * Reserves every free cell of the Partition as future credit and grants it, then waits for the next cell to
   * free up. The wait is XQueue.whenFree: the freed cell arrives synchronously from the downstream's remove (no
   * promise or abort listener per wait), so on a JMS broker its credit is granted in the same turn as that
   * remove's accept; on RabbitMQ freeCell defers it.
   */
  private pump(s: Session): void {
    const q = this.o.output;
    const p = this.o.partition;
    if (!s.alive || this.finished || this.handingOver || this.stopped) return;
    let reserved = 0;
    try {
      for (let cell = q.tryReserve(p); cell >= 0; cell = q.tryReserve(p)) {
        if (!this.useCell(s, cell)) reserved++;
      }
      s.uncredited += reserved;
      this.grant(s);
      s.cancelWait = q.whenFree(p, s.onFreeCell, () => undefined);
    } catch (e) {
      if (e instanceof XQueueStoppedError) return;
      throw e;
    }
  }

  /**
   * A cell freed for this session while it waited (see pump). On RabbitMQ it is taken up once the downstream's
   * turn is over (a microtask, as a promise continuation would): taken up inside the remove, the fault test's
   * link (3 broker restarts, XAMode 1) stalled in 3 of 4 runs with 39 credits left on our side and nothing
   * arriving. A JMS broker counts credit exactly, and there the credit leaves with the turn's accepts.
   */
  private freeCell(s: Session, cell: number): void {
    s.cancelWait = undefined;
    if (s.dialect.name === 'rabbitmq') queueMicrotask(() => s.takeUp(cell));
    else s.takeUp(cell);
  }

  private takeUp(s: Session, cell: number): void {
    if (this.finished || this.handingOver) {
      this.o.output.cancel(cell);
      return;
    }
    if (!this.useCell(s, cell)) s.uncredited++;
    this.pump(s);
  }

  /** A freed cell serves the oldest overflow delivery (true), or becomes future credit (false). */
  private useCell(s: Session, cell: number): boolean {
    const waiting = s.overflow.shift();
    if (waiting === undefined) {
      s.cells.push(cell);
      return false;
    }
    this.deliver(s, cell, waiting.amqp, waiting.delivery);
    return true;
  }

  /** The fewest freed cells worth a top-up while the link still has credit (see the header: RabbitMQ overshoots). */
  private creditBatch(s: Session): number {
    return s.dialect.name === 'rabbitmq' ? Math.max(1, this.window() >> 1) : 1;
  }

  private window(): number {
    return this.o.partition.length > 0 ? this.o.partition.length : this.o.output.capacity;
  }

  /** Grants the reserved cells as credit: at once, or on RabbitMQ in batches (half the window, or whatever there is when the link has none left). */
  private grant(s: Session): void {
    if (s.uncredited === 0 || !s.alive || this.handingOver) return;
    if (this.heldFailures >= this.window()) return; // resumed when a held failure is settled
    const credit = Amqp10Connection.credit(s.receiver);
    if (credit > 0 && s.uncredited < this.creditBatch(s)) return;
    s.receiver.add_credit(s.uncredited);
    s.uncredited = 0;
  }

  // ------------------------------------------------------------------ deliveries

  private onMessage(s: Session, ctx: EventContext): void {
    const delivery = ctx.delivery as Delivery;
    const amqp = ctx.message as unknown as AmqpMessage;
    this.lastActivity = Date.now();
    const q = this.o.output;
    if (!s.alive || this.finished) {
      delivery.release(); // after finish(): let the broker keep it
      this.o.status.count('released');
      return;
    }
    let cell = s.cells.pop();
    if (cell !== undefined) {
      if (s.cells.length < s.uncredited) s.uncredited = s.cells.length; // it used a cell not yet credited (overshoot)
    } else {
      // beyond the credit (a broker overshoot): a free cell, else the overflow list, else back to the broker
      this.o.status.count('overshoot');
      const free = q.tryReserve(this.o.partition);
      if (free >= 0) cell = free;
      else if (s.overflow.length < this.window()) {
        s.overflow.push({ amqp, delivery });
        return;
      } else {
        delivery.release();
        this.o.status.count('released');
        return;
      }
    }
    this.grant(s);
    this.deliver(s, cell, amqp, delivery);
  }

  /** Puts one delivery into its cell (or drops it when the selector does not select it). */
  private deliver(s: Session, cell: number, amqp: AmqpMessage, delivery: Delivery): void {
    const q = this.o.output;
    this.received.add();
    if (this.o.selector && !s.dialect.appliesSelectors && !this.o.selector.matches(amqpSelectorSource(amqp))) {
      q.cancel(cell);
      if (this.o.unselected === 'release') delivery.modified({ delivery_failed: false, undeliverable_here: true });
      else delivery.accept();
      this.o.status.count('filtered');
      return;
    }
    const msg = amqpToMessage(amqp, { destination: s.plan.destination });
    this.o.decorate?.(msg);
    if (tracingActive()) traceDelivery(msg, amqp.application_properties, { component: this.o.name, system: s.dialect.name, destination: s.plan.destination });
    if (this.o.xaMode === 1) {
      s.pending[cell] = delivery;
      s.pendingSince[cell] = this.lastActivity;
      if (this.o.parking !== undefined) s.pendingMessage[cell] = amqp;
      s.onDone ??= (item, outcome, doneCell, reason) => {
        traceSettled(item, outcome);
        const done = s.pending[doneCell];
        const message = s.pendingMessage[doneCell];
        s.pending[doneCell] = undefined;
        s.pendingMessage[doneCell] = undefined;
        if (done !== undefined) this.settle(s, done, outcome, message, reason);
      };
      q.add(cell, msg, s.onDone, this.o.status.totals);
    } else {
      q.add(cell, msg, undefined, this.o.status.totals);
      this.settle(s, delivery, 'done');
      traceSettled(msg, 'done');
    }
  }

  private settle(s: Session, delivery: Delivery, outcome: Outcome, message?: AmqpMessage, reason?: string): void {
    // rhea drops a disposition on a dead link silently: such a message is redelivered, so it is not done.
    if (!s.alive || !s.conn.isOpen() || !s.receiver.is_open()) {
      this.o.status.count('ackLost');
      return;
    }
    const parking = this.o.parking;
    if (outcome === 'done') {
      delivery.accept();
      this.failureBackoff.reset();
      this.acked.add();
      if (parking !== undefined && message !== undefined) parking.succeeded(message);
      if (this.debug) this.o.logger.debug('ack sent (accepted)', { component: this.o.name, address: s.plan.address, deliveryId: delivery.id });
      return;
    }
    this.o.status.count('failed');
    if (this.o.failedOutcome === 'reject') {
      delivery.reject({ condition: 'xroute:processing-failed', description: `${this.o.name}: downstream gave up on the message` });
      if (this.debug) this.o.logger.debug('nack sent (rejected)', { component: this.o.name, address: s.plan.address, deliveryId: delivery.id });
      return;
    }
    if (parking !== undefined && message !== undefined) {
      const attempts = parking.failed(message);
      if (parking.exhausted(attempts)) {
        this.park(s, delivery, parking, message, reason ?? 'failed downstream', attempts);
        return;
      }
    }
    this.releaseLater(s, delivery);
  }

  /** Sends the message to the parking queue and accepts the original once the broker accepted that send. */
  private park(s: Session, delivery: Delivery, parking: Amqp10Parking, message: AmqpMessage, reason: string, attempts: number): void {
    this.heldFailures++;
    const settled = this.o.guard((ok: boolean) => {
      this.heldFailures--;
      if (!s.alive || !s.conn.isOpen() || !s.receiver.is_open()) {
        this.o.status.count('ackLost'); // redelivered by the broker; a parked copy may then exist twice
      } else if (ok) {
        delivery.accept();
        this.o.status.count('parked');
        this.o.status.setParked((this.o.status.parked() ?? 0) + 1);
      } else {
        this.o.status.count('parkFailed');
        this.o.logger.error('the parking queue did not accept the message; it is released and attempted again', {
          component: this.o.name,
          queue: parking.settings.queue,
          messageId: message.message_id,
        });
        this.releaseLater(s, delivery);
        return;
      }
      const current = this.session;
      if (current) this.grant(current);
    });
    parking.park(s.conn, s.dialect, s.plan.destination, message, reason, attempts).then(settled, () => settled(false));
  }

  /** Released or modified, the broker redelivers it at once: wait first, holding it unsettled. */
  private releaseLater(s: Session, delivery: Delivery): void {
    const delay = this.failureBackoff.next();
    if (this.debug)
      this.o.logger.debug('retry scheduled: the message is settled for redelivery after a delay', {
        component: this.o.name,
        address: s.plan.address,
        deliveryId: delivery.id,
        outcome: this.o.failedOutcome,
        delayMs: delay,
      });
    this.heldFailures++;
    this.o.status.count('redeliveries');
    this.o.timers.setTimeout(
      this.o.guard(() => {
        this.heldFailures--;
        if (!s.alive || !s.conn.isOpen() || !s.receiver.is_open()) this.o.status.count('ackLost');
        else if (this.o.failedOutcome === 'release') delivery.release();
        else delivery.modified({ delivery_failed: true });
        const current = this.session;
        if (current) this.grant(current);
      }),
      delay,
    );
  }
}
