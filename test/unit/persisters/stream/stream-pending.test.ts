import { Message } from '../../../../src/message/message';
import { XQueue } from '../../../../src/xqueue/xqueue';
import { PendingRequest, PendingRequests } from '../../../../actors/persisters/stream-pending';

const queue = new XQueue<Message>('in', 8);

function request(cell: number, expiresAt = Infinity): PendingRequest {
  return new PendingRequest({ cell, item: Message.text(`m${cell}`), generation: 0 }, queue, String(cell), Buffer.from(`m${cell}`), expiresAt);
}

describe('PendingRequests', () => {
  it('keeps the requests in the order taken; the first is the oldest', () => {
    const pending = new PendingRequests();
    const [a, b] = [request(1), request(2)];
    pending.add(a);
    pending.add(b);
    expect(pending.oldest).toBe(a);
    expect([...pending]).toEqual([a, b]);
  });

  it('lets a request leave exactly once', () => {
    const pending = new PendingRequests();
    const a = request(1);
    pending.add(a);
    expect(pending.remove(a)).toBe(true);
    expect(pending.remove(a)).toBe(false);
    expect(pending.size).toBe(0);
  });

  it('removes the oldest (a FIFO reply) and one further in (a tagged reply or an expiry), each once, the rest in order', () => {
    const pending = new PendingRequests();
    const [a, b, c] = [request(1), request(2), request(3)];
    for (const p of [a, b, c]) pending.add(p);
    expect(pending.remove(b)).toBe(true);
    expect(pending.remove(b)).toBe(false);
    expect(pending.remove(a)).toBe(true);
    expect(pending.remove(a)).toBe(false);
    expect([...pending]).toEqual([c]);
    expect(pending.oldest).toBe(c);
  });

  it('adds after the one before the newest once the newest left', () => {
    const pending = new PendingRequests();
    const [a, b, c] = [request(1), request(2), request(3)];
    pending.add(a);
    pending.add(b);
    pending.remove(b);
    pending.add(c);
    expect([[...pending], pending.newest, pending.size]).toEqual([[a, c], c, 2]);
  });

  it('is the Taken of its request: the cell, message and generation of the take', () => {
    const item = Message.text('m');
    const p = new PendingRequest({ cell: 3, item, generation: 7 }, queue, '3', 'm', Infinity);
    expect([p.cell, p.item, p.generation]).toEqual([3, item, 7]);
  });

  it('counts every write of a request, over all connections', () => {
    const pending = new PendingRequests();
    const a = request(1);
    pending.add(a);
    pending.markWritten(a);
    pending.forgetWrites();
    pending.markWritten(a);
    expect(a.writes).toBe(2);
  });

  it('forgets which requests were written when the connection is lost', () => {
    const pending = new PendingRequests();
    const a = request(1);
    pending.add(a);
    pending.markWritten(a);
    pending.forgetWrites();
    expect(pending.anyWritten()).toBe(false);
  });

  it('finds a written request by its tag, and never an unwritten one', () => {
    const pending = new PendingRequests();
    const [a, b] = [request(1), request(2)];
    pending.add(a);
    pending.add(b);
    pending.markWritten(b);
    expect(pending.writtenWithTag('2')).toBe(b);
    expect(pending.writtenWithTag('1')).toBeUndefined();
  });

  it('lists the requests expired at a time and tells the next expiry', () => {
    const pending = new PendingRequests();
    const [a, b, c] = [request(1, 100), request(2, 300), request(3)];
    for (const p of [a, b, c]) pending.add(p);
    expect(pending.expiredAt(200)).toEqual([a]);
    pending.remove(a);
    expect(pending.nextExpiry()).toBe(300);
  });

  it('has no next expiry when nothing pending expires', () => {
    expect(new PendingRequests().nextExpiry()).toBe(Infinity);
  });
});
