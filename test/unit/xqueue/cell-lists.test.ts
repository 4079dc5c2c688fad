/**
 * The order of an XQueue's free and ready cells, kept in lists linked through the cells (issue 32): free cells are
 * reserved in the order they were freed (a cancelled reservation first), ready ones in the order they were added,
 * whatever is taken out of the middle or put back.
 */
import { XQueue } from '../../../src/xqueue/xqueue';
import { parsePartition } from '../../../src/xqueue/partition';
import { attachCounting } from './helpers';

/** Reserves every free cell and returns them in the order they came, then cancels them in that order. */
function freeOrder<T>(q: XQueue<T>): number[] {
  const cells: number[] = [];
  for (let cell = q.tryReserve(); cell >= 0; cell = q.tryReserve()) cells.push(cell);
  // Cancelled cells go to the front: cancel from the last, so the order is as it was.
  for (const cell of [...cells].reverse()) q.cancel(cell);
  return cells;
}

describe('XQueue cell lists', () => {
  it('reserves the cells freed longest ago first, and a cancelled reservation before them', () => {
    const q = new XQueue<string>('q', 4);
    const c = attachCounting(q);
    for (const item of ['a', 'b', 'c']) q.offer(item);
    const first = q.take(c.handle)!;
    q.remove(q.take(c.handle)!); // cell 1 freed first
    q.remove(first); // then cell 0
    expect(freeOrder(q)).toEqual([3, 1, 0]);
    const reserved = q.tryReserve();
    expect(reserved).toBe(3);
    q.cancel(reserved);
    expect(q.tryReserve()).toBe(3);
  });

  it('takes a free cell of a partition out of the middle of the list, the others keeping their order', () => {
    const q = new XQueue<string>('q', 4);
    expect(q.tryReserve(parsePartition('2', 4))).toBe(2);
    expect(freeOrder(q)).toEqual([0, 1, 3]);
    expect(q.stats().free).toBe(3);
  });

  it('keeps the ready cells in the order added through a takeback in the middle and put-backs', () => {
    const q = new XQueue<string>('q', 4);
    const c = attachCounting(q);
    const cells = ['a', 'b', 'c', 'd'].map((item) => q.offer(item));
    expect(q.takeback(cells[1])).toBe('b');
    expect(q.waitingCells()).toEqual([cells[0], cells[2], cells[3]]);
    const a = q.take(c.handle)!;
    const cTaken = q.take(c.handle)!;
    q.putback(cTaken);
    q.putback(a);
    expect(q.waitingCells()).toEqual([cells[0], cells[2], cells[3]]);
    expect(['a', 'c', 'd'].map(() => q.take(c.handle)!.item)).toEqual(['a', 'c', 'd']);
    expect(q.take(c.handle)).toBeUndefined();
    expect(q.depth).toBe(0);
  });

  it('puts taken messages back at their places in whatever order they come back', () => {
    const q = new XQueue<number>('q', 8);
    const c = attachCounting(q);
    for (let i = 0; i < 8; i++) q.offer(i);
    const taken = Array.from({ length: 6 }, () => q.take(c.handle)!);
    for (const i of [3, 0, 5, 1, 4, 2]) q.putback(taken[i]);
    expect(Array.from({ length: 8 }, () => q.take(c.handle)!.item)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('puts back what a detached consumer held before what waits, in order, in work linear in what it held', () => {
    const n = 100_000;
    const q = new XQueue<number>('q', 2 * n);
    const first = attachCounting(q, 'first');
    for (let i = 0; i < 2 * n; i++) q.offer(i);
    for (let i = 0; i < n; i++) q.take(first.handle);
    const started = process.hrtime.bigint();
    expect(q.detach(first.handle)).toBe(n);
    // Walking the ready list from its head for each of them was n²/2 = 5e9 steps: seconds, not milliseconds.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
    const second = attachCounting(q, 'second');
    const order: number[] = [];
    for (let t = q.take(second.handle); t; t = q.take(second.handle)) order.push(t.item);
    expect(order).toEqual(Array.from({ length: 2 * n }, (_, i) => i));
  });

  it('retires the free cells past a shrink and frees them again, in order, when it grows back', () => {
    const q = new XQueue<string>('q', 4);
    q.resize(2);
    expect(freeOrder(q)).toEqual([0, 1]);
    q.resize(5);
    expect(freeOrder(q)).toEqual([0, 1, 2, 3, 4]);
  });
});
