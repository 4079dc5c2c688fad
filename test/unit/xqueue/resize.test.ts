/** XQueue.resize (a reload changes a link's capacity in place) and the hand-over of a consumer's held messages. */
import { XQueue } from '../../../src/xqueue/xqueue';
import { attachCounting, recorder, settle } from './helpers';

function filled(capacity: number, items: string[]) {
  const q = new XQueue<string>('q', capacity);
  const r = recorder<string>();
  for (const item of items) expect(q.offer(item, r.onDone)).toBeGreaterThanOrEqual(0);
  return { q, r };
}

function takeAll(q: XQueue<string>): string[] {
  const c = attachCounting(q);
  const out: string[] = [];
  for (let t = q.take(c.handle); t !== undefined; t = q.take(c.handle)) {
    out.push(t.item);
    q.remove(t);
  }
  return out;
}

describe('XQueue.resize', () => {
  it('grows: what the queue holds stays in order and the new cells can be reserved', () => {
    const { q } = filled(2, ['a', 'b']);
    q.resize(4);
    expect(q.capacity).toBe(4);
    expect(q.offer('c')).toBeGreaterThanOrEqual(0);
    expect(q.offer('d')).toBeGreaterThanOrEqual(0);
    expect(q.offer('e')).toBe(-1);
    expect(takeAll(q)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('hands the new cells to producers that were waiting for one', async () => {
    const { q } = filled(1, ['a']);
    const waiting = q.reserve();
    q.resize(2);
    await expect(waiting).resolves.toBe(1);
  });

  it('shrinks without dropping a message: the queue holds more than its capacity until they are removed', () => {
    const { q, r } = filled(4, ['a', 'b', 'c']);
    q.resize(2);
    expect(q.stats()).toMatchObject({ capacity: 2, size: 3, free: 0 });
    expect(q.offer('d')).toBe(-1);
    expect(takeAll(q)).toEqual(['a', 'b', 'c']);
    expect(r.calls.map(([item, outcome]) => `${item} ${outcome}`)).toEqual(['a done', 'b done', 'c done']);
    expect(q.stats()).toMatchObject({ capacity: 2, size: 0, free: 2 });
  });

  it('never hands out a retired cell after a shrink', () => {
    const q = new XQueue<string>('q', 8);
    q.resize(3);
    const cells = [q.tryReserve(), q.tryReserve(), q.tryReserve(), q.tryReserve()];
    expect(cells.slice(0, 3).every((c) => c >= 0 && c < 3)).toBe(true);
    expect(cells[3]).toBe(-1);
  });

  it('grows again after a shrink, reusing the retired cells that are empty', () => {
    const { q } = filled(4, ['a']);
    q.resize(1);
    q.resize(4);
    expect([q.offer('b'), q.offer('c'), q.offer('d'), q.offer('e')].filter((c) => c >= 0)).toHaveLength(3);
    expect(takeAll(q)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps a taken message removable across a resize', () => {
    const { q, r } = filled(2, ['a', 'b']);
    const c = attachCounting(q);
    const taken = q.take(c.handle)!;
    q.resize(8);
    expect(q.remove(taken)).toBe(true);
    expect(r.calls).toEqual([['a', 'done', taken.cell]]);
  });

  it('treats a capacity of 0 or less as 1, as the constructor does', () => {
    const q = new XQueue<string>('q', 4);
    q.resize(0);
    expect(q.capacity).toBe(1);
  });
});

describe('XQueue.holdForHandOver and adopt', () => {
  it('keeps what a held consumer took taken, and wakes it no more', async () => {
    const { q } = filled(4, ['a', 'b']);
    const old = attachCounting(q, 'old');
    q.take(old.handle);
    const wakes = old.wakes;
    expect(q.holdForHandOver(old.handle)).toBe(1);
    q.offer('c');
    await settle();
    expect({ wakes: old.wakes, inFlight: q.inFlight, depth: q.depth }).toEqual({ wakes, inFlight: 1, depth: 2 });
  });

  it('gives the next consumer what the held one took: its Taken still removes it, exactly once', () => {
    const { q, r } = filled(4, ['a', 'b']);
    const old = attachCounting(q, 'old');
    const taken = q.take(old.handle)!;
    q.holdForHandOver(old.handle);
    const next = attachCounting(q, 'next');
    expect(q.adopt(old.handle, next.handle)).toBe(1);
    expect(q.heldBy(next.handle)).toBe(1);
    expect(q.take(next.handle)?.item).toBe('b');
    expect(q.remove(taken)).toBe(true);
    expect(r.calls.map(([item]) => item)).toEqual(['a']);
    expect(q.stats().totalPutback).toBe(0);
  });

  it('puts what a held consumer took back in order when it is detached instead of adopted', () => {
    const { q } = filled(4, ['a', 'b']);
    const old = attachCounting(q, 'old');
    q.take(old.handle);
    q.holdForHandOver(old.handle);
    expect(q.detach(old.handle)).toBe(1);
    expect(takeAll(q)).toEqual(['a', 'b']);
  });
});
