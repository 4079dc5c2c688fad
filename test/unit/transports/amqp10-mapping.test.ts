import { amqpSelectorSource, amqpToMessage, messageToAmqp } from '../../../src/transports/amqp10-mapping';
import { Message } from '../../../src/message/message';
import { JmsSelector } from '../../../src/jms/selector';
import rhea = require('rhea');
import { AmqpMappingError } from '../../../src/transports/amqp10-errors';

describe('AMQP 1.0 → message model', () => {
  it('maps properties and header fields onto the JMS headers', () => {
    const m = amqpToMessage({
      message_id: 'm1',
      correlation_id: 'c1',
      subject: 'order',
      priority: 7,
      durable: true,
      creation_time: new Date(1000),
      absolute_expiry_time: new Date(5000),
      reply_to: 'topic://r',
      to: 'topic://t',
      delivery_count: 1,
      body: 'x',
    });
    expect(m.headers).toEqual({
      JMSMessageID: 'm1',
      JMSCorrelationID: 'c1',
      JMSType: 'order',
      JMSPriority: 7,
      JMSDeliveryMode: 2,
      JMSTimestamp: 1000,
      JMSExpiration: 5000,
      JMSReplyTo: 'topic://r',
      JMSDestination: 'topic://t',
      JMSRedelivered: true,
    });
  });

  it('defaults priority to 4 and delivery mode to non-persistent, and counts ttl from creation time', () => {
    const m = amqpToMessage({ ttl: 300, creation_time: 1000, body: null });
    expect({ p: m.headers.JMSPriority, d: m.headers.JMSDeliveryMode, e: m.headers.JMSExpiration, body: m.body.kind }).toEqual({
      p: 4,
      d: 1,
      e: 1300,
      body: 'none',
    });
  });

  it('turns application properties into string properties and group/user fields into JMSX properties', () => {
    const m = amqpToMessage({
      application_properties: { a: 'x', n: 5, f: 2.5, b: false, nul: null },
      group_id: 'g',
      group_sequence: 3,
      user_id: Buffer.from('bob'),
    });
    expect(Object.fromEntries(m.properties)).toEqual({ JMSXGroupID: 'g', JMSXGroupSeq: '3', JMSXUserID: 'bob', a: 'x', n: '5', f: '2.5', b: 'false' });
  });

  it.each([
    ['an amqp-value string', { body: 'text' }, { kind: 'text', text: 'text' }],
    ['a data section', { body: { typecode: 0x75, content: Buffer.from('ab') } }, { kind: 'bytes', bytes: Buffer.from('ab') }],
    [
      'a data section marked as a JMS text message',
      { body: { typecode: 0x75, content: Buffer.from('ab') }, message_annotations: { 'x-opt-jms-msg-type': 5 } },
      { kind: 'text', text: 'ab' },
    ],
    [
      'a data section with a text content type',
      { body: { typecode: 0x75, content: Buffer.from('<a/>') }, content_type: 'application/xml' },
      { kind: 'text', text: '<a/>' },
    ],
    ['an amqp-value map', { body: { k: 'v', n: 1 } }, { kind: 'map', map: { k: 'v', n: 1 } }],
    ['an amqp-value list', { body: [1, 'a'] }, { kind: 'text', text: '[1,"a"]' }],
  ])('maps %s', (_what, amqp, body) => {
    expect(amqpToMessage(amqp).body).toEqual(body);
  });
});

