/**
 * The small data structures JobNode's scheduler is built from, chosen so that no dispatch decision
 * scans the pending jobs: a growable ring deque (per-group FIFO, per-key waiting lists, free workers),
 * a binary min-heap (jobs that re-enter a group out of arrival order) and a rank bitset (which groups,
 * in priority order, have work and room).
 */

/** A double-ended queue on a power-of-two ring that grows when full. O(1) at both ends. */
export class Deque<T> {
  private slots: (T | undefined)[];
  private head = 0;
  private count = 0;
  private mask: number;

  constructor(initialCapacity = 16) {
    let n = 4;
    while (n < initialCapacity) n <<= 1;
    this.slots = new Array<T | undefined>(n).fill(undefined);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
  }

  peekFront(): T | undefined {
    return this.count === 0 ? undefined : this.slots[this.head];
  }

  pushBack(item: T): void {
    if (this.count === this.slots.length) this.grow();
    this.slots[(this.head + this.count) & this.mask] = item;
    this.count++;
  }

  pushFront(item: T): void {
    if (this.count === this.slots.length) this.grow();
    this.head = (this.head - 1) & this.mask;
    this.slots[this.head] = item;
    this.count++;
  }

  popFront(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.count--;
    return item;
  }

  at(index: number): T | undefined {
    return index < 0 || index >= this.count ? undefined : this.slots[(this.head + index) & this.mask];
  }

  /** Removes the first item for which `match` holds (linear: used off the hot path only). */
  removeFirst(match: (item: T) => boolean): T | undefined {
    for (let i = 0; i < this.count; i++) {
      const item = this.slots[(this.head + i) & this.mask] as T;
      if (!match(item)) continue;
      for (let j = i; j < this.count - 1; j++) this.slots[(this.head + j) & this.mask] = this.slots[(this.head + j + 1) & this.mask];
      this.slots[(this.head + this.count - 1) & this.mask] = undefined;
      this.count--;
      return item;
    }
    return undefined;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.count; i++) yield this.slots[(this.head + i) & this.mask] as T;
  }

  private grow(): void {
    const old = this.slots;
    const n = old.length * 2;
    const slots = new Array<T | undefined>(n).fill(undefined);
    for (let i = 0; i < this.count; i++) slots[i] = old[(this.head + i) & this.mask];
    this.slots = slots;
    this.head = 0;
    this.mask = n - 1;
  }
}

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
