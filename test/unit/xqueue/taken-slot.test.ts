/**
 * A Taken's slot (issue 32): remove and putback go to the cell it names without looking the cell up by number, and
 * fall back to the number for a Taken without one or with one that is not this queue's cell of that number.
 */
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { attachCounting } from './helpers';

/** `taken` as a consumer that keeps its own record of a take copies it: cell, item and generation only. */
function withoutSlot<T>(taken: Taken<T>): Taken<T> {
  return { cell: taken.cell, item: taken.item, generation: taken.generation };
}

/** A queue of `capacity` with `items` offered and then taken, in order, by one consumer: the queue and the Takens. */
function taking(name: string, capacity: number, items: string[]): { q: XQueue<string>; taken: Taken<string>[] } {
  const q = new XQueue<string>(name, capacity);
  const c = attachCounting(q);
  for (const item of items) q.offer(item);
  return { q, taken: items.map(() => q.take(c.handle)!) };
}

describe('Taken.slot', () => {
  it('is given with every take', () => {
    expect(taking('q', 2, ['a']).taken[0].slot).toBeDefined();
  });

  it('removes the message a Taken copied without its slot names, looked up by its cell number', () => {
    const q = new XQueue<string>('q', 2);
    const c = attachCounting(q);
    const done: string[] = [];
    q.offer('a', (item, outcome) => done.push(`${item} ${outcome}`));
    const taken = q.take(c.handle)!;
    expect([q.remove(withoutSlot(taken)), q.remove(taken), done]).toEqual([true, false, ['a done']]);
  });

  it("looks the cell up by number when the slot is another queue's cell, leaving that queue's message alone", () => {
    const a = taking('a', 2, ['from a']);
    const b = taking('b', 2, ['from b']);
    const mixed: Taken<string> = { ...a.taken[0], slot: b.taken[0].slot };
    expect([a.q.remove(mixed), a.q.stats().inFlight, b.q.stats().inFlight, b.q.remove(b.taken[0])]).toEqual([true, 0, 1, true]);
  });

  it('looks the cell up by number when the slot is a cell of another number', () => {
    const { q, taken } = taking('q', 2, ['first', 'second']);
    const mixed: Taken<string> = { ...taken[1], slot: taken[0].slot };
    expect([q.remove(mixed), q.browse(taken[0].cell), q.browse(taken[1].cell)]).toEqual([true, 'first', undefined]);
  });

  it('puts back, through its slot, a message at its place before what was added after it', () => {
    const { q, taken } = taking('q', 3, ['a', 'b']);
    q.offer('c');
    // b stays taken
    expect([q.putback(taken[0]), q.waitingCells().map((cell) => q.browse(cell))]).toEqual([true, ['a', 'c']]);
  });
});
