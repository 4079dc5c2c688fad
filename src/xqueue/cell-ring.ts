/**
 * A fixed-size ring of cell ids (0..capacity-1). Used for the free list and for the ready list
 * (occupied cells in sequence order). Every id is in at most one ring at a time, so a ring never
 * needs more than `capacity` slots.
 */
export class CellRing {
  private slots: Int32Array;
  private head = 0;
  private count = 0;

  constructor(capacity: number) {
    this.slots = new Int32Array(Math.max(1, capacity));
  }

  /** Room for `capacity` ids, the ids held kept in order (XQueue.resize grows the queue's rings). */
  grow(capacity: number): void {
    if (capacity <= this.slots.length) return;
    const slots = new Int32Array(capacity);
    for (let i = 0; i < this.count; i++) slots[i] = this.at(i);
    this.slots = slots;
    this.head = 0;
  }

  /** Keeps only the ids `keep` accepts, in order. O(size). */
  retain(keep: (cell: number) => boolean): void {
    const n = this.count;
    for (let i = 0; i < n; i++) {
      const cell = this.popFront();
      if (keep(cell)) this.pushBack(cell);
    }
  }

  get size(): number {
    return this.count;
  }

  at(index: number): number {
    return this.slots[this.slot(index)];
  }

  pushBack(cell: number): void {
    this.slots[this.slot(this.count)] = cell;
    this.count++;
  }

  pushFront(cell: number): void {
    this.head = this.head === 0 ? this.slots.length - 1 : this.head - 1;
    this.slots[this.head] = cell;
    this.count++;
  }

  popFront(): number {
    if (this.count === 0) return -1;
    const cell = this.slots[this.head];
    this.head = this.head + 1 === this.slots.length ? 0 : this.head + 1;
    this.count--;
    return cell;
  }

  /** Where the element at `index` (0 = front, index < capacity) is kept: a compare, not a division, per hop. */
  private slot(index: number): number {
    const i = this.head + index;
    return i < this.slots.length ? i : i - this.slots.length;
  }

  /** Removes the element at `index` (0 = front), shifting the later ones forward. O(size - index). */
  removeAt(index: number): number {
    const cell = this.at(index);
    for (let i = index; i < this.count - 1; i++) {
      this.slots[this.slot(i)] = this.slots[this.slot(i + 1)];
    }
    this.count--;
    return cell;
  }

  /** Inserts at `index`, shifting the later ones back. O(size - index). */
  insertAt(index: number, cell: number): void {
    for (let i = this.count; i > index; i--) {
      this.slots[this.slot(i)] = this.slots[this.slot(i - 1)];
    }
    this.slots[this.slot(index)] = cell;
    this.count++;
  }

  indexOf(cell: number): number {
    for (let i = 0; i < this.count; i++) if (this.at(i) === cell) return i;
    return -1;
  }
}
