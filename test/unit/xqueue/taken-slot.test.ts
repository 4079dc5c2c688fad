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

describe('Taken.slot', () => {
  it('is given with every take', () => {
    const q = new XQueue<string>('q', 2);
    const c = attachCounting(q);
    q.offer('a');
    expect(q.take(c.handle)?.slot).toBeDefined();
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
    const a = new XQueue<string>('a', 2);
    const b = new XQueue<string>('b', 2);
    const ca = attachCounting(a);
    const cb = attachCounting(b);
    a.offer('from a');
    b.offer('from b');
    const takenA = a.take(ca.handle)!;
    const takenB = b.take(cb.handle)!;
    const mixed: Taken<string> = { ...takenA, slot: takenB.slot };
    expect([a.remove(mixed), a.stats().inFlight, b.stats().inFlight, b.remove(takenB)]).toEqual([true, 0, 1, true]);
  });

  it('looks the cell up by number when the slot is a cell of another number', () => {
    const q = new XQueue<string>('q', 2);
    const c = attachCounting(q);
    q.offer('first');
    q.offer('second');
    const first = q.take(c.handle)!;
    const second = q.take(c.handle)!;
    const mixed: Taken<string> = { ...second, slot: first.slot };
    expect([q.remove(mixed), q.browse(first.cell), q.browse(second.cell)]).toEqual([true, 'first', undefined]);
  });

  it('puts back, through its slot, a message at its place before what was added after it', () => {
    const q = new XQueue<string>('q', 3);
    const c = attachCounting(q);
    for (const item of ['a', 'b', 'c']) q.offer(item);
    const a = q.take(c.handle)!;
    q.take(c.handle); // b stays taken
    expect([q.putback(a), q.waitingCells().map((cell) => q.browse(cell))]).toEqual([true, ['a', 'c']]);
  });
});
