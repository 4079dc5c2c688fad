/**
 * The send side of JMSPersister (queue) and JMSPublisher (topic) over AMQP 1.0 (rhea).
 *
 * Safety: a message leaves the input XQueue only when the broker settled its delivery as accepted. Sends
 * are unsettled (snd_settle_mode 0) and tracked per delivery; up to MaxInFlight await their settlement at
 * once (pipelined; the link's credit is honoured by rhea, which holds transfers until credit arrives).
 * rhea 3.0.5 loses, without a word, what is sent on a dead connection, so nothing is sent
 * unless the connection is open, and every send still unsettled when the link dies is sent again on the
 * next connection (at-least-once: the broker may have taken it and lost only the settlement).
 *
 * A message the broker rejects or releases (or modifies) is sent again after RetryDelay ms, up to
 * SendRetries times; then it is removed with outcome 'failed' and its producer decides (a JMSReceiver or
 * JMSSubscriber upstream settles its own delivery per FailedOutcome).
 *
 * Duplicate guard (docs/components/jms-queues.md): right after a retry (reconnection, or a restart of the actor), a
 * message carrying the same JMSMessageID as the last message the broker accepted is not sent again; it is
 * removed as done (counter `duplicateSkipped`). A message without a JMSMessageID gets one (`ID:xroute-…`)
 * when first sent, as a JMS provider's send() does, so that its retries carry the same id.
 *
 * MaxIdleTime: with nothing to send for that long, the connection is closed (status DISABLED) and opened
 * again when the next message arrives.
 */
import { randomUUID } from 'crypto';
import type { Delivery, EventContext, Sender } from 'rhea';
import { ActorContext, Behaviour, QueueConsumer, StopReason, TimerHandle, describe } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv, inputOf } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { ReconnectingSender, SendResult, SenderSession, SenderTransport } from '../../src/runtime/reconnecting-sender';
import { displayMessage } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { Taken } from '../../src/xqueue/xqueue';
import { Amqp10Connection, deliveryRejection, endpointLabel, sessionHasRoom } from '../../src/transports/amqp10-connection';
import { chooseDialect, Dialect, TargetPlan } from '../../src/transports/amqp10-dialect';
import { isFatalAmqp10Error } from '../../src/transports/amqp10-errors';
import { messageToAmqp } from '../../src/transports/amqp10-mapping';
import { tracePublish, tracePublished, tracingActive } from '../../src/tracing/message-trace';
import { encodeAmqpMessage } from '../../src/transports/amqp10-encoding';
import { jmsMigrationIssues, ineffectiveProperties } from '../support/jms-config';
import { JmsSenderKind, JmsSenderSettings, jmsSenderSchema, readSenderSettings, senderNoEffect } from './jms-persister-settings';

interface Session extends SenderSession {
  readonly conn: Amqp10Connection;
  readonly sender: Sender;
  readonly dialect: Dialect;
  readonly plan: TargetPlan;
  /** Sends awaiting settlement, in send order. */
  readonly pending: Map<Delivery, Send>;
}

interface Send {
  readonly taken: Taken<Message>;
  /** How many times the broker refused it (rejected, released, modified). */
  refusals: number;
}

/** Per component, across restarts: the id of the last message the broker accepted (the duplicate guard). */
const lastAccepted = new WeakMap<ComponentEnv, string>();
/** Components whose no-effect properties were already reported (once per component, not per restart). */
const reported = new WeakSet<ComponentEnv>();

/**
 * The actor: reads its settings, keeps the duplicate guard and MaxIdleTime, and hands the AMQP 1.0 side
 * (link, send, settlements) to the shared ReconnectingSender, which owns reconnection, re-sending and removal.
 */
