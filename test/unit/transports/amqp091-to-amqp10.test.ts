import rhea = require('rhea');
import { amqp10FromAmqp091, Amqp091Delivery, headerToApplicationProperty } from '../../../src/transports/amqp091-to-amqp10';
import { AmqpMessage, amqpSelectorSource, amqpToMessage } from '../../../src/transports/amqp10-mapping';
import { AMQP10_PUBLISHED, splitRoute } from '../../../src/transports/amqp10-dialect';
import { JmsSelector } from '../../../src/jms/selector';

function delivery(properties: Partial<Amqp091Delivery['properties']>, content = 'body'): Amqp091Delivery {
  return {
    content: Buffer.from(content),
    fields: { deliveryTag: 1, redelivered: false, exchange: 'amq.topic', routingKey: 'orders.eu', consumerTag: 'c' },
    properties: { headers: {}, ...properties } as Amqp091Delivery['properties'],
  };
}

/** What the JMS consumer receives after the relay: the message encoded and decoded by rhea, as on the wire. */
function overTheWire(d: Amqp091Delivery): AmqpMessage {
  return rhea.message.decode(rhea.message.encode(amqp10FromAmqp091(d) as never)) as unknown as AmqpMessage;
}

describe('0-9-1 header values as AMQP 1.0 application properties', () => {
  it.each([
    ['a string', 'red', 'red'],
    ['an integer', 3, 3],
    ['a negative integer', -7, -7],
    ['a float', 1.5, 1.5],
    ['a long', 5_000_000_000, 5_000_000_000],
    ['a boolean', true, true],
    ['a void', null, null],
    ['an amqplib typed long', { '!': 'long', value: 7 }, 7],
    ['a decimal (digits 12345, 2 places)', { '!': 'decimal', value: { places: 2, digits: 12345 } }, 123.45],
    ['bytes (as UTF-8 text, as AmqpReceiver does)', Buffer.from('ab'), 'ab'],
    ['an array (as JSON)', [1, 'x'], '[1,"x"]'],
    ['a table (as JSON)', { a: 1 }, '{"a":1}'],
  ])('keeps %s', (_what, value, expected) => {
    expect(headerToApplicationProperty(value)).toEqual(expected);
  });

  it('turns a timestamp (seconds) into an AMQP timestamp', () => {
    expect(headerToApplicationProperty({ '!': 'timestamp', value: 1_700_000_000 })).toEqual(new Date(1_700_000_000_000));
  });
});

describe('a 0-9-1 delivery as the AMQP 1.0 message the JMS consumer reads', () => {
  it('maps the basic properties onto AMQP 1.0 properties and header fields', () => {
    const m = amqp10FromAmqp091(
      delivery({
        messageId: 'm1',
        correlationId: 'c1',
        type: 'order',
        priority: 7,
        deliveryMode: 2,
        timestamp: 1_700_000_000,
        expiration: '60000',
        replyTo: 'replies',
        contentType: 'text/plain',
        contentEncoding: 'gzip',
      }),
    );
    expect({ ...m, body: undefined, application_properties: undefined }).toEqual({
      message_id: 'm1',
      correlation_id: 'c1',
      subject: 'order',
      priority: 7,
      durable: true,
      creation_time: new Date(1_700_000_000_000),
      ttl: 60000,
      reply_to: 'replies',
      content_type: 'text/plain',
      content_encoding: 'gzip',
      body: undefined,
      application_properties: undefined,
    });
  });

  it('carries the headers and the delivery metadata as application properties', () => {
    const m = amqp10FromAmqp091(delivery({ headers: { colour: 'red', size: 3 }, appId: 'shop', userId: 'bob', clusterId: 'c' }));
    expect(m.application_properties).toEqual({
      colour: 'red',
      size: 3,
      RMQ_AppId: 'shop',
      RMQ_UserId: 'bob',
      RMQ_ClusterId: 'c',
      RMQ_Exchange: 'amq.topic',
      RMQ_RoutingKey: 'orders.eu',
    });
  });

  it('sends the content as one data section', () => {
    const m = overTheWire(delivery({}, 'payload'));
    expect(amqpToMessage(m).body).toEqual({ kind: 'bytes', bytes: Buffer.from('payload') });
  });

  it('gives the message model the headers as properties, numbers as their number text, and a text body for text/*', () => {
    const msg = amqpToMessage(
      overTheWire(
        delivery({ messageId: 'm1', timestamp: 1_700_000_000, contentType: 'text/plain', headers: { colour: 'red', size: 3, ratio: 1.5, ok: false } }, 'hello'),
      ),
      { destination: 'orders.eu' },
    );
    expect({
      id: msg.headers.JMSMessageID,
      ts: msg.headers.JMSTimestamp,
      dest: msg.headers.JMSDestination,
      props: Object.fromEntries(msg.properties),
      body: msg.bodyText(),
    }).toEqual({
      id: 'm1',
      ts: 1_700_000_000_000,
      dest: 'orders.eu',
      props: { colour: 'red', size: '3', ratio: '1.5', ok: 'false', RMQ_Exchange: 'amq.topic', RMQ_RoutingKey: 'orders.eu' },
      body: 'hello',
    });
  });

  describe("the selector colour = 'red' AND size > 2 on the relayed message", () => {
    const selector = JmsSelector.compile("colour = 'red' AND size > 2");
    it.each([
      ['red, size 3 (integer header)', { colour: 'red', size: 3 }, true],
      ['red, size 2.5 (float header)', { colour: 'red', size: 2.5 }, true],
      ['red, size 2', { colour: 'red', size: 2 }, false],
      ['blue, size 9', { colour: 'blue', size: 9 }, false],
      ["red, size '9' (a string: no numeric comparison in JMS)", { colour: 'red', size: '9' }, false],
      ['no headers', {}, false],
    ])('%s: %s', (_what, headers, expected) => {
      expect(selector.matches(amqpSelectorSource(overTheWire(delivery({ headers }))))).toBe(expected);
    });
  });
});

describe('the RabbitMQ split of a subscription', () => {
  it('names the side queue after the subscription queue', () => {
    expect(splitRoute('client.sub')).toEqual({ from: 'client.sub.amqp091', to: 'client.sub' });
  });

  it('selects AMQP 1.0 publications by the presence of any x-amqp-1.0-* header the plugin adds', () => {
    expect(AMQP10_PUBLISHED).toEqual({
      'x-match': 'any-with-x',
      'x-amqp-1.0-properties': null,
      'x-amqp-1.0-app-properties': null,
      'x-amqp-1.0-message-annotations': null,
    });
  });
});
