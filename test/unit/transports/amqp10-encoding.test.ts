import fc from 'fast-check';
import rhea = require('rhea');
import { encodeAmqpMessage } from '../../../src/transports/amqp10-encoding';
import { AmqpMessage, messageToAmqp } from '../../../src/transports/amqp10-mapping';
import { Message } from '../../../src/message';

const rheaEncode = (m: AmqpMessage): Buffer => (rhea.message as unknown as { encode(m: unknown): Buffer }).encode(m);
const decode = (b: Buffer): Record<string, unknown> => (rhea.message as unknown as { decode(b: Buffer): Record<string, unknown> }).decode(b);

// Strings around the str8/str32 boundary (255 bytes), with multi-byte characters that cross it.
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', minLength: 120, maxLength: 300 }),
  fc.constantFrom('', '\ud800 lone surrogate', 'é'.repeat(128), 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(1024)),
);
const asciiKey = fc.string({ unit: fc.constantFrom(...'abcxyz-_.:0123456789'.split('')), minLength: 1, maxLength: 300 });
const uint = fc.oneof(fc.constantFrom(0, 1, 255, 256, 4294967295), fc.integer({ min: 0, max: 4294967295 }));
const mapValue = fc.oneof(text, fc.boolean(), fc.constant(null), fc.integer({ min: -2147483646, max: 2147483647 }), uint);

/** Messages of the shapes messageToAmqp builds, every optional field present or not. */
const outgoing: fc.Arbitrary<AmqpMessage> = fc.record(
  {
    message_id: text,
    correlation_id: text,
    subject: text,
    priority: fc.integer({ min: 0, max: 255 }),
    durable: fc.boolean(),
    ttl: uint,
    absolute_expiry_time: fc.integer({ min: 0, max: 8_000_000_000_000 }),
    creation_time: fc.integer({ min: 0, max: 8_000_000_000_000 }),
    reply_to: text,
    to: text,
    group_id: text,
    group_sequence: uint,
    content_type: fc.constantFrom('application/octet-stream', 'text/plain'),
    application_properties: fc.dictionary(fc.string({ maxLength: 30 }), mapValue, { maxKeys: 6 }),
    message_annotations: fc.dictionary(asciiKey, mapValue, { maxKeys: 4 }),
    body: fc.oneof(
      text,
      fc.constant(null),
      fc.uint8Array({ maxLength: 600 }).map((a) => rhea.message.data_section(Buffer.from(a))),
    ),
  },
  { requiredKeys: [] },
);

describe('encodeAmqpMessage', () => {
  it('writes the same bytes as rhea.message.encode for every message shape the mapping builds', () => {
    fc.assert(
      fc.property(outgoing, (m) => {
        expect(encodeAmqpMessage(m).equals(rheaEncode(m))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the same bytes as rhea for messages converted from the message model (text, bytes, none)', () => {
    const messages = [
      Message.text('x'.repeat(1024), { n: '1', colour: 'red' }),
      Message.text('short', {}),
      new Message({ body: { kind: 'bytes', bytes: Buffer.alloc(300, 7) } }),
      new Message({ body: { kind: 'none' } }),
    ];
    for (const msg of messages) {
      msg.headers.JMSMessageID = 'ID:xroute-1';
      msg.headers.JMSTimestamp = 1_795_700_000_000;
      msg.headers.JMSExpiration = 1_795_700_060_000;
      const amqp = messageToAmqp(msg, { textMode: true, durable: false, now: 1_795_700_000_000 });
      amqp.to = 'queue://orders';
      expect(encodeAmqpMessage(amqp).equals(rheaEncode(amqp))).toBe(true);
    }
  });

  it('decodes, with rhea, to the fields it was given', () => {
    const m: AmqpMessage = {
      message_id: 'ID:1',
      durable: true,
      priority: 7,
      creation_time: 1_795_700_000_000,
      to: 'queue://q',
      application_properties: { size: 3, colour: 'red', big: 70_000, neg: -5 },
      message_annotations: { 'x-opt-jms-msg-type': 5 },
      body: 'héllo',
    };
    const back = decode(encodeAmqpMessage(m));
    expect(back).toMatchObject({
      message_id: 'ID:1',
      durable: true,
      priority: 7,
      to: 'queue://q',
      application_properties: { size: 3, colour: 'red', big: 70_000, neg: -5 },
      message_annotations: { 'x-opt-jms-msg-type': 5 },
      body: 'héllo',
    });
    expect((back.creation_time as Date).getTime()).toBe(1_795_700_000_000);
  });

  it.each([
    ['a map body', { body: { a: 1 } }],
    ['a Date creation time', { creation_time: new Date(1_795_700_000_000) }],
    ['a numeric message id', { message_id: 42 }],
    ['a fractional property', { application_properties: { ratio: 0.5 } }],
    ['a property beyond 32 bits', { application_properties: { big: 2 ** 40 } }],
    ['a non-ASCII annotation key', { message_annotations: { 'x-opt-é': 1 } }],
    ['delivery annotations', { delivery_annotations: { 'x-opt-a': 'b' } }],
  ] as [string, AmqpMessage][])('leaves a message with %s to rhea, with the bytes rhea writes', (_what, m) => {
    expect(encodeAmqpMessage(m).equals(rheaEncode(m))).toBe(true);
  });
});