describe('message model → AMQP 1.0', () => {
  it('round-trips headers, properties and a text body', () => {
    const msg = Message.text(
      'hello',
      { colour: 'red' },
      { JMSMessageID: 'id', JMSCorrelationID: 'c', JMSType: 't', JMSPriority: 8, JMSDeliveryMode: 2, JMSReplyTo: 'r', JMSTimestamp: 1000 },
    );
    const back = amqpToMessage(messageToAmqp(msg, { now: 1000 }));
    expect({ headers: back.headers, props: Object.fromEntries(back.properties), body: back.bodyText() }).toEqual({
      headers: { JMSMessageID: 'id', JMSCorrelationID: 'c', JMSType: 't', JMSPriority: 8, JMSDeliveryMode: 2, JMSReplyTo: 'r', JMSTimestamp: 1000 },
      props: { colour: 'red' },
      body: 'hello',
    });
  });

  it('sends text as an amqp-value string in TextMode 1 and as bytes in TextMode 0, marking the JMS type', () => {
    const msg = Message.text('hé');
    const text = messageToAmqp(msg);
    const bytes = messageToAmqp(msg, { textMode: false });
    expect({
      text: [text.body, text.message_annotations],
      bytes: [(bytes.body as { content: Buffer }).content.toString('utf8'), bytes.message_annotations],
    }).toEqual({
      text: ['hé', { 'x-opt-jms-msg-type': 5 }],
      bytes: ['hé', { 'x-opt-jms-msg-type': 3 }],
    });
  });

  it('gives an already expired message one second to live, and turns JMSExpiration into ttl', () => {
    expect([
      messageToAmqp(Message.text('x', {}, { JMSExpiration: 500 }), { now: 1000 }).ttl,
      messageToAmqp(Message.text('x', {}, { JMSExpiration: 11_000 }), { now: 1000 }).ttl,
    ]).toEqual([1000, 10_000]);
  });

  it('refuses an in-process object body', () => {
    expect(() => messageToAmqp(Message.object({ a: 1 }))).toThrow(AmqpMappingError);
  });
});

describe('what a selector sees of an AMQP message', () => {
  it('sees JMS headers with their JMS types and application properties with their AMQP types', () => {
    const source = amqpSelectorSource({ durable: true, priority: 6, subject: 'order', application_properties: { qty: 5, colour: 'red' } });
    const sel = JmsSelector.compile(
      "JMSDeliveryMode = 'PERSISTENT' AND JMSPriority > 5 AND JMSType = 'order' AND qty > 2 AND colour = 'red' AND JMSCorrelationID IS NULL",
    );
    expect(sel.matches(source)).toBe(true);
  });

  // rhea decodes the bytes a broker sends; these are encoded with AMQP's own long, double and float types.
  const received = (properties: Record<string, unknown>) =>
    rhea.message.decode(rhea.message.encode({ application_properties: properties, body: 'x' })) as unknown as Parameters<typeof amqpSelectorSource>[0];
  const long = (v: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(v);
    return rhea.types.wrap_long(b);
  };
  const selects = (selector: string, properties: Record<string, unknown>) => JmsSelector.compile(selector).evaluate(amqpSelectorSource(received(properties)));

  it('sees a long beyond 2^53 as present and exact', () => {
    expect(selects('big IS NOT NULL', { big: long(1152921504606846976n) })).toBe(true);
    expect(selects('big = 1152921504606846976', { big: long(1152921504606846976n) })).toBe(true);
    expect(selects('big = 1152921504606846977', { big: long(1152921504606846976n) })).toBe(false);
  });

  it('reads a long just above 2^53 exactly (rhea alone rounds it)', () => {
    expect(selects('edge = 9007199254740993', { edge: long(9007199254740993n) })).toBe(true);
  });

  it('sees a negative long beyond -2^53 exactly', () => {
    expect(selects('big = -1152921504606846977', { big: long(-1152921504606846977n) })).toBe(true);
  });

  it('keeps a double holding a whole number a double: d / 2 = 61.5 for 123.0', () => {
    expect(selects('d / 2 = 61.5', { d: rhea.types.wrap_double(123) })).toBe(true);
  });

  it('keeps a float holding a whole number a float', () => {
    expect(selects('f / 4 = 0.5', { f: rhea.types.wrap_float(2) })).toBe(true);
  });

  it('keeps integer division for an int and a long', () => {
    expect(selects('i / 2 = 3 AND l / 2 = 3', { i: 7, l: long(7n) })).toBe(true);
  });

  it('writes a long beyond 2^53 as its decimal text into the message properties', () => {
    expect(amqpToMessage(received({ big: long(1152921504606846976n) })).properties.get('big')).toBe('1152921504606846976');
  });

  it('writes doubles and floats into the message properties as Java writes them', () => {
    const props = amqpToMessage(
      received({ d: rhea.types.wrap_double(123), half: rhea.types.wrap_double(0.5), f: rhea.types.wrap_float(1.1), i: 123 }),
    ).properties;
    expect({ d: props.get('d'), half: props.get('half'), f: props.get('f'), i: props.get('i') }).toEqual({ d: '123.0', half: '0.5', f: '1.1', i: '123' });
  });
});
