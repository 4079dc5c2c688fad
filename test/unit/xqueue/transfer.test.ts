import { attachCounting, queueWith } from './helpers';

describe('XQueue.transfer (a replaced consumer hands what it holds to its successor)', () => {
  it('lets the new holder remove the message with the Taken the first consumer got, firing the producer callback once', () => {
    const { q, r } = queueWith(['a']);
    const first = attachCounting(q, 'first');
    const taken = q.take(first.handle)!;
    const second = attachCounting(q, 'second');
    expect(q.transfer(taken, second.handle)).toBe(true);
    expect([q.heldBy(first.handle), q.heldBy(second.handle)]).toEqual([0, 1]);
    expect(q.remove(taken)).toBe(true);
    expect(r.calls).toEqual([['a', 'done', taken.cell]]);
  });

  it('keeps a transferred message taken when the first consumer detaches', () => {
    const { q } = queueWith(['a', 'b']);
    const first = attachCounting(q, 'first');
    const a = q.take(first.handle)!;
    q.take(first.handle);
    const holder = q.holder('handover');
    q.transfer(a, holder);
    expect(q.detach(first.handle)).toBe(1);
    expect([q.inFlight, q.depth]).toEqual([1, 1]);
  });

  it('refuses a stale Taken and moves nothing', () => {
    const { q } = queueWith(['a']);
    const first = attachCounting(q, 'first');
    const taken = q.take(first.handle)!;
    q.putback(taken);
    expect(q.transfer(taken, q.holder('handover'))).toBe(false);
    expect(q.depth).toBe(1);
  });

  it('refuses a detached target', () => {
    const { q } = queueWith(['a']);
    const first = attachCounting(q, 'first');
    const taken = q.take(first.handle)!;
    const gone = q.holder('gone');
    q.detach(gone);
    expect(q.transfer(taken, gone)).toBe(false);
    expect(q.heldBy(first.handle)).toBe(1);
  });
});

describe('XQueue.holder', () => {
  it('is never woken and takes no part in handing out messages', () => {
    const { q } = queueWith([]);
    q.holder('handover');
    const c = attachCounting(q, 'worker');
    q.offer('a');
    expect(c.wakes).toBe(1);
    expect(q.stats().consumers).toBe(1);
  });

  it('puts back what it still holds, in order, when detached', () => {
    const { q } = queueWith(['a', 'b', 'c']);
    const first = attachCounting(q, 'first');
    const [a, b, c] = [q.take(first.handle)!, q.take(first.handle)!, q.take(first.handle)!];
    const holder = q.holder('handover');
    for (const t of [c, a]) q.transfer(t, holder);
    q.remove(b);
    expect(q.detach(holder)).toBe(2);
    const next = attachCounting(q, 'next');
    expect([q.take(next.handle)?.item, q.take(next.handle)?.item]).toEqual(['a', 'c']);
  });
});
