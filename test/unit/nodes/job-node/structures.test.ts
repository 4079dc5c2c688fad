import { ArrivalBlockPool, ArrivalQueue, MinHeap, RankSet } from '../../../../actors/nodes/job-node-structures';
import { Deque } from '../../../../actors/nodes/deque';

describe('JobNode structures', () => {
  it('keeps arrivals in order across many blocks and lists them oldest first', () => {
    const q = new ArrivalQueue<string>(new ArrivalBlockPool());
    for (let i = 0; i < 1000; i++) q.pushBack(i, 10 * i, `k${i}`, `p${i}`);
    q.dropFront();
    const seen: number[] = [];
    q.forEach((id) => seen.push(id));
    expect(seen).toEqual(Array.from({ length: 999 }, (_, i) => i + 1));
    const out: string[] = [];
    while (q.size > 0) {
      out.push(`${q.frontId()}/${q.frontAcceptedAt()}/${q.frontKey()}/${q.frontPayload()}`);
      q.dropFront();
    }
    expect(out[0]).toBe('1/10/k1/p1');
    expect(out[998]).toBe('999/9990/k999/p999');
  });

  it('reuses blocks given back by another queue of the same pool', () => {
    const pool = new ArrivalBlockPool();
    const a = new ArrivalQueue<number>(pool);
    for (let i = 0; i < 600; i++) a.pushBack(i, 0, undefined, i);
    for (let i = 0; i < 600; i++) a.dropFront();
    const b = new ArrivalQueue<number>(pool);
    b.pushBack(7, 0, undefined, 7);
    expect([b.size, b.frontPayload(), a.size]).toEqual([1, 7, 0]);
  });

  it('grows a deque at both ends and removes from the middle', () => {
    const d = new Deque<number>(4);
    for (let i = 0; i < 10; i++) d.pushBack(i);
    d.pushFront(-1);
    expect(d.removeFirst((x) => x === 5)).toBe(5);
    expect([...d]).toEqual([-1, 0, 1, 2, 3, 4, 6, 7, 8, 9]);
  });

  it('pops a min-heap in key order', () => {
    const h = new MinHeap<number>((x) => x);
    for (const x of [5, 3, 9, 1, 7, 2]) h.push(x);
    const out: number[] = [];
    while (h.size > 0) out.push(h.pop() as number);
    expect(out).toEqual([1, 2, 3, 5, 7, 9]);
  });

  it('finds the lowest rank present in two rank sets', () => {
    const a = new RankSet(100);
    const b = new RankSet(100);
    [3, 40, 70].forEach((r) => a.set(r, true));
    [40, 70, 99].forEach((r) => b.set(r, true));
    expect(RankSet.firstCommon(a, b)).toBe(40);
    a.set(40, false);
    expect(RankSet.firstCommon(a, b)).toBe(70);
  });
});
