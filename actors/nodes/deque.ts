/** The ring deque the nodes queue with (JobNode's scheduler, the outlink sender both nodes use). */

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
