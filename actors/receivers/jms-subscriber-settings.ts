/**
 * JMSSubscriber configuration (docs/components/jms-subscriber.md): the JSON schema of its own properties and the typed
 * settings the behaviour runs on (the receive side is shared with JMSReceiver: actors/receivers/jms-consumer.ts).
 */
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { jmsConnectionSchemaProperties, substituteCellId } from '../support/jms-config';
import { JmsConsumerSettings, consumerSchemaProperties, readConsumerSettings } from './jms-consumer';

export const JMS_SUBSCRIBER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...jmsConnectionSchemaProperties(),
    ...consumerSchemaProperties(),
    Operation: { type: 'string', enum: ['sub'] },
    TopicName: { type: 'string', description: 'the topic (a JNDI name when URI is a jndi.properties file)' },
    SubscriptionID: { type: 'string', description: 'durable subscription name (present = durable); ${CellID} is substituted' },
    Priority: s('read but without effect on the output queue (docs/components/jms-subscriber.md)'),
    Persistence: s('read but without effect on the output queue (docs/components/jms-subscriber.md)'),
    Expiry: s('read but without effect on the output queue (docs/components/jms-subscriber.md)'),
  },
  required: [],
};

function s(description: string) {
  return { type: 'string', description };
}

/** Properties the subscriber reads but that have no effect (reported once at start-up). */
export const SUBSCRIBER_NO_EFFECT = ['Priority', 'Persistence', 'Expiry', 'TextMode', 'IsPhysical'];

export interface JmsSubscriberSettings extends JmsConsumerSettings {
  readonly topic: string;
  readonly subscriptionId?: string;
}

/** Reads and checks everything; `capacity` undefined (validation without a queue) skips the Partition range check. */
export function readSubscriberSettings(name: string, config: ComponentConfig, baseDir: string, capacity?: number): JmsSubscriberSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', 'sub');
  if (operation !== 'sub') throw new ComponentConfigError(name, 'Operation', operation, '"sub" (the only operation of JMSSubscriber)');
  const common = readConsumerSettings(r, baseDir, 'topic', capacity);
  const subscriptionId = substituteCellId(r.string('SubscriptionID'), common.connection.cellId);
  return {
    ...common,
    topic: common.connection.resolved.destination,
    subscriptionId: subscriptionId === '' ? undefined : subscriptionId,
  };
}
