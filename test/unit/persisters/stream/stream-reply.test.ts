import { Message } from '../../../../src/message/message';
import {
  PARSE_ERROR_PROPERTY,
  applyFramedReply,
  applyWholeReply,
  copyParsedReply,
  markParseError,
  parseReply,
  storeReply,
} from '../../../../actors/persisters/stream-reply';
import { PendingRequest, PendingRequests } from '../../../../actors/persisters/stream-pending';
import { XQueue } from '../../../../src/xqueue/xqueue';
import { ReplyParser } from '../../../../actors/persisters/stream-reply-parser';
import { Frame } from '../../../../actors/stream/framing';

/** `text` framed in a chunk between other bytes, as the framer gives a reply. */
function frameOf(text: string): Frame {
  const buf = Buffer.from(`<before>${text}<after>`);
  return { buf, start: 8, end: 8 + Buffer.byteLength(text) };
}

const keyValueParser: ReplyParser = {
  parse(text, msg) {
    for (const pair of text.split(',')) {
      const [k, v] = pair.split('=');
      if (v === undefined) throw new Error(`not a key=value pair: ${pair}`);
      msg.setProperty(k, v);
    }
  },
};

describe('storeReply', () => {
  it('stores the reply as a text body in text mode', () => {
    const msg = Message.text('request');
    storeReply(msg, frameOf('answer'), 'body', true);
    expect(msg.body).toEqual({ kind: 'text', text: 'answer' });
  });

  it('stores a copy of the reply bytes as a bytes body otherwise', () => {
    const msg = Message.text('request');
    const reply = frameOf('answer');
    storeReply(msg, reply, 'body', false);
    reply.buf.write('ANSWER', reply.start);
    expect(msg.body).toEqual({ kind: 'bytes', bytes: Buffer.from('answer') });
  });

  it('stores the reply in a property when DataField names one', () => {
    const msg = Message.text('request');
    storeReply(msg, frameOf('answer'), 'Reply', true);
    expect(msg.getField('Reply')).toBe('answer');
    expect(msg.bodyText()).toBe('request');
  });
});

describe('parseReply', () => {
  it('gives the parsed scratch message', () => {
    const parsed = parseReply(keyValueParser, 'a=1,b=2');
    expect(parsed.ok && parsed.message.getField('b')).toBe('2');
  });

  it("gives the Parser's reason when it cannot read the reply", () => {
    expect(parseReply(keyValueParser, 'garbage')).toEqual({ ok: false, reason: 'not a key=value pair: garbage' });
  });
});

describe('copyParsedReply', () => {
  it('copies every property but RCField, which carries the request tag', () => {
    const msg = Message.text('request', { RC: '7' });
    copyParsedReply(Message.text('reply', { RC: '3', status: 'ok' }), msg, 'RC');
    expect([msg.getField('RC'), msg.getField('status')]).toEqual(['7', 'ok']);
  });

  it('replaces the body only when the parsed reply has one', () => {
    const msg = Message.text('request');
    copyParsedReply(new Message({ properties: { a: '1' } }), msg, 'RC');
    expect(msg.bodyText()).toBe('request');
  });
});

describe('markParseError', () => {
  it('records the reason in ParseError', () => {
    const msg = Message.text('request');
    markParseError(msg, 'bad reply');
    expect(msg.getField(PARSE_ERROR_PROPERTY)).toBe('bad reply');
  });
});

describe('applyFramedReply and applyWholeReply', () => {
  const queue = new XQueue<Message>('in', 8);
  const settings = { dataField: 'body', rcField: 'RC', textMode: true, offhead: 0, offtail: 0 };

  function pendingOf(...cells: number[]): PendingRequests {
    const pending = new PendingRequests();
    for (const cell of cells) {
      const p = new PendingRequest(
        { cell, item: Message.text(`request ${cell}`, { RC: String(cell) }), generation: 0 },
        queue,
        String(cell),
        Buffer.from('x'),
        Infinity,
      );
      pending.add(p);
      pending.markWritten(p);
    }
    return pending;
  }

  it('answers the oldest written request with a framed reply, without Offhead and Offtail bytes', () => {
    const pending = pendingOf(1, 2);
    const outcome = applyFramedReply(frameOf('[ok]'), pending, { ...settings, offhead: 1, offtail: 1 }, undefined);
    expect(outcome).toEqual({ kind: 'answered', request: pending.oldest });
    expect(pending.oldest?.item.bodyText()).toBe('ok');
  });

  it('drops a reply when no written request waits for one', () => {
    expect(applyFramedReply(frameOf('late'), new PendingRequests(), settings, undefined)).toEqual({ kind: 'no-request', bytes: 4 });
  });

  it('answers the request whose tag a parsed reply carries, not the oldest', () => {
    const pending = pendingOf(1, 2);
    const outcome = applyFramedReply(frameOf('RC=2,status=ok'), pending, settings, keyValueParser);
    expect(outcome.kind === 'answered' && outcome.request.tag).toBe('2');
  });

  it('drops a parsed reply tagged for no written request', () => {
    expect(applyFramedReply(frameOf('RC=9,status=ok'), pendingOf(1), settings, keyValueParser)).toEqual({ kind: 'unknown-tag', tag: '9' });
  });

  it('charges a reply the Parser refuses to the oldest request, with the reason in ParseError', () => {
    const pending = pendingOf(1, 2);
    const outcome = applyFramedReply(frameOf('garbage'), pending, settings, keyValueParser);
    expect(outcome).toEqual({ kind: 'parse-error', request: pending.oldest, reason: 'not a key=value pair: garbage' });
    expect(pending.oldest?.item.getField(PARSE_ERROR_PROPERTY)).toBe('not a key=value pair: garbage');
  });

  it('stores a whole simple-mode reply in the one request in flight', () => {
    const request = pendingOf(1).oldest!;
    expect(applyWholeReply('done', request, { ...settings, dataField: 'Reply' }, undefined)).toEqual({ kind: 'answered', request });
    expect(request.item.getField('Reply')).toBe('done');
  });
});
