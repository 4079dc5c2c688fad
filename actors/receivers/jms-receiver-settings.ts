/**
 * JMSReceiver configuration (docs/components/jms-queues.md): the JSON schema of its own properties and the typed
 * settings (the receive side is shared with JMSSubscriber: actors/receivers/jms-consumer.ts).
 */
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { UnselectedOutcome } from './amqp10-consumer';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { jmsConnectionSchemaProperties } from '../support/jms-config';
import { JmsConsumerSettings, consumerSchemaProperties, readConsumerSettings } from './jms-consumer';

const UNSELECTED_OUTCOMES: readonly UnselectedOutcome[] = ['accept', 'release'];

const s = (description: string) => ({ type: 'string', description });

export const JMS_RECEIVER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...jmsConnectionSchemaProperties(),
    ...consumerSchemaProperties(),
    Operation: { type: 'string', enum: ['get'] },
    QueueName: s('the queue (a JNDI name when URI is a jndi.properties file)'),
    UnselectedOutcome: {
      type: 'string',
      enum: [...UNSELECTED_OUTCOMES],
      description:
        'a message the MessageSelector does not select, on a broker that ignores selectors (RabbitMQ): accept (default: consumed and dropped) or release (left on the queue for other consumers, as modified/undeliverable-here)',
    },
    MaxIdleTime: { type: 'string', pattern: '^\\s*\\d+\\s*$', description: 'parsed but not used by get (docs/components/jms-queues.md)' },
    Priority: s('read but without effect on the output queue'),
    Persistence: s('read but without effect on the output queue'),
    Expiry: s('read but without effect on the output queue'),
  },
  required: [],
};

/** Properties the receiver reads but that have no effect (reported once at start-up). */
export const RECEIVER_NO_EFFECT = ['Priority', 'Persistence', 'Expiry', 'TextMode', 'IsPhysical'];

export interface JmsReceiverSettings extends JmsConsumerSettings {
  readonly queue: string;
  readonly unselected: UnselectedOutcome;
}

/** Reads and checks everything; `capacity` undefined (validation without a queue) skips the Partition range check. */
export function readReceiverSettings(name: string, config: ComponentConfig, baseDir: string, capacity?: number): JmsReceiverSettings {
  const r = new ConfigReader(name, config);
  const operation = r.string('Operation', 'get');
  if (operation !== 'get') throw new ComponentConfigError(name, 'Operation', operation, '"get" (the only operation of JMSReceiver)');
  const common = readConsumerSettings(r, baseDir, 'queue', capacity);
  r.int('MaxIdleTime', 0, { min: 0 });
  return { ...common, queue: common.connection.resolved.destination, unselected: r.oneOf('UnselectedOutcome', UNSELECTED_OUTCOMES, 'accept') };
}
