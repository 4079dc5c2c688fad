import { Message } from '../../../../src/message/message';
import { PatternReplyReader, renderRequest, trimReply } from '../../../../actors/persisters/stream-framing';

describe('renderRequest', () => {
  it('renders the Template over the message when one is configured', () => {
    const msg = Message.text('body', { name: 'x' });
    expect(renderRequest(msg, { format: (m) => `hello ${m.getField('name')}\n` }).toString()).toBe('hello x\n');
  });

  it('writes a bytes body as it is, without a Template', () => {
    const bytes = Buffer.from([1, 2, 3]);
    expect(renderRequest(Message.bytes(bytes), undefined)).toBe(bytes);
  });

  it('writes a text body as its text (a socket or file writes it as UTF-8), without a Template', () => {
    expect(renderRequest(Message.text('é'), undefined)).toBe('é');
  });
});

describe('trimReply', () => {
  const frame = (text: string) => ({ buf: Buffer.from(`..${text}..`), start: 2, end: 2 + text.length });

  it('removes Offhead leading and Offtail trailing bytes', () => {
    const reply = frame('<<reply>>');
    trimReply(reply, 2, 2);
    expect(reply.buf.toString('utf8', reply.start, reply.end)).toBe('reply');
  });

  it('leaves the reply as it is when there is nothing to trim', () => {
    const reply = frame('reply');
    trimReply(reply, 0, 0);
    expect(reply).toEqual(frame('reply'));
  });

  it('gives an empty reply, never a negative length, when the offsets overlap', () => {
    const reply = frame('abc');
    trimReply(reply, 2, 2);
    expect(reply.end - reply.start).toBe(0);
    expect(reply.start).toBeLessThanOrEqual(5);
  });
});

describe('PatternReplyReader', () => {
  it('returns nothing until the text so far matches the pattern, then the whole reply', () => {
    const reader = new PatternReplyReader(/END$/);
    expect(reader.push(Buffer.from('part one, '))).toBeUndefined();
    expect(reader.push(Buffer.from('part two END'))).toBe('part one, part two END');
  });

  it('starts a new reply after a match', () => {
    const reader = new PatternReplyReader(/\.$/);
    reader.push(Buffer.from('first.'));
    expect(reader.length).toBe(0);
    expect(reader.push(Buffer.from('second.'))).toBe('second.');
  });

  it('ends a started reply when the peer ends the stream', () => {
    const reader = new PatternReplyReader(/never/);
    reader.push(Buffer.from('half a reply'));
    expect(reader.end()).toBe('half a reply');
  });

  it('has no reply to end when nothing was read', () => {
    expect(new PatternReplyReader(/x/).end()).toBeUndefined();
  });

  it('keeps a copy of each chunk: a lent chunk overwritten by the next read does not change the reply', () => {
    const lent = Buffer.alloc(8);
    const reader = new PatternReplyReader(/END$/);
    lent.write('part, ');
    expect(reader.push(lent.subarray(0, 6))).toBeUndefined();
    lent.write('END');
    expect(reader.push(lent.subarray(0, 3))).toBe('part, END');
  });

  it('joins a character split across chunks before matching', () => {
    const euro = Buffer.from('€', 'utf8');
    const reader = new PatternReplyReader(/€$/);
    expect(reader.push(euro.subarray(0, 1))).toBeUndefined();
    expect(reader.push(euro.subarray(1))).toBe('€');
  });
});
