/**
 * JMSReceiver (operation `get`, docs/components/jms-queues.md): consumes a JMS queue over AMQP 1.0 (rhea) into its
 * output XQueue. Everything but the source is JMSSubscriber's receive side (actors/receivers/jms-consumer.ts):
 * credit only for free cells of the Partition, accept after the downstream removed the message (XAMode 1,
 * the default) or once it is in the XQueue (XAMode 0), FailedOutcome for messages the downstream gave up on,
 * MessageSelector sent as the JMS filter and applied locally, StringProperty, Mode daemon / stop after
 * ReceiveTime ms of silence, reconnection through the Reconnector. The queue address is the dialect's
 * (ActiveMQ/Artemis `queue://name`; RabbitMQ `/amq/queue/name`, the durable queue declared first).
 */
import { ComponentDefinition } from '../../src/runtime/component';
import { jmsMigrationIssues } from '../support/jms-config';
import { jmsConsumerBehaviour } from './jms-consumer';
import { JMS_RECEIVER_SCHEMA, JmsReceiverSettings, RECEIVER_NO_EFFECT, readReceiverSettings } from './jms-receiver-settings';

export const JMS_RECEIVER: ComponentDefinition<never, JmsReceiverSettings> = {
  className: 'receiver.JMSReceiver',
  role: 'receiver',
  needsOutput: true,
  operations: ['get'],
  description: 'Receives from a JMS queue over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ) into an XQueue',
  schema: JMS_RECEIVER_SCHEMA,
  settings: (name, config, baseDir, context) => readReceiverSettings(name, config, baseDir, context.outputCapacity),
  validate: (config, baseDir) => jmsMigrationIssues(config, readReceiverSettings('JMSReceiver', config, baseDir)),
  create: (env, settings) =>
    jmsConsumerBehaviour(env, settings, {
      noEffect: RECEIVER_NO_EFFECT,
      plan: (s, instanceId) => (dialect, conn) => dialect.queueSource(conn, { queue: s.queue, selector: s.selectorText, instanceId }),
      describe: (s) => ({ queue: s.queue }),
      unselected: (s) => s.unselected,
    }),
};
