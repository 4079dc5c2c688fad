/**
 * AmqpReceiver and AmqpPersister (and the AMQP 0-9-1 connection and reconnection settings they share):
 * the default each schema states for an integer setting is the one the reader uses when it is absent.
 */
import { AMQP_RECEIVER_SCHEMA, readReceiverSettings } from '../../../actors/receivers/amqp-receiver-settings';
import { AMQP_PERSISTER_SCHEMA, readPersisterSettings } from '../../../actors/persisters/amqp-persister-settings';
import { statedDefault } from '../../support/stated-defaults';

describe('AmqpReceiver integer settings left out', () => {
  const s = readReceiverSettings('r', { QueueName: 'q' }, '.', 16);
  const stated = (key: string) => statedDefault(AMQP_RECEIVER_SCHEMA, key);

  it('are read as the defaults the schema states', () => {
    expect({
      XAMode: s.clientAck ? 1 : 0,
      TextMode: s.textMode ? 1 : 0,
      MaxAttempts: s.redelivery.maxAttempts,
      ReceiveTime: s.receiveTimeMs,
      Heartbeat: s.connection.heartbeatSeconds,
      ConnectTimeout: s.connection.connectTimeoutMs,
      Tolerance: s.reconnect.tolerance,
      MaxRetry: s.reconnect.maxRetry,
    }).toEqual({
      XAMode: stated('XAMode'),
      TextMode: stated('TextMode'),
      MaxAttempts: stated('MaxAttempts'),
      ReceiveTime: stated('ReceiveTime'),
      Heartbeat: stated('Heartbeat'),
      ConnectTimeout: stated('ConnectTimeout'),
      Tolerance: stated('Tolerance'),
      MaxRetry: stated('MaxRetry'),
    });
  });
});

describe('AmqpPersister integer settings left out', () => {
  const s = readPersisterSettings('p', { QueueName: 'q' }, '.');
  const stated = (key: string) => statedDefault(AMQP_PERSISTER_SCHEMA, key);

  it('are read as the defaults the schema states', () => {
    expect({
      MaxInFlight: s.maxInFlight,
      RetryDelay: s.retryDelayMs,
      Heartbeat: s.connection.heartbeatSeconds,
      ConnectTimeout: s.connection.connectTimeoutMs,
      Tolerance: s.reconnect.tolerance,
      MaxRetry: s.reconnect.maxRetry,
    }).toEqual({
      MaxInFlight: stated('MaxInFlight'),
      RetryDelay: stated('RetryDelay'),
      Heartbeat: stated('Heartbeat'),
      ConnectTimeout: stated('ConnectTimeout'),
      Tolerance: stated('Tolerance'),
      MaxRetry: stated('MaxRetry'),
    });
  });
});
