/**
 * A virtual clock with one-shot timers, for tests of time-driven logic (JobNode's scheduler). Time moves
 * only through advance()/advanceTo(); due timers run in time order (ties in the order they were set),
 * and a timer set while advancing runs in the same advance if it falls due.
 */
export interface VirtualTimer {
  readonly id: number;
  readonly due: number;
}

interface Entry extends VirtualTimer {
  fn: () => void;
}

export class VirtualClock {
  private time: number;
  private ids = 0;
  private readonly timers = new Map<number, Entry>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  set(fn: () => void, ms: number): VirtualTimer {
    const entry: Entry = { id: ++this.ids, due: this.time + Math.max(0, ms), fn };
    this.timers.set(entry.id, entry);
    return entry;
  }

  clear(token: unknown): void {
    const t = token as VirtualTimer | undefined;
    if (t !== undefined) this.timers.delete(t.id);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      let next: Entry | undefined;
      for (const t of this.timers.values()) if (t.due <= target && (next === undefined || t.due < next.due || (t.due === next.due && t.id < next.id))) next = t;
      if (next === undefined) break;
      this.timers.delete(next.id);
      this.time = Math.max(this.time, next.due);
      next.fn();
    }
    this.time = Math.max(this.time, target);
  }
}
