/**
 * The AMQP 0-9-1 <-> message-model mapping on its own (the broker round trip is in the integration suite).
 */
import type { ConsumeMessage } from 'amqplib';
import { messageFromAmqp, messageToAmqp, amqpTimestampToMs, headerValueToString } from '../../../src/transports/amqp091-mapping';
import { Message } from '../../../src/message/message';

function delivery(
  properties: Partial<ConsumeMessage['properties']>,
  content = Buffer.from('body'),
  fields: Partial<ConsumeMessage['fields']> = {},
): ConsumeMessage {
  return {
    content,
    fields: { deliveryTag: 7, redelivered: false, exchange: 'ex', routingKey: 'rk', consumerTag: 'c', ...fields },
    properties: {
      contentType: undefined,
      contentEncoding: undefined,
      headers: undefined,
      deliveryMode: undefined,
      priority: undefined,
      correlationId: undefined,
      replyTo: undefined,
      expiration: undefined,
      messageId: undefined,
      timestamp: undefined,
      type: undefined,
      userId: undefined,
      appId: undefined,
      clusterId: undefined,
      ...properties,
    },
  };
}

describe('AMQP delivery -> message', () => {
  it('flags a redelivery as JMSRedelivered and records the delivery tag, exchange and routing key', () => {
    const m = messageFromAmqp(delivery({}, undefined, { redelivered: true }), { text: true, queue: 'q' });
    expect(m.headers.JMSRedelivered).toBe(true);
    expect(Object.fromEntries(m.properties)).toEqual({ RMQ_DeliveryTag: '7', RMQ_Exchange: 'ex', RMQ_RoutingKey: 'rk' });
  });

  it("lists the delivery's headers first, in their order, then the RMQ_ metadata", () => {
    const m = messageFromAmqp(delivery({ headers: { b: 'x', a: 1 }, appId: 'app' }), { text: true });
    expect([...m.properties.keys()]).toEqual(['b', 'a', 'RMQ_DeliveryTag', 'RMQ_Exchange', 'RMQ_RoutingKey', 'RMQ_AppId']);
  });

  it('gives a delivery without priority or delivery mode the JMS defaults, after the headers it carries', () => {
    const m = messageFromAmqp(delivery({ messageId: 'id' }), { text: true, queue: 'q' });
    expect(m.headers).toEqual({ JMSMessageID: 'id', JMSDestination: 'q', JMSRedelivered: false, JMSPriority: 4, JMSDeliveryMode: 2 });
    expect(Object.keys(m.headers)).toEqual(['JMSMessageID', 'JMSDestination', 'JMSRedelivered', 'JMSPriority', 'JMSDeliveryMode']);
  });

  it('computes JMSExpiration from the timestamp and the TTL, or from the receive time without a timestamp', () => {
    expect(messageFromAmqp(delivery({ timestamp: 100, expiration: '2500' }), { text: true }).headers.JMSExpiration).toBe(102_500);
    expect(messageFromAmqp(delivery({ expiration: '2500' }), { text: true, now: 1000 }).headers.JMSExpiration).toBe(3500);
  });

  it('reads timestamps in seconds, and millisecond timestamps from clients that send them', () => {
    expect(amqpTimestampToMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(amqpTimestampToMs(1_700_000_000_123)).toBe(1_700_000_000_123);
  });

  it('turns typed header values into strings', () => {
    expect(headerValueToString(Buffer.from('bytes'))).toBe('bytes');
    expect(headerValueToString({ '!': 'float', value: 1.5 })).toBe('1.5');
    expect(headerValueToString(['a', 1])).toBe('["a",1]');
    expect(headerValueToString(42)).toBe('42');
  });
});

describe('message -> AMQP publish', () => {
  it('maps the JMS headers to AMQP properties and user properties to headers, leaving RMQ_ metadata out', () => {
    const msg = Message.text(
      'hi',
      { Region: 'eu', RMQ_DeliveryTag: '5', RMQ_ContentType: 'text/plain' },
      { JMSMessageID: 'm', JMSCorrelationID: 'c', JMSType: 't', JMSPriority: 3, JMSDeliveryMode: 2, JMSTimestamp: 1_700_000_000_999, JMSReplyTo: 'r' },
    );
    const { content, options } = messageToAmqp(msg);
    expect(content.toString()).toBe('hi');
    expect(options).toEqual({
      messageId: 'm',
      correlationId: 'c',
      type: 't',
      priority: 3,
      deliveryMode: 2,
      timestamp: 1_700_000_000,
      replyTo: 'r',
      headers: { Region: 'eu' },
      contentType: 'text/plain',
    });
  });

  it('turns an absolute JMSExpiration into the remaining TTL, 0 when already past', () => {
    expect(messageToAmqp(Message.text('x', {}, { JMSExpiration: 10_000 }), 4000).options.expiration).toBe('6000');
    expect(messageToAmqp(Message.text('x', {}, { JMSExpiration: 10_000 }), 20_000).options.expiration).toBe('0');
    expect(messageToAmqp(Message.text('x', {}, { JMSExpiration: 0 }), 20_000).options.expiration).toBeUndefined();
  });

  it('sends a map body as JSON', () => {
    const { content, options } = messageToAmqp(Message.map({ a: 1, b: 'x' }));
    expect(JSON.parse(content.toString())).toEqual({ a: 1, b: 'x' });
    expect(options.contentType).toBe('application/json');
  });

  it('survives a round trip through the mapping', () => {
    const msg = Message.bytes(
      Buffer.from([1, 2, 3]),
      { Region: 'eu' },
      { JMSMessageID: 'id', JMSPriority: 4, JMSDeliveryMode: 1, JMSTimestamp: 1_700_000_000_000, JMSType: 'x' },
    );
    const pub = messageToAmqp(msg);
    const back = messageFromAmqp(delivery(pub.options as ConsumeMessage['properties'], Buffer.from(pub.content)), { text: false });
    expect(back.body).toEqual(msg.body);
    expect(back.headers).toMatchObject(msg.headers);
    expect(back.getProperty('Region')).toBe('eu');
  });
});
