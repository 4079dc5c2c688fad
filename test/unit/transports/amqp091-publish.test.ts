/**
 * publishConfirmed (src/transports/amqp091-publish.ts) against the installed amqplib: the frames it hands the
 * channel encode to the same bytes as amqplib's own publish would send, it makes the two calls ConfirmChannel.publish
 * makes, keeps the caller's headers object (no prototype per publish), and falls back to publish() where it must.
 */
import type { ConfirmChannel, Options } from 'amqplib';
import { createRequire } from 'node:module';
import { publishConfirmed, publishFrame } from '../../../src/transports/amqp091-publish';

/** amqplib's own modules (its package exports only the two APIs). */
const requireInAmqplib = createRequire(require.resolve('amqplib'));
const lib = (name: string): unknown => requireInAmqplib(`./lib/${name}`);
const Args = lib('api_args') as { publish(exchange: string, routingKey: string, options: Options.Publish): object };
const defs = lib('defs') as {
  BasicPublish: number;
  BasicProperties: number;
  encodeMethod(id: number, channel: number, fields: object): Buffer;
  encodeProperties(id: number, channel: number, size: number, fields: object): Buffer;
};
const ChannelModel = lib('channel_model') as { ConfirmChannel: { prototype: object } };

/** The basic.publish method frame and the content header frame of a 1-byte body, as amqplib encodes them. */
function encoded(fields: object): Buffer[] {
  return [defs.encodeMethod(defs.BasicPublish, 1, fields), defs.encodeProperties(defs.BasicProperties, 1, 1, fields)];
}

const OPTIONS: Record<string, Options.Publish> = {
  'no options': {},
  'what messageToAmqp gives a text message': { deliveryMode: 2, priority: 4, headers: { RuleName: 'order', OriginalRC: '0' }, mandatory: true },
  'every property': {
    messageId: 'm-1',
    correlationId: 'c-1',
    type: 't',
    priority: 9,
    deliveryMode: 1,
    timestamp: 1_700_000_000,
    expiration: '1500',
    replyTo: 'q.reply',
    headers: { a: 'x', b: 'y' },
    contentType: 'application/json',
    contentEncoding: 'gzip',
    appId: 'xroute',
    userId: 'guest',
    mandatory: true,
  },
  'a numeric expiration': { expiration: 250 },
  'persistent rather than deliveryMode': { persistent: false, deliveryMode: 2 },
};

describe('publishFrame', () => {
  for (const [name, options] of Object.entries(OPTIONS)) {
    it(`encodes ${name} to the bytes amqplib's publish encodes`, () => {
      expect(encoded(publishFrame('ex', 'rk', options))).toEqual(encoded(Args.publish('ex', 'rk', options)));
    });
  }

  it("keeps the caller's headers object rather than a new object inheriting from it", () => {
    const headers = { RuleName: 'order' };
    expect(publishFrame('', 'q', { headers }).headers).toBe(headers);
  });
});

/** A channel that records the calls publishConfirmed makes; with `frames` false it has only publish(). */
function recordingChannel(frames: boolean) {
  const calls: { method: string; args: unknown[] }[] = [];
  const record =
    (method: string, result?: unknown) =>
    (...args: unknown[]) => {
      calls.push({ method, args });
      return result;
    };
  const ch = {
    publish: record('publish', true),
    ...(frames ? { sendMessage: record('sendMessage', false), pushConfirmCallback: record('pushConfirmCallback') } : {}),
  };
  return { ch: ch as unknown as ConfirmChannel, calls };
}

describe('publishConfirmed', () => {
  const onConfirm = () => undefined;

  it("sends the frame and registers the confirm callback, as amqplib's ConfirmChannel.publish does", () => {
    const { ch, calls } = recordingChannel(true);
    const content = Buffer.from('body');
    const sent = publishConfirmed(ch, 'ex', 'rk', content, { headers: { a: 'x' } }, onConfirm);
    expect(calls.map((c) => c.method)).toEqual(['sendMessage', 'pushConfirmCallback']);
    const [fields, properties, body] = calls[0].args;
    expect(properties).toBe(fields);
    expect(body).toBe(content);
    expect(calls[1].args).toEqual([onConfirm]);
    expect(sent).toBe(false); // sendMessage's answer: the channel's buffer is full
  });

  it('publishes through publish() on a channel without the two methods', () => {
    const { ch, calls } = recordingChannel(false);
    publishConfirmed(ch, 'ex', 'rk', Buffer.from('body'), {}, onConfirm);
    expect(calls.map((c) => c.method)).toEqual(['publish']);
  });

  it('publishes through publish() when CC or BCC is given (their headers are made there)', () => {
    const { ch, calls } = recordingChannel(true);
    publishConfirmed(ch, 'ex', 'rk', Buffer.from('body'), { CC: 'other' }, onConfirm);
    publishConfirmed(ch, 'ex', 'rk', Buffer.from('body'), { BCC: ['b'] }, onConfirm);
    expect(calls.map((c) => c.method)).toEqual(['publish', 'publish']);
  });

  it("finds both methods on the installed amqplib's ConfirmChannel", () => {
    const proto = ChannelModel.ConfirmChannel.prototype as Record<string, unknown>;
    expect(typeof proto.sendMessage).toBe('function');
    expect(typeof proto.pushConfirmCallback).toBe('function');
  });
});
