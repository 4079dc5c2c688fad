/**
 * JMSSubscriber (operation `sub`, components.md §7): subscribes to a JMS topic over AMQP 1.0 (rhea) and
 * writes every selected message to its output XQueue, with credit only for free cells, accept after the
 * downstream work (XAMode 1) or once queued (XAMode 0), and reconnection through the Reconnector that
 * resubscribes the same durable subscription. The broker work lives in src/transports/amqp10-*.ts.
 */
import { randomUUID } from 'crypto';
import { Behaviour } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv } from '../../src/runtime/component';
import { displayMessage } from '../../src/logging/display';
import { Amqp10Consumer } from '../../src/transports/amqp10-consumer';
import { JmsConfigError } from '../../src/transports/amqp10-errors';
import { endpointLabel } from '../../src/transports/amqp10-connection';
import { configIssues, ineffectiveProperties } from '../support/jms-config';
import { JMS_SUBSCRIBER_SCHEMA, SUBSCRIBER_NO_EFFECT, readSubscriberSettings } from './jms-subscriber-settings';

/** Components whose no-effect properties were already reported (once per component, not per restart). */
const reported = new WeakSet<ComponentEnv>();

export const JMS_SUBSCRIBER: ComponentDefinition = {
  className: 'receiver.JMSSubscriber',
  role: 'receiver',
  operations: ['sub'],
  description: 'Subscribes to a JMS topic over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ) into an XQueue',
  schema: JMS_SUBSCRIBER_SCHEMA,
  validate: (config, baseDir) => configIssues(() => readSubscriberSettings(typeof config.Name === 'string' ? config.Name : 'JMSSubscriber', config, baseDir)),
  create: (env) => jmsSubscriber(env),
};

function jmsSubscriber(env: ComponentEnv): Behaviour<never> {
  let consumer: Amqp10Consumer | undefined;
  return {
    start(ctx) {
      const output = env.output;
      if (!output) throw new JmsConfigError(env.name, 'LinkName', 'a JMSSubscriber needs an output XQueue');
      const s = readSubscriberSettings(env.name, env.config, env.baseDir, output.capacity);
      const resolved = s.connection.resolved;
      if (!reported.has(env)) {
        reported.add(env);
        const ineffective = ineffectiveProperties(resolved, SUBSCRIBER_NO_EFFECT, env.config);
        if (ineffective.length > 0) env.logger.warn('properties have no effect over AMQP 1.0', { component: env.name, properties: ineffective });
      }
      env.logger.info('starting', { component: env.name, endpoint: endpointLabel(resolved.endpoint), via: resolved.via, topic: s.topic, durable: s.subscriptionId !== undefined, selector: s.selectorText, xaMode: s.xaMode });
      const instanceId = `${process.pid}-${randomUUID().slice(0, 8)}`;
      consumer = new Amqp10Consumer({
        name: env.name,
        output,
        partition: s.partition,
        endpoint: resolved.endpoint,
        containerId: s.connection.clientId,
        dialect: s.connection.dialect,
        plan: (dialect, conn) => dialect.subscription(conn, { topic: s.topic, clientId: s.connection.clientId, subscriptionId: s.subscriptionId, selector: s.selectorText, instanceId }),
        xaMode: s.xaMode,
        selector: s.selector,
        decorate: (msg) => {
          s.stamp(msg);
          displayMessage(env.logger, 'received', msg, s.displayMask, s.displayProperties);
        },
        failedOutcome: s.failedOutcome,
        reconnect: s.connection.reconnect,
        timers: { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms), clearTimer: (h) => ctx.clearTimer(h as never) },
        guard: (fn) => ctx.guard(fn),
        logger: env.logger,
        status: env.status,
        exceptionListener: s.exceptionListener,
        onGiveUp: (error) => ctx.fail(error),
      });
      consumer.start();
      if (!s.daemon) {
        // Non-daemon: stop after ReceiveTime ms without a message (the original's "job done" rule).
        const c = consumer;
        const timer = ctx.setInterval(() => {
          if (!c.isConnected || c.idleMs() < s.receiveTimeMs) return;
          ctx.clearTimer(timer);
          c.finish();
          env.status.set('STOPPED', `no message for ${s.receiveTimeMs} ms (Mode is not daemon)`);
          env.logger.info('stopped: topic quiet', { component: env.name, counters: env.status.get().counters });
        }, Math.max(50, Math.min(s.receiveTimeMs, 1000)));
      }
    },
    async stop() {
      await consumer?.stop();
      consumer = undefined;
      if (env.status.status !== 'FAILED') env.status.set('STOPPED');
    },
  };
}
