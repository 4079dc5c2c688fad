/**
 * JMSPersister (operation `put`, docs/components/jms-queues.md): sends each message of its input XQueue to the JMS
 * queue QueueName over AMQP 1.0 (rhea), removing it only once the broker accepted it. The send side is
 * shared with JMSPublisher: actors/persisters/jms-persister-sender.ts. The queue address is the dialect's
 * (ActiveMQ/Artemis `queue://name`; RabbitMQ `/amq/queue/name`, the durable queue declared when missing).
 */
import { jmsSenderComponent } from './jms-persister-sender';
import { JMS_PERSISTER_KIND } from './jms-persister-settings';

export const JMS_PERSISTER = jmsSenderComponent(
  JMS_PERSISTER_KIND,
  'Sends the messages of its input XQueue to a JMS queue over AMQP 1.0 (ActiveMQ, Artemis, RabbitMQ); a message leaves the XQueue only once the broker accepted it',
);
