/**
 * JMSPersister (operation `put`, components.md §6.2): sends each message of its input XQueue to the JMS
 * queue QueueName over AMQP 1.0 (rhea), removing it only once the broker accepted it. The send side is
 * shared with JMSPublisher: actors/persisters/jms-persister-sender.ts. The queue address is the dialect's
 * (ActiveMQ/Artemis `queue://name`; RabbitMQ `/amq/queue/name`, the durable queue declared first).
 */
import { ComponentDefinition } from '../../src/runtime/component';
import { configIssues } from '../support/jms-config';
import { createJmsSender } from './jms-persister-sender';
import { JMS_PERSISTER_KIND, jmsSenderSchema, readSenderSettings } from './jms-persister-settings';

export const JMS_PERSISTER: ComponentDefinition = {
  className: 'persister.JMSPersister',
  role: 'persister',
  operations: [JMS_PERSISTER_KIND.operation],
  description: 'Sends the messages of its input XQueue to a JMS queue over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ); a message leaves the XQueue only once the broker accepted it',
  schema: jmsSenderSchema(JMS_PERSISTER_KIND),
  validate: (config, baseDir) => configIssues(() => readSenderSettings(JMS_PERSISTER_KIND, typeof config.Name === 'string' ? config.Name : 'JMSPersister', config, baseDir)),
  create: (env) => createJmsSender(env, JMS_PERSISTER_KIND),
};
