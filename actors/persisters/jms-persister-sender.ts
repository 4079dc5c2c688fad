/**
 * The send side of JMSPersister (queue) and JMSPublisher (topic) over AMQP 1.0 (rhea).
 *
 * Safety: a message leaves the input XQueue only when the broker settled its delivery as accepted. Sends
 * are unsettled (snd_settle_mode 0) and tracked per delivery; up to MaxInFlight await their settlement at
 * once (pipelined; the link's credit is honoured by rhea, which holds transfers until credit arrives).
 * rhea loses, without a word, what is sent on a dead connection (reference/brokers.md), so nothing is sent
 * unless the connection is open, and every send still unsettled when the link dies is sent again on the
 * next connection (at-least-once: the broker may have taken it and lost only the settlement).
 *
 * A message the broker rejects or releases (or modifies) is sent again after RetryDelay ms, up to
 * SendRetries times; then it is removed with outcome 'failed' and its producer decides (a JMSReceiver or
 * JMSSubscriber upstream settles its own delivery per FailedOutcome).
 *
 * Duplicate guard (components.md §6.2): right after a retry (reconnection, or a restart of the actor), a
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
import { ComponentDefinition, ComponentEnv } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { displayMessage } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { Taken, XQueue } from '../../src/xqueue/xqueue';
import { Amqp10Connection, endpointLabel } from '../../src/transports/amqp10-connection';
import { chooseDialect, Dialect, TargetPlan } from '../../src/transports/amqp10-dialect';
import { JmsConfigError, isFatalAmqp10Error } from '../../src/transports/amqp10-errors';
import { messageToAmqp } from '../../src/transports/amqp10-mapping';
import { jmsConfigIssues, ineffectiveProperties } from '../support/jms-config';
import { JmsSenderKind, JmsSenderSettings, jmsSenderSchema, readSenderSettings, senderNoEffect } from './jms-persister-settings';

interface Session {
  readonly conn: Amqp10Connection;
  readonly sender: Sender;
  readonly dialect: Dialect;
  readonly plan: TargetPlan;
  /** Sends awaiting settlement, in send order. */
  readonly pending: Map<Delivery, Send>;
  alive: boolean;
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

const CLOSE_WAIT_MS = 2000;

export class JmsSender implements Behaviour<never> {
  private s!: JmsSenderSettings;
  private ctx!: ActorContext<never>;
  private input!: XQueue<Message>;
  private consumer?: QueueConsumer;
  private reconnector?: Reconnector<Session>;
  private session?: Session;
  /** Taken messages waiting for a (new) connection or for rhea's buffer, oldest first. */
  private unsent: Send[] = [];
  /** Refused messages waiting for their RetryDelay. */
  private delayed = 0;
  private stopping = false;
  private hibernating = false;
  /** Armed by a reconnection or a restart: the next message sent is checked against the last accepted id. */
  private guardArmed = false;
  private lastActivity = Date.now();
  private idleTimer?: TimerHandle;
  private pokeScheduled = false;

