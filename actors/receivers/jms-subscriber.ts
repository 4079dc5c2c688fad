/**
 * JMSSubscriber (operation `sub`, docs/components/jms-subscriber.md): subscribes to a JMS topic over AMQP 1.0 (rhea) and
 * writes every selected message to its output XQueue, with credit only for free cells, accept after the
 * downstream work (XAMode 1) or once queued (XAMode 0), and reconnection through the Reconnector that
 * resubscribes the same durable subscription. The receive side is shared with JMSReceiver
 * (actors/receivers/jms-consumer.ts); the consumer (credit, settlement) is actors/receivers/amqp10-consumer.ts, the broker connection and mapping src/transports/amqp10-*.ts.
 */
import { ComponentDefinition } from '../../src/runtime/component';
import { jmsMigrationIssues } from '../support/jms-config';
import { jmsConsumerBehaviour } from './jms-consumer';
import { JMS_SUBSCRIBER_SCHEMA, JmsSubscriberSettings, SUBSCRIBER_NO_EFFECT, readSubscriberSettings } from './jms-subscriber-settings';

export const JMS_SUBSCRIBER: ComponentDefinition<never, JmsSubscriberSettings> = {
  className: 'receiver.JMSSubscriber',
  role: 'receiver',
  needsOutput: true,
  operations: ['sub'],
  description: 'Subscribes to a JMS topic over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ) into an XQueue',
  schema: JMS_SUBSCRIBER_SCHEMA,
  settings: (name, config, baseDir, context) => readSubscriberSettings(name, config, baseDir, context.outputCapacity),
  validate: (config, baseDir) => jmsMigrationIssues(config, readSubscriberSettings('JMSSubscriber', config, baseDir)),
  create: (env, settings) =>
    jmsConsumerBehaviour(env, settings, {
      noEffect: SUBSCRIBER_NO_EFFECT,
      plan: (s, instanceId) => (dialect, conn) =>
        dialect.subscription(conn, { topic: s.topic, clientId: s.connection.clientId, subscriptionId: s.subscriptionId, selector: s.selectorText, instanceId }),
      describe: (s) => ({ topic: s.topic, durable: s.subscriptionId !== undefined }),
    }),
};
