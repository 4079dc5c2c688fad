/**
 * AmqpPersister (the original's RMQPersister), operation `pub`: publishes the messages of its input
 * XQueue to an exchange with a fixed or templated (`##field##`) routing key, on a confirm channel.
 *
 * A message is removed from the XQueue only when the broker has confirmed it, so a crash, a lost
 * connection or a broker restart never loses one (it is published again: at least once). Publishes are
 * pipelined: up to MaxInFlight await their confirm at once. Every publish is mandatory, so an unroutable
 * message comes back (basic.return) and follows ReturnPolicy; a broker nack follows NackPolicy:
 *   fail  - removed with outcome 'failed': its producer decides (an AmqpReceiver nacks it per FailurePolicy);
 *   retry - published again after RetryDelay ms (it stays in the XQueue meanwhile);
 *   drop  - removed as done, with an error in the log.
 */
import type { ConfirmChannel, Message as AmqpMessage } from 'amqplib';
import { ActorContext, Behaviour, QueueConsumer, StopReason } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv, inputOf } from '../../src/runtime/component';
import { ReconnectingSender, SendResult, SenderTransport } from '../../src/runtime/reconnecting-sender';
import { amqpReconnector, reportSessionLost } from '../support/amqp091-config';
import { FailureSummary } from '../../src/logging/failure-summary';
import { displayMessage } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { Taken } from '../../src/xqueue/xqueue';
import { messageToAmqp } from '../../src/transports/amqp091-mapping';
import { tracePublish, tracePublished, tracingActive } from '../../src/tracing/message-trace';
import { settleWithin } from '../../src/transports/amqp091-connection';
import { AmqpSessionBase, openAmqpSession } from '../../src/transports/amqp091-session';
import { declareExchange, declareQueue } from '../../src/transports/amqp091-topology';
import { AMQP_PERSISTER_SCHEMA, AmqpPersisterSettings, PublishFailurePolicy, readPersisterSettings } from './amqp-persister-settings';
import { isBrokerNack } from '../../src/transports/amqp091-errors';
import { publishConfirmed } from '../../src/transports/amqp091-publish';

interface Session extends AmqpSessionBase {
  readonly ch: ConfirmChannel;
  /** Publishes awaiting their confirm, in publish order. */
  readonly inFlight: Set<Publish>;
}

interface Publish {
  readonly taken: Taken<Message>;
  readonly session: Session;
  readonly routingKey: string;
  readonly content: Buffer;
  returned: boolean;
  settled: boolean;
}

const CLOSE_TIMEOUT_MS = 2000;

/**
 * The actor: reads its settings and hands the AMQP 0-9-1 side (confirm channel, publish, basic.return and
 * confirms) to the shared ReconnectingSender, which owns reconnection, re-publishing and removal.
 */
