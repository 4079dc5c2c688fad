import { XQueue } from '../../../src/xqueue/xqueue';
import { XQueueError } from '../../../src/xqueue/errors';
import { attachCounting, queueWith } from './helpers';

describe('XQueue.attach', () => {
  it('wakes a new consumer at once when messages are waiting', () => {
    const { q } = queueWith(['a']);
    expect(attachCounting(q).wakes).toBe(1);
  });

  it('does not wake a new consumer of an empty queue', () => {
    const q = new XQueue<string>('q', 2);
    expect(attachCounting(q).wakes).toBe(0);
  });

  it('counts attached consumers', () => {
    const q = new XQueue<string>('q', 2);
    attachCounting(q, 'a');
    attachCounting(q, 'b');
    expect(q.stats().consumers).toBe(2);
  });
});

describe('XQueue.take', () => {
  it('takes messages in the order they were added, not by cell id', () => {
    const q = new XQueue<string>('q', 4);
    const first = q.tryReserve();
    const second = q.tryReserve();
    q.add(second, 'added first');
    q.add(first, 'added second');
    const c = attachCounting(q);
    expect([q.take(c.handle)?.item, q.take(c.handle)?.item]).toEqual(['added first', 'added second']);
  });

  it('marks the cell taken and counts it in flight', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    expect(q.cellStateOf(t.cell)).toBe('taken');
    expect(q.stats()).toMatchObject({ depth: 0, inFlight: 1 });
    expect(q.heldBy(c.handle)).toBe(1);
  });

  it('returns undefined when nothing is waiting', () => {
    const q = new XQueue<string>('q', 2);
    const c = attachCounting(q);
    expect(q.take(c.handle)).toBeUndefined();
  });

  it('wakes the consumer again after it found the queue empty', () => {
    const q = new XQueue<string>('q', 2);
    const c = attachCounting(q);
    q.offer('a');
    q.take(c.handle);
    q.take(c.handle); // empty: idle again
    q.offer('b');
    expect(c.wakes).toBe(2);
  });

  it('does not wake a consumer that was woken and has not yet found the queue empty', () => {
    const q = new XQueue<string>('q', 4);
    const c = attachCounting(q);
    q.offer('a');
    q.take(c.handle);
    q.offer('b');
    expect(c.wakes).toBe(1);
  });

  it('wakes idle consumers in turn (round robin)', () => {
    const q = new XQueue<string>('q', 4);
    const a = attachCounting(q, 'a');
    const b = attachCounting(q, 'b');
    q.offer('1');
    q.offer('2');
    expect([a.wakes, b.wakes]).toEqual([1, 1]);
  });

  it('wakes the one consumer left after the other detached', () => {
    const q = new XQueue<string>('q', 4);
    const a = attachCounting(q, 'a');
    const b = attachCounting(q, 'b');
    q.detach(a.handle);
    q.offer('1');
    expect([a.wakes, b.wakes]).toEqual([0, 1]);
  });

  it('wakes neither a consumer handing over nor one detached, but the one attached after them', () => {
    const q = new XQueue<string>('q', 4);
    const old = attachCounting(q, 'old');
    q.holdForHandOver(old.handle);
    q.offer('1');
    const next = attachCounting(q, 'next');
    expect([old.wakes, next.wakes]).toEqual([0, 1]);
  });

  it('refuses an object that is not one of its consumers', () => {
    const q = new XQueue<string>('q', 2);
    expect(() => q.take({ id: 1, name: 'stranger' })).toThrow(XQueueError);
  });

  it('gives a detached consumer nothing', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    q.detach(c.handle);
    expect(q.take(c.handle)).toBeUndefined();
  });
});

describe('XQueue.remove', () => {
  it('frees the cell and counts the message removed', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    expect(q.remove(t)).toBe(true);
    expect(q.cellStateOf(t.cell)).toBe('empty');
    expect(q.stats()).toMatchObject({ inFlight: 0, free: 8, totalRemoved: 1 });
  });

  it('fires the completion callback with the message, the outcome done and the cell', () => {
    const { q, r } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    q.remove(t);
    expect(r.calls).toEqual([['a', 'done', t.cell]]);
  });

  it('passes outcome failed to the callback and counts it failed', () => {
    const { q, r } = queueWith(['a']);
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!, 'failed');
    expect(r.calls[0][1]).toBe('failed');
    expect(q.stats()).toMatchObject({ totalFailed: 1, totalRemoved: 0 });
  });

  it('hands the callback the message as the consumer left it', () => {
    const q = new XQueue<{ rc?: number }>('q', 2);
    const seen: ({ rc?: number } | undefined)[] = [];
    q.offer({}, (item) => seen.push({ ...item }));
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    (t.item as { rc?: number }).rc = 0;
    q.remove(t);
    expect(seen).toEqual([{ rc: 0 }]);
  });

  it('fires the callback exactly once even when remove is called twice', () => {
    const { q, r } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    q.remove(t);
    expect(q.remove(t)).toBe(false);
    expect(r.calls).toHaveLength(1);
  });

  it('still frees the cell when the callback throws, and reports the error', () => {
    const q = new XQueue<string>('q', 1);
    const errors: unknown[] = [];
    q.onCallbackError = (err) => errors.push(err);
    q.offer('a', () => {
      throw new Error('callback broke');
    });
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    expect(q.remove(t)).toBe(true);
    expect(q.cellStateOf(t.cell)).toBe('empty');
    expect(q.callbackErrors).toBe(1);
    expect((errors[0] as Error).message).toBe('callback broke');
  });

  it('hands the cell freed under a throwing callback to a waiting producer', async () => {
    const q = new XQueue<string>('q', 1);
    q.offer('a', () => {
      throw new Error('callback broke');
    });
    const waiting = q.reserve();
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    await expect(waiting).resolves.toBe(0);
  });

  it('refuses a Taken from a consumer that was detached (no callback fires)', () => {
    const { q, r } = queueWith(['a']);
    const crashed = attachCounting(q, 'crashed');
    const stale = q.take(crashed.handle)!;
    q.detach(crashed.handle);
    expect(q.remove(stale)).toBe(false);
    expect(r.calls).toEqual([]);
    expect(q.cellStateOf(stale.cell)).toBe('occupied');
  });

  it('refuses an old Taken once the same cell has been taken again', () => {
    const { q, r } = queueWith(['a']);
    const c = attachCounting(q);
    const first = q.take(c.handle)!;
    q.putback(first);
    const second = q.take(c.handle)!;
    expect(q.remove(first)).toBe(false);
    expect(q.remove(second)).toBe(true);
    expect(r.calls).toHaveLength(1);
  });
});