class JmsSender implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private consumer?: QueueConsumer;
  private sender!: ReconnectingSender<Session, Send>;
  private hibernating = false;
  /** Armed by a reconnection or a restart: the next message sent is checked against the last accepted id. */
  private guardArmed = false;
  private lastActivity = Date.now();
  private idleTimer?: TimerHandle;
  /** The JMSMessageID the broker accepted last: kept here per message, and in lastAccepted across restarts. */
  private lastAcceptedId: string | undefined;

  constructor(
    private readonly env: ComponentEnv,
    private readonly kind: JmsSenderKind,
    private readonly s: JmsSenderSettings,
  ) {}

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const env = this.env;
    const input = inputOf(env);
    const resolved = this.s.connection.resolved;
    if (!reported.has(env)) {
      reported.add(env);
      const ineffective = ineffectiveProperties(resolved, senderNoEffect(env.config), env.config);
      if (ineffective.length > 0) env.logger.warn('properties have no effect over AMQP 1.0', { component: env.name, properties: ineffective });
    }
    env.logger.info('starting', {
      component: env.name,
      endpoint: endpointLabel(resolved.endpoint),
      via: resolved.via,
      [this.kind.destination]: this.s.destination,
    });
    this.guardArmed = ctx.incarnation > 0;
    this.lastAcceptedId = lastAccepted.get(env);
    this.sender = new ReconnectingSender<Session, Send>({
      transport: this.transport(),
      input,
      taken: (send) => send.taken,
      poke: () => this.consumer?.poke(),
      timers: { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms) },
    });
    this.consumer = ctx.consume(input, (taken) => this.onMessage(taken), { maxInFlight: this.s.maxInFlight });
    this.sender.start();
    if (this.s.maxIdleMs > 0) this.idleTimer = ctx.setInterval(() => this.checkIdle(), Math.max(50, Math.min(this.s.maxIdleMs, 1000)));
  }

  async stop(_ctx: ActorContext<never>, reason: StopReason): Promise<void> {
    this.ctx.clearTimer(this.idleTimer);
    // The runtime puts every held message back; settlements still due are awaited briefly.
    try {
      await this.sender?.stop(reason === 'stop');
    } finally {
      // what a restarted incarnation checks its first send against
      if (this.lastAcceptedId !== undefined) lastAccepted.set(this.env, this.lastAcceptedId);
    }
    if (this.env.status.status !== 'FAILED') this.env.status.set('STOPPED');
  }

  // ------------------------------------------------------------------ connection

  private transport(): SenderTransport<Session, Send> {
    return {
      open: () => this.open(),
      reconnector: (connect, onConnected, discard) =>
        new Reconnector<Session>({
          name: this.env.name,
          connect,
          onConnected,
          discard,
          isFatal: isFatalAmqp10Error,
          // Configuration errors are FAILED with the reason and retried only on the slow schedule.
          fatalRetryMs: this.ctx.policy.fatalRetryMs,
          backoff: this.s.connection.reconnect.backoff,
          tolerance: this.s.connection.reconnect.tolerance,
          maxRetry: this.s.connection.reconnect.maxRetry,
          logger: this.env.logger,
          status: this.env.status,
          timers: { setTimeout: (fn, ms) => this.ctx.setTimeout(fn, ms), clearTimer: (h) => this.ctx.clearTimer(h as TimerHandle) },
        }),
      attach: (session) => this.attach(session),
      // rhea drops a send on a dead connection silently: only an open one gets anything; and its session
      // buffer is bounded ('sendable' or a settlement calls flush again).
      ready: (session) => session.conn.isOpen() && session.sender.is_open() && sessionHasRoom(session.sender),
      send: (session, send) => this.send(session, send),
      unconfirmed: (session) => session.pending.size,
      takeUnconfirmed: (session) => {
        const again = [...session.pending.values()];
        session.pending.clear();
        return again;
      },
      reportLost: (_session, error, resent, reconnector) => {
        this.env.status.count('disconnects');
        if (resent > 0) this.env.status.count('resent', resent);
        this.guardArmed = true;
        reconnector?.lost(error, _session);
      },
      close: async (session) => {
        session.conn.closeLink(session.sender);
        await session.conn.close();
      },
    };
  }

  private async open(): Promise<Session> {
    const conn = await Amqp10Connection.open({
      endpoint: this.s.connection.resolved.endpoint,
      containerId: this.s.connection.clientId,
      idleTimeoutMs: this.s.connection.idleTimeoutMs,
    });
    try {
      const dialect = chooseDialect(this.s.connection.dialect, conn.remoteProperties);
      const plan =
        this.kind.destination === 'queue' ? await dialect.queueTarget(conn, this.s.destination) : await dialect.topicTarget(conn, this.s.destination);
      const sender = await conn.openSender({ target: plan.target as never, snd_settle_mode: 0, autosettle: true } as never);
      return { conn, sender, dialect, plan, pending: new Map(), alive: true };
    } catch (e) {
      await conn.close(500);
      throw e;
    }
  }

  private attach(session: Session): void {
    this.lastActivity = Date.now();
    this.env.status.count('connects');
    this.env.logger.info('attached', { component: this.env.name, address: session.plan.address, dialect: session.dialect.name });
    const sender = session.sender;
    sender.on(
      'accepted',
      this.ctx.guard((c: EventContext) => this.onAccepted(session, c.delivery as Delivery)),
    );
    // rhea reports 'modified' as 'released' (treat_modified_as_released)
    sender.on(
      'released',
      this.ctx.guard((c: EventContext) => this.onRefused(session, c.delivery as Delivery, 'released')),
    );
    sender.on(
      'rejected',
      this.ctx.guard((c: EventContext) => this.onRefused(session, c.delivery as Delivery, 'rejected')),
    );
    sender.on(
      'settled',
      this.ctx.guard((c: EventContext) => this.onSettledWithoutOutcome(session, c.delivery as Delivery)),
    );
    sender.on(
      'sendable',
      this.ctx.guard(() => this.sender.flush()),
    );
    session.conn.onLost((err) => this.ctx.guard(() => this.sender.lost(session, err))());
  }

  // ------------------------------------------------------------------ hibernation (MaxIdleTime)

  private checkIdle(): void {
    if (!this.sender.session?.alive || this.hibernating || !this.sender.idle) return;
    if (Date.now() - this.lastActivity < this.s.maxIdleMs) return;
    this.hibernating = true;
    this.sender.suspend();
    this.env.status.set('DISABLED', `idle for ${this.s.maxIdleMs / 1000} s: disconnected until the next message (MaxIdleTime)`);
    this.env.logger.info('idle: disconnected until the next message', { component: this.env.name, maxIdleTime: this.s.maxIdleMs / 1000 });
  }

  private wake(): void {
    if (!this.hibernating) return;
    this.hibernating = false;
    this.sender.start();
  }

  // ------------------------------------------------------------------ sending

  private onMessage(taken: Taken<Message>): void {
    this.lastActivity = Date.now();
    this.wake();
    this.sender.submit({ taken, refusals: 0 });
  }

  private send(session: Session, send: Send): SendResult {
    const msg = send.taken.item;
    const h = msg.headers;
    if (this.guardArmed) {
      this.guardArmed = false;
      if (h.JMSMessageID !== undefined && h.JMSMessageID === this.lastAcceptedId) {
        this.env.logger.warn('not sending again the message the broker accepted last (same JMSMessageID, right after a retry)', {
          component: this.env.name,
          messageId: h.JMSMessageID,
        });
        this.env.status.count('duplicateSkipped');
        this.sender.finish(send, 'done');
        return 'handled';
      }
    }
    if (h.JMSMessageID === undefined || h.JMSMessageID === '') h.JMSMessageID = `ID:xroute-${randomUUID()}`;
    let bytes: Buffer;
    try {
      // Without Persistence and without a delivery mode of its own, a message goes persistent (the JMS default).
      const durable = this.s.durable ?? h.JMSDeliveryMode !== 1;
      const amqp = messageToAmqp(msg, { textMode: this.s.textMode, durable, priority: this.s.priority, ttlMs: this.s.ttlMs });
      amqp.to = session.plan.address;
      if (tracingActive())
        tracePublish(msg, { component: this.env.name, system: session.dialect.name, destination: this.s.destination }, (amqp.application_properties ??= {}));
      bytes = encodeAmqpMessage(amqp);
    } catch (e) {
      tracePublished(msg, 'cannot convert the message for sending');
      this.env.logger.error('cannot convert a message for sending; removing it as failed', {
        component: this.env.name,
        messageId: h.JMSMessageID,
        error: describe(e),
      });
      this.env.status.count('failed');
      this.sender.finish(send, 'failed');
      return 'handled';
    }
    const delivery = session.conn.sendEncoded(session.sender, bytes);
    session.pending.set(delivery, send);
    this.env.status.count('sent');
    return 'handled';
  }

  private onAccepted(session: Session, delivery: Delivery): void {
    const send = session.pending.get(delivery);
    if (!send) return;
    session.pending.delete(delivery);
    const msg = send.taken.item;
    if (msg.headers.JMSMessageID !== undefined) this.lastAcceptedId = msg.headers.JMSMessageID;
    this.env.status.count('accepted');
    if (this.s.displayMask !== 0) displayMessage(this.env.logger, 'sent', msg, this.s.displayMask);
    tracePublished(msg);
    this.lastActivity = Date.now();
    this.sender.finish(send, 'done');
    this.sender.flush();
  }

  /** A settlement without an outcome: the link's default outcome, which for a JMS target is accepted. */
  private onSettledWithoutOutcome(session: Session, delivery: Delivery): void {
    if (!session.pending.has(delivery)) return;
    this.env.status.count('settledWithoutOutcome');
    this.onAccepted(session, delivery);
  }

  private onRefused(session: Session, delivery: Delivery, how: 'rejected' | 'released'): void {
    const send = session.pending.get(delivery);
    if (!send) return;
    session.pending.delete(delivery);
    send.refusals++;
    const error = deliveryRejection(delivery);
    const meta = {
      component: this.env.name,
      messageId: send.taken.item.headers.JMSMessageID,
      address: session.plan.address,
      refusals: send.refusals,
      condition: error?.condition,
      reason: error?.description,
    };
    this.env.status.count(how);
    if (send.refusals > this.s.sendRetries) {
      this.env.logger.error(`message ${how} by the broker ${send.refusals} times; removing it as failed`, meta);
      tracePublished(send.taken.item, `${how} by the broker`);
      this.env.status.count('failed');
      this.sender.finish(send, 'failed');
      this.sender.flush();
      return;
    }
    this.env.logger.warn(`message ${how} by the broker; sending it again in ${this.s.retryDelayMs} ms`, meta);
    this.sender.retryLater(send, this.s.retryDelayMs);
  }
}

/** The ComponentDefinition of a JMS sender (JMSPersister or JMSPublisher). */
export function jmsSenderComponent(kind: JmsSenderKind, description: string): ComponentDefinition<never, JmsSenderSettings> {
  return {
    className: `persister.${kind.className}`,
    role: 'persister',
    needsInput: true,
    operations: [kind.operation],
    description,
    schema: jmsSenderSchema(kind),
    settings: (name, config, baseDir) => readSenderSettings(kind, name, config, baseDir),
    validate: (config, baseDir) => jmsMigrationIssues(config, readSenderSettings(kind, kind.className, config, baseDir)),
    create: (env, settings) => new JmsSender(env, kind, settings),
  };
}