class AmqpPersister implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private consumer?: QueueConsumer;
  private sender?: ReconnectingSender<Session, Taken<Message>>;
  private failures!: FailureSummary;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: AmqpPersisterSettings,
  ) {}

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const env = this.env;
    const input = inputOf(env);
    this.failures = new FailureSummary(env.logger, env.name, 'publishes failed', { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms) });
    const sender = new ReconnectingSender<Session, Taken<Message>>({
      transport: this.transport(),
      input,
      taken: (taken) => taken,
      poke: () => this.consumer?.poke(),
      timers: { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms) },
    });
    this.sender = sender;
    this.consumer = ctx.consume(input, (taken) => sender.submit(taken), { maxInFlight: this.s.maxInFlight });
    sender.start();
  }

  async stop(_ctx: ActorContext<never>, reason: StopReason): Promise<void> {
    this.failures?.flush();
    // The runtime has put every held message back already; confirms still due are waited for briefly.
    await this.sender?.stop(reason === 'stop');
    if (this.env.status.status !== 'FAILED' && this.env.status.status !== 'STOPPED') this.env.status.set('STOPPED');
  }

  private transport(): SenderTransport<Session, Taken<Message>> {
    return {
      open: () => this.open(),
      reconnector: (connect, onConnected, discard) => amqpReconnector<Session>(this.ctx, this.env, this.s.reconnect, connect, onConnected, discard),
      attach: () => this.env.status.count('connects'),
      ready: () => true,
      send: (session, taken) => this.publish(session, taken),
      unconfirmed: (session) => session.inFlight.size,
      takeUnconfirmed: (session) => {
        const again: Taken<Message>[] = [];
        for (const p of session.inFlight) {
          p.settled = true;
          again.push(p.taken);
        }
        session.inFlight.clear();
        return again;
      },
      reportLost: (session, error, resent, reconnector) => {
        this.env.status.count('republished', resent);
        void session.conn.close().catch(() => undefined);
        reportSessionLost(this.env, reconnector, session, error, { republished: resent });
      },
      close: (session) => settleWithin(session.conn.close(), CLOSE_TIMEOUT_MS),
    };
  }

  private open(): Promise<Session> {
    return openAmqpSession<ConfirmChannel, Session>({
      component: this.env.name,
      connection: this.s.connection,
      confirm: true,
      create: (conn, ch) => ({ conn, ch, alive: true, inFlight: new Set() }),
      onLost: this.ctx.guard((s: Session, e: unknown) => this.sender?.lost(s, e)),
      setup: async (s, ch) => {
        ch.on(
          'return',
          this.ctx.guard((m: AmqpMessage) => this.onReturn(s, m)),
        );
        await declareExchange(this.env.name, ch, this.s.exchange);
        if (this.s.queue !== undefined) await declareQueue(this.env.name, ch, this.s.queue, this.s.exchange);
      },
    });
  }

  // ------------------------------------------------------------------ publishing

  private publish(session: Session, taken: Taken<Message>): SendResult {
    const s = this.s;
    const msg = taken.item;
    let routingKey: string;
    let content: Buffer;
    let options: ReturnType<typeof messageToAmqp>['options'];
    try {
      routingKey = s.routingKey(msg);
      ({ content, options } = messageToAmqp(msg));
    } catch (e) {
      this.env.logger.error('cannot convert a message for publishing; removing it as failed', {
        component: this.env.name,
        messageId: msg.headers.JMSMessageID,
        error: (e as Error).message,
      });
      this.finish(taken, 'failed', `cannot convert the message for publishing: ${(e as Error).message}`);
      return 'handled';
    }
    options.mandatory = true;
    if (tracingActive())
      tracePublish(msg, { component: this.env.name, system: 'rabbitmq', destination: s.exchange.name || routingKey, routingKey }, (options.headers ??= {}));
    const p: Publish = { taken, session, routingKey, content, returned: false, settled: false };
    session.inFlight.add(p);
    try {
      publishConfirmed(session.ch, s.exchange.name, routingKey, content, options, (err: unknown) => this.confirmed(p, err));
    } catch (e) {
      // The channel closed under us; its close event re-queues the message and reconnects.
      session.inFlight.delete(p);
      return 'not-sent';
    }
    this.env.status.count('published');
    if (s.displayMask !== 0) displayMessage(this.env.logger, 'published', msg, s.displayMask);
    return 'handled';
  }

  /** basic.return (unroutable) comes before the confirm of the same publish: mark the oldest match. */
  private onReturn(session: Session, m: AmqpMessage): void {
    for (const p of session.inFlight) {
      if (!p.returned && p.routingKey === m.fields.routingKey && p.content.equals(m.content)) {
        p.returned = true;
        return;
      }
    }
  }

  private confirmed(p: Publish, err: unknown): void {
    if (p.settled) return; // the channel died first: it is being published again
    // amqplib fails every pending confirm with 'channel closed' just before the close event; lost() then
    // publishes those again. Only a nack (isBrokerNack) settles it here.
    if (err instanceof Error && !isBrokerNack(err)) return;
    p.settled = true;
    p.session.inFlight.delete(p);
    if (err !== null && err !== undefined) this.failed(p.taken, this.s.nackPolicy, 'nacked by the broker');
    else if (p.returned) this.failed(p.taken, this.s.returnPolicy, `unroutable on exchange "${this.s.exchange.name}", routing key "${p.routingKey}"`);
    else {
      this.env.status.count('confirmed');
      this.finish(p.taken, 'done');
    }
  }

  private failed(taken: Taken<Message>, policy: PublishFailurePolicy, why: string): void {
    const meta = { component: this.env.name, policy, messageId: taken.item.headers.JMSMessageID };
    this.env.status.count(why.startsWith('unroutable') ? 'returned' : 'nacked');
    switch (policy) {
      case 'fail':
        this.failures.record(why, `message ${why}; removing it as failed`, meta);
        this.finish(taken, 'failed', why);
        return;
      case 'drop':
        this.env.logger.error(`message ${why}; dropped (policy drop)`, meta);
        this.finish(taken, 'done');
        return;
      case 'retry':
        this.failures.record(why, `message ${why}; publishing it again in ${this.s.retryDelayMs} ms`, meta);
        this.sender?.retryLater(taken, this.s.retryDelayMs);
        return;
    }
  }

  private finish(taken: Taken<Message>, outcome: 'done' | 'failed', reason?: string): void {
    tracePublished(taken.item, outcome === 'failed' ? reason : undefined);
    this.sender?.finish(taken, outcome, reason);
  }
}

export const AMQP_PERSISTER: ComponentDefinition<never, AmqpPersisterSettings> = {
  className: 'persister.AmqpPersister',
  aliases: ['persister.RMQPersister'],
  role: 'persister',
  needsInput: true,
  operations: ['pub'],
  description:
    'Publishes the messages of its input XQueue to a RabbitMQ exchange with publisher confirms; a message leaves the XQueue only once the broker confirmed it.',
  schema: AMQP_PERSISTER_SCHEMA,
  settings: readPersisterSettings,
  create: (env, settings) => new AmqpPersister(env, settings),
};