  constructor(
    private readonly env: ComponentEnv,
    private readonly kind: JmsSenderKind,
  ) {}

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const env = this.env;
    if (!env.input) throw new JmsConfigError(env.name, 'LinkName', `a ${this.kind.className} needs an input XQueue`);
    this.input = env.input;
    this.s = readSenderSettings(this.kind, env.name, env.config, env.baseDir);
    const resolved = this.s.connection.resolved;
    if (!reported.has(env)) {
      reported.add(env);
      const ineffective = ineffectiveProperties(resolved, senderNoEffect(env.config), env.config);
      if (ineffective.length > 0) env.logger.warn('properties have no effect over AMQP 1.0', { component: env.name, properties: ineffective });
    }
    env.logger.info('starting', { component: env.name, endpoint: endpointLabel(resolved.endpoint), via: resolved.via, [this.kind.destination]: this.s.destination });
    this.guardArmed = ctx.incarnation > 0;
    this.consumer = ctx.consume(this.input, (taken) => this.onMessage(taken), { maxInFlight: this.s.maxInFlight });
    this.connect();
    if (this.s.maxIdleMs > 0) this.idleTimer = ctx.setInterval(() => this.checkIdle(), Math.max(50, Math.min(this.s.maxIdleMs, 1000)));
  }

  async stop(_ctx: ActorContext<never>, reason: StopReason): Promise<void> {
    this.stopping = true;
    this.ctx.clearTimer(this.idleTimer);
    this.reconnector?.stop();
    const session = this.session;
    this.session = undefined;
    if (session?.alive) {
      // The runtime puts every held message back; settlements still due are awaited briefly so that what
      // the broker already has is not sent twice more often than needed.
      if (reason === 'stop' && session.pending.size > 0) await this.settled(session, CLOSE_WAIT_MS);
      session.alive = false;
      session.conn.closeLink(session.sender);
      await session.conn.close();
    }
    if (this.env.status.status !== 'FAILED') this.env.status.set('STOPPED');
  }

  // ------------------------------------------------------------------ connection

  private connect(): void {
    const s = this.s;
    this.reconnector = new Reconnector<Session>({
      name: this.env.name,
      connect: () => this.open(),
      onConnected: (session) => this.connected(session),
      isFatal: isFatalAmqp10Error,
      // Configuration errors are FAILED with the reason and retried only on the slow schedule.
      fatalRetryMs: this.ctx.policy.fatalRetryMs,
      backoff: s.connection.reconnect.backoff,
      tolerance: s.connection.reconnect.tolerance,
      maxRetry: s.connection.reconnect.maxRetry,
      logger: this.env.logger,
      status: this.env.status,
      timers: { setTimeout: (fn, ms) => this.ctx.setTimeout(fn, ms), clearTimer: (h) => this.ctx.clearTimer(h as TimerHandle) },
    });
    this.reconnector.start();
  }

  private async open(): Promise<Session> {
    const conn = await Amqp10Connection.open({ endpoint: this.s.connection.resolved.endpoint, containerId: this.s.connection.clientId });
    try {
      const dialect = chooseDialect(this.s.connection.dialect, conn.remoteProperties);
      const plan = this.kind.destination === 'queue' ? await dialect.queueTarget(conn, this.s.destination) : await dialect.topicTarget(conn, this.s.destination);
      const sender = await conn.openSender({ target: plan.target as never, snd_settle_mode: 0, autosettle: true } as never);
      if (this.stopping) throw new Error('stopped while connecting');
      return { conn, sender, dialect, plan, pending: new Map(), alive: true };
    } catch (e) {
      await conn.close(500);
      throw e;
    }
  }

  private connected(session: Session): void {
    if (this.stopping || this.hibernating) {
      void session.conn.close();
      return;
    }
    this.session = session;
    this.lastActivity = Date.now();
    this.env.status.count('connects');
    this.env.logger.info('attached', { component: this.env.name, address: session.plan.address, dialect: session.dialect.name });
    const sender = session.sender;
    sender.on('accepted', this.ctx.guard((c: EventContext) => this.onAccepted(session, c.delivery as Delivery)));
    // rhea reports 'modified' as 'released' (treat_modified_as_released)
    sender.on('released', this.ctx.guard((c: EventContext) => this.onRefused(session, c.delivery as Delivery, 'released')));
    sender.on('rejected', this.ctx.guard((c: EventContext) => this.onRefused(session, c.delivery as Delivery, 'rejected')));
    sender.on('settled', this.ctx.guard((c: EventContext) => this.onSettledWithoutOutcome(session, c.delivery as Delivery)));
    sender.on('sendable', this.ctx.guard(() => this.flush()));
    session.conn.onLost((err) => this.ctx.guard(() => this.lost(session, err))());
    this.flush();
  }

  /** Every send still unsettled on the dead link is sent again, first, on the next connection. */
  private lost(session: Session, err: Error): void {
    if (!session.alive) return;
    session.alive = false;
    if (this.session === session) this.session = undefined;
    const again = [...session.pending.values()];
    session.pending.clear();
    this.unsent = again.concat(this.unsent);
    this.env.status.count('disconnects');
    if (again.length > 0) this.env.status.count('resent', again.length);
    this.guardArmed = true;
    if (!this.stopping) this.reconnector?.lost(err, session);
  }

  // ------------------------------------------------------------------ hibernation (MaxIdleTime)

  private checkIdle(): void {
    const session = this.session;
    if (!session?.alive || this.hibernating || session.pending.size > 0 || this.unsent.length > 0 || this.delayed > 0) return;
    if (Date.now() - this.lastActivity < this.s.maxIdleMs) return;
    this.hibernating = true;
    this.reconnector?.stop();
    this.reconnector = undefined;
    this.session = undefined;
    session.alive = false;
    session.conn.closeLink(session.sender);
    void session.conn.close();
    this.env.status.set('DISABLED', `idle for ${this.s.maxIdleMs / 1000} s: disconnected until the next message (MaxIdleTime)`);
    this.env.logger.info('idle: disconnected until the next message', { component: this.env.name, maxIdleTime: this.s.maxIdleMs / 1000 });
  }

  private wake(): void {
    if (!this.hibernating) return;
    this.hibernating = false;
    this.connect();
  }

  // ------------------------------------------------------------------ sending

  private onMessage(taken: Taken<Message>): void {
    this.lastActivity = Date.now();
    this.unsent.push({ taken, refusals: 0 });
    this.wake();
    this.flush();
  }

  private flush(): void {
    while (this.unsent.length > 0) {
      const session = this.session;
      // rhea drops a send on a dead connection silently: only an open one gets anything.
      if (!session?.alive || this.stopping || !session.conn.isOpen() || !session.sender.is_open()) return;
      if (!hasRoom(session.sender)) return; // 'sendable' or a settlement calls flush again
      this.send(session, this.unsent.shift() as Send);
    }
  }

  private send(session: Session, send: Send): void {
    const msg = send.taken.item;
    const h = msg.headers;
    if (this.guardArmed) {
      this.guardArmed = false;
      if (h.JMSMessageID !== undefined && h.JMSMessageID === lastAccepted.get(this.env)) {
        this.env.logger.warn('not sending again the message the broker accepted last (same JMSMessageID, right after a retry)', { component: this.env.name, messageId: h.JMSMessageID });
        this.env.status.count('duplicateSkipped');
        this.finish(send.taken, 'done');
        return;
      }
    }
    if (h.JMSMessageID === undefined || h.JMSMessageID === '') h.JMSMessageID = `ID:xroute-${randomUUID()}`;
    let amqp;
    try {
      // Without Persistence and without a delivery mode of its own, a message goes persistent (the JMS default).
      const durable = this.s.durable ?? h.JMSDeliveryMode !== 1;
      amqp = messageToAmqp(msg, { textMode: this.s.textMode, durable, priority: this.s.priority, ttlMs: this.s.ttlMs });
      amqp.to = session.plan.address;
    } catch (e) {
      this.env.logger.error('cannot convert a message for sending; removing it as failed', { component: this.env.name, messageId: h.JMSMessageID, error: describe(e) });
      this.env.status.count('failed');
      this.finish(send.taken, 'failed');
      return;
    }
    const delivery = session.sender.send(amqp as never);
    session.pending.set(delivery, send);
    this.env.status.count('sent');
  }

  private onAccepted(session: Session, delivery: Delivery): void {
    const send = session.pending.get(delivery);
    if (!send) return;
    session.pending.delete(delivery);
    const msg = send.taken.item;
    if (msg.headers.JMSMessageID !== undefined) lastAccepted.set(this.env, msg.headers.JMSMessageID);
    this.env.status.count('accepted');
    if (this.s.displayMask !== 0) displayMessage(this.env.logger, 'sent', msg, this.s.displayMask);
    this.lastActivity = Date.now();
    this.finish(send.taken, 'done');
    this.flush();
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
    const error = (delivery as unknown as { remote_state?: { error?: { condition?: string; description?: string } } }).remote_state?.error;
    const meta = { component: this.env.name, messageId: send.taken.item.headers.JMSMessageID, address: session.plan.address, refusals: send.refusals, condition: error?.condition, reason: error?.description };
    this.env.status.count(how);
    if (send.refusals > this.s.sendRetries) {
      this.env.logger.error(`message ${how} by the broker ${send.refusals} times; removing it as failed`, meta);
      this.env.status.count('failed');
      this.finish(send.taken, 'failed');
      this.flush();
      return;
    }
    this.env.logger.warn(`message ${how} by the broker; sending it again in ${this.s.retryDelayMs} ms`, meta);
    this.delayed++;
    this.ctx.setTimeout(() => {
      this.delayed--;
      this.unsent.push(send);
      this.flush();
    }, this.s.retryDelayMs);
  }

  private finish(taken: Taken<Message>, outcome: 'done' | 'failed'): void {
    this.input.remove(taken, outcome);
    // Settlements come in bursts: wake the consumer once per burst, not once per message.
    if (!this.pokeScheduled) {
      this.pokeScheduled = true;
      queueMicrotask(() => {
        this.pokeScheduled = false;
        this.consumer?.poke();
      });
    }
  }

  /** Resolves when every pending send of `session` is settled, or after `timeoutMs`. */
  private settled(session: Session, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    return new Promise<void>((resolve) => {
      const check = () => {
        if (session.pending.size === 0 || !session.alive || Date.now() >= deadline) resolve();
        else setTimeout(check, 20);
      };
      check();
    });
  }
}

/** rhea's session keeps a bounded buffer of outgoing deliveries; a send beyond it would throw. */
function hasRoom(sender: Sender): boolean {
  const outgoing = (sender as unknown as { session?: { outgoing?: { available(): boolean } } }).session?.outgoing;
  return outgoing === undefined || outgoing.available();
}


/** The ComponentDefinition of a JMS sender (JMSPersister or JMSPublisher). */
export function jmsSenderComponent(kind: JmsSenderKind, description: string): ComponentDefinition {
  return {
    className: `persister.${kind.className}`,
    role: 'persister',
    operations: [kind.operation],
    description,
    schema: jmsSenderSchema(kind),
    validate: (config, baseDir) => jmsConfigIssues(() => readSenderSettings(kind, typeof config.Name === 'string' ? config.Name : kind.className, config, baseDir), config),
    create: (env) => new JmsSender(env, kind),
  };
}
