/**
 * JMSReceiver, JMSSubscriber, JMSPersister and JMSPublisher: the default each schema states for an integer
 * setting is the one the reader uses when it is absent.
 */
import { JMS_RECEIVER_SCHEMA, readReceiverSettings } from '../../../actors/receivers/jms-receiver-settings';
import { JMS_SUBSCRIBER_SCHEMA, readSubscriberSettings } from '../../../actors/receivers/jms-subscriber-settings';
import { JMS_PERSISTER_KIND, JMS_PUBLISHER_KIND, jmsSenderSchema, readSenderSettings } from '../../../actors/persisters/jms-persister-settings';
import { JmsConsumerSettings } from '../../../actors/receivers/jms-consumer';
import { JsonSchema } from '../../../src/runtime/component';
import { statedDefault } from '../../support/stated-defaults';

const consumerDefaults = (s: JmsConsumerSettings) => ({ XAMode: s.xaMode, ReceiveTime: s.receiveTimeMs, IdleTimeout: s.connection.idleTimeoutMs });
const stated = (schema: JsonSchema, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, statedDefault(schema, k)]));

describe('JMS receiver integer settings left out', () => {
  it('are read by JMSReceiver as the defaults its schema states', () => {
    const s = readReceiverSettings('r', { URI: 'amqp://h', QueueName: 'q' }, '.');
    expect(consumerDefaults(s)).toEqual(stated(JMS_RECEIVER_SCHEMA, ['XAMode', 'ReceiveTime', 'IdleTimeout']));
  });

  it('are read by JMSSubscriber as the defaults its schema states', () => {
    const s = readSubscriberSettings('s', { URI: 'amqp://h', TopicName: 't' }, '.');
    expect(consumerDefaults(s)).toEqual(stated(JMS_SUBSCRIBER_SCHEMA, ['XAMode', 'ReceiveTime', 'IdleTimeout']));
  });
});

describe('JMS sender integer settings left out', () => {
  it.each([
    [JMS_PERSISTER_KIND, { URI: 'amqp://h', QueueName: 'q' }],
    [JMS_PUBLISHER_KIND, { URI: 'amqp://h', TopicName: 't' }],
  ])('are read by %o as the defaults its schema states', (kind, config) => {
    const s = readSenderSettings(kind, 'p', config, '.');
    expect({
      TextMode: s.textMode ? 1 : 0,
      MaxInFlight: s.maxInFlight,
      SendRetries: s.sendRetries,
      RetryDelay: s.retryDelayMs,
      MaxIdleTime: s.maxIdleMs / 1000,
      IdleTimeout: s.connection.idleTimeoutMs,
    }).toEqual(stated(jmsSenderSchema(kind), ['TextMode', 'MaxInFlight', 'SendRetries', 'RetryDelay', 'MaxIdleTime', 'IdleTimeout']));
  });
});
