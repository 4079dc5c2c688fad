/**
 * JMSPublisher (operation `pub`, components.md §6.3): JMSPersister's behaviour, publishing to the JMS topic
 * TopicName (ActiveMQ/Artemis `topic://name`; RabbitMQ: the routing key on amq.topic, or
 * `/exchange/<exchange>/<key>`). ClientID is optional (it becomes the AMQP container id).
 */
import { ComponentDefinition } from '../../src/runtime/component';
import { configIssues } from '../support/jms-config';
import { createJmsSender } from './jms-persister-sender';
import { JMS_PUBLISHER_KIND, jmsSenderSchema, readSenderSettings } from './jms-persister-settings';

export const JMS_PUBLISHER: ComponentDefinition = {
  className: 'persister.JMSPublisher',
  role: 'persister',
  operations: [JMS_PUBLISHER_KIND.operation],
  description: 'Publishes the messages of its input XQueue to a JMS topic over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ); a message leaves the XQueue only once the broker accepted it',
  schema: jmsSenderSchema(JMS_PUBLISHER_KIND),
  validate: (config, baseDir) => configIssues(() => readSenderSettings(JMS_PUBLISHER_KIND, typeof config.Name === 'string' ? config.Name : 'JMSPublisher', config, baseDir)),
  create: (env) => createJmsSender(env, JMS_PUBLISHER_KIND),
};
