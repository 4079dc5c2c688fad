/**
 * The small data structures JobNode's scheduler is built from, chosen so that no dispatch decision
 * scans the pending jobs: the ring deque of deque.ts (per-group FIFO, per-key waiting lists, free workers),
 * a binary min-heap (jobs that re-enter a group out of arrival order) and a rank bitset (which groups,
 * in priority order, have work and room).
 */

/** A binary min-heap ordered by a numeric key read from each item. */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly keyOf: (item: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    const k = this.keyOf(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keyOf(a[parent]) <= k) break;
      a[i] = a[parent];
      i = parent;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop() as T;
    if (a.length > 0) {
      const k = this.keyOf(last);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && this.keyOf(a[r]) < this.keyOf(a[l]) ? r : l;
        if (this.keyOf(a[c]) >= k) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }

  values(): readonly T[] {
    return this.items;
  }
}

/** A set of small integers (ranks) with "lowest member of A ∩ B" in O(n / 32). */
export class RankSet {
  readonly words: Uint32Array;

  constructor(readonly size: number) {
    this.words = new Uint32Array(Math.max(1, Math.ceil(size / 32)));
  }

  set(rank: number, on: boolean): void {
    const w = rank >>> 5;
    const bit = 1 << (rank & 31);
    if (on) this.words[w] |= bit;
    else this.words[w] &= ~bit;
  }

  has(rank: number): boolean {
    return (this.words[rank >>> 5] & (1 << (rank & 31))) !== 0;
  }

  /** The lowest rank present in both sets, or -1. */
  static firstCommon(a: RankSet, b: RankSet): number {
    const wa = a.words;
    const wb = b.words;
    for (let w = 0; w < wa.length; w++) {
      const x = wa[w] & wb[w];
      if (x !== 0) return (w << 5) + (31 - Math.clz32(x & -x));
    }
    return -1;
  }
}

/** A block of the arrival queues: ids and arrival times inline, keys and payloads in a parallel array. */
interface ArrivalBlock {
  readonly nums: Float64Array;
  readonly refs: unknown[];
  next: ArrivalBlock | undefined;
}

const BLOCK = 256;

/** Blocks shared by the arrival queues of one scheduler, so a steady backlog allocates nothing. */
export class ArrivalBlockPool {
  private readonly free: ArrivalBlock[] = [];

  take(): ArrivalBlock {
    const b = this.free.pop();
    if (b !== undefined) return b;
    return { nums: new Float64Array(2 * BLOCK), refs: new Array<unknown>(2 * BLOCK).fill(undefined), next: undefined };
  }

  give(b: ArrivalBlock): void {
    b.next = undefined;
    this.free.push(b);
  }
}

/**
 * A FIFO of fresh job arrivals stored inline (no object per job) in a chain of fixed-size blocks from
 * a shared pool: taking from the front reads memory in the order it was written, growth never copies,
 * and a long backlog adds neither garbage-collection work nor scattered memory reads.
 */
export class ArrivalQueue<P> {
  private head: ArrivalBlock | undefined;
  private tail: ArrivalBlock | undefined;
  /** Index of the front entry in `head`, and of the next free entry in `tail`. */
  private headIndex = 0;
  private tailIndex = 0;
  private count = 0;

  constructor(private readonly pool: ArrivalBlockPool) {}

  get size(): number {
    return this.count;
  }

  pushBack(id: number, acceptedAt: number, key: string | undefined, payload: P): void {
    let t = this.tail;
    if (t === undefined) {
      t = this.head = this.tail = this.pool.take();
      this.headIndex = this.tailIndex = 0;
    } else if (this.tailIndex === BLOCK) {
      t = t.next = this.tail = this.pool.take();
      this.tailIndex = 0;
    }
    const i = 2 * this.tailIndex++;
    t.nums[i] = id;
    t.nums[i + 1] = acceptedAt;
    t.refs[i] = key;
    t.refs[i + 1] = payload;
    this.count++;
  }

  frontId(): number {
    return (this.head as ArrivalBlock).nums[2 * this.headIndex];
  }

  frontAcceptedAt(): number {
    return (this.head as ArrivalBlock).nums[2 * this.headIndex + 1];
  }

  frontKey(): string | undefined {
    return (this.head as ArrivalBlock).refs[2 * this.headIndex] as string | undefined;
  }

  frontPayload(): P {
    return (this.head as ArrivalBlock).refs[2 * this.headIndex + 1] as P;
  }

  dropFront(): void {
    const h = this.head;
    if (h === undefined || this.count === 0) return;
    h.refs[2 * this.headIndex] = undefined;
    h.refs[2 * this.headIndex + 1] = undefined;
    this.headIndex++;
    this.count--;
    if (this.count === 0) {
      this.pool.give(h);
      this.head = this.tail = undefined;
    } else if (this.headIndex === BLOCK) {
      this.head = h.next;
      this.headIndex = 0;
      this.pool.give(h);
    }
  }

  /** Visits every entry, oldest first (status and snapshots only). */
  forEach(visit: (id: number, acceptedAt: number, key: string | undefined, payload: P) => void): void {
    let b = this.head;
    let i = this.headIndex;
    for (let n = 0; n < this.count; n++) {
      if (i === BLOCK) {
        b = (b as ArrivalBlock).next;
        i = 0;
      }
      const blk = b as ArrivalBlock;
      visit(blk.nums[2 * i], blk.nums[2 * i + 1], blk.refs[2 * i] as string | undefined, blk.refs[2 * i + 1] as P);
      i++;
    }
  }
}