describe('XQueue.putback', () => {
  it('makes a taken message waiting again', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    expect(q.putback(t)).toBe(true);
    expect(q.cellStateOf(t.cell)).toBe('occupied');
    expect(q.stats()).toMatchObject({ depth: 1, inFlight: 0, totalPutback: 1 });
  });

  it('restores FIFO order: put back m2 then m0, the next takes return m0 then m2', () => {
    const { q } = queueWith(['m0', 'm1', 'm2', 'm3']);
    const c = attachCounting(q);
    const [t0, , t2] = [q.take(c.handle)!, q.take(c.handle)!, q.take(c.handle)!];
    q.putback(t2);
    q.putback(t0);
    expect([q.take(c.handle)?.item, q.take(c.handle)?.item, q.take(c.handle)?.item]).toEqual(['m0', 'm2', 'm3']);
  });

  it('does not fire the completion callback', () => {
    const { q, r } = queueWith(['a']);
    const c = attachCounting(q);
    q.putback(q.take(c.handle)!);
    expect(r.calls).toEqual([]);
  });

  it('refuses a Taken that was already removed', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    q.remove(t);
    expect(q.putback(t)).toBe(false);
  });

  it('wakes an idle consumer', () => {
    const { q } = queueWith(['a']);
    const holder = attachCounting(q, 'holder');
    const t = q.take(holder.handle)!;
    q.take(holder.handle); // holder is idle now
    const before = holder.wakes;
    q.putback(t);
    expect(holder.wakes).toBe(before + 1);
  });
});

describe('XQueue.detach', () => {
  it('puts back every message the consumer holds and returns how many', () => {
    const { q } = queueWith(['a', 'b', 'c']);
    const c = attachCounting(q);
    q.take(c.handle);
    q.take(c.handle);
    expect(q.detach(c.handle)).toBe(2);
    expect(q.stats()).toMatchObject({ depth: 3, inFlight: 0, consumers: 0 });
  });

  it('puts the messages back at their original positions', () => {
    const { q } = queueWith(['a', 'b', 'c']);
    const crashed = attachCounting(q, 'crashed');
    q.take(crashed.handle);
    q.take(crashed.handle);
    q.detach(crashed.handle);
    const next = attachCounting(q, 'replacement');
    expect([q.take(next.handle)?.item, q.take(next.handle)?.item, q.take(next.handle)?.item]).toEqual(['a', 'b', 'c']);
  });

  it('wakes another consumer to take over the put-back messages', () => {
    const { q } = queueWith(['a']);
    const crashed = attachCounting(q, 'crashed');
    const other = attachCounting(q, 'other');
    q.take(crashed.handle);
    q.take(other.handle); // other idle
    const before = other.wakes;
    q.detach(crashed.handle);
    expect(other.wakes).toBe(before + 1);
  });

  it('leaves the messages of other consumers alone', () => {
    const { q } = queueWith(['a', 'b']);
    const a = attachCounting(q, 'a');
    const b = attachCounting(q, 'b');
    q.take(a.handle);
    const tb = q.take(b.handle)!;
    q.detach(a.handle);
    expect(q.cellStateOf(tb.cell)).toBe('taken');
    expect(q.remove(tb)).toBe(true);
  });

  it('returns 0 the second time', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    q.take(c.handle);
    q.detach(c.handle);
    expect(q.detach(c.handle)).toBe(0);
  });
});

describe('XQueue.park', () => {
  it('wakes a consumer that stopped taking while messages still wait', () => {
    const { q } = queueWith(['a', 'b']);
    const c = attachCounting(q);
    q.take(c.handle); // still scheduled: it did not find the queue empty
    q.park(c.handle);
    expect(c.wakes).toBe(2);
  });

  it('does not wake a consumer when nothing waits', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    q.take(c.handle);
    q.park(c.handle);
    expect(c.wakes).toBe(1);
  });

  it('lets the next add wake a parked consumer', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    q.take(c.handle);
    q.park(c.handle);
    q.offer('b');
    expect(c.wakes).toBe(2);
  });
});

describe('XQueue browsing', () => {
  it('browse reads a message in any state without changing it', () => {
    const { q } = queueWith(['a']);
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    expect(q.browse(t.cell)).toBe('a');
    expect(q.cellStateOf(t.cell)).toBe('taken');
  });

  it('cellStateOf says out-of-range for a cell beyond the capacity', () => {
    expect(new XQueue('q', 2).cellStateOf(2)).toBe('out-of-range');
  });

  it('waitingCells lists the occupied cells in FIFO order', () => {
    const q = new XQueue<string>('q', 4);
    const a = q.tryReserve();
    const b = q.tryReserve();
    q.add(b, 'first');
    q.add(a, 'second');
    expect(q.waitingCells()).toEqual([b, a]);
  });
});
