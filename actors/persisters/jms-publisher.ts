/**
 * JMSPublisher (operation `pub`, docs/components/jms-queues.md): JMSPersister's behaviour, publishing to the JMS topic
 * TopicName (ActiveMQ/Artemis `topic://name`; RabbitMQ: the routing key on amq.topic, or
 * `/exchange/<exchange>/<key>`). ClientID is optional (it becomes the AMQP container id).
 */
import { jmsSenderComponent } from './jms-persister-sender';
import { JMS_PUBLISHER_KIND } from './jms-persister-settings';

export const JMS_PUBLISHER = jmsSenderComponent(
  JMS_PUBLISHER_KIND,
  'Publishes the messages of its input XQueue to a JMS topic over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ); a message leaves the XQueue only once the broker accepted it',
);
