/**
 * The virtual Clock (src/runtime/clock.ts) of every time-dependent test: pass it to an ActorRuntime (or to what
 * takes a clock: Reconnector, JobNode's scheduler, MemorySharedStore) and time moves only through advance(),
 * advanceTo() or runUntil(). Due timers run in time order (ties in the order they were set), and a timer set while
 * advancing runs in the same advance if it falls due. How to write such a test: docs/development.md "Time in tests".
 */
import { Clock, ClockTimer } from '../../src/runtime/clock';
import { waitFor } from './wait';

interface VirtualTimer {
  readonly id: number;
  readonly due: number;
}

interface Entry extends VirtualTimer {
  fn: () => void;
}

export class VirtualClock implements Clock {
  private time: number;
  private ids = 0;
  private readonly timers = new Map<number, Entry>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  set(fn: () => void, ms: number): ClockTimer {
    const entry: Entry = { id: ++this.ids, due: this.time + Math.max(0, ms), fn };
    this.timers.set(entry.id, entry);
    return entry as unknown as ClockTimer;
  }

  clear(timer: ClockTimer | undefined): void {
    const t = timer as unknown as VirtualTimer | undefined;
    if (t !== undefined) this.timers.delete(t.id);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.size;
  }

  /** How far ahead the earliest pending timer is (ms), or undefined when none is pending. */
  nextDelay(): number | undefined {
    const next = this.earliest(Infinity);
    return next === undefined ? undefined : next.due - this.time;
  }

  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      const next = this.earliest(target);
      if (next === undefined) break;
      this.timers.delete(next.id);
      this.time = Math.max(this.time, next.due);
      next.fn();
    }
    this.time = Math.max(this.time, target);
  }

  /**
   * Waits until a timer is pending (what the code under test sets once its asynchronous work gets there), then
   * advances `ms`. Use it when the timer is set after a promise or an actor message, not synchronously.
   */
  async advanceWhenPending(ms: number, what: string): Promise<void> {
    await waitFor(() => this.pending > 0, `a timer to be set: ${what}`);
    this.advance(ms);
  }

  /**
   * Lets the code under test run on virtual time until `done` holds: whenever a timer is pending, the clock jumps to
   * it and runs it; in between, the test waits (real time, polling) for the asynchronous work the timer started.
   * For one chain of timers at a time (a reconnector's attempts, an actor's restarts): with several independent
   * chains, wait for the timer you mean (advanceWhenPending) instead.
   */
  async runUntil(done: () => boolean, what: string | (() => string), timeoutMs = 10_000): Promise<void> {
    await waitFor(
      () => {
        if (done()) return true;
        const next = this.earliest(Infinity);
        if (next !== undefined) this.advanceTo(next.due);
        return done();
      },
      what,
      timeoutMs,
    );
  }

  private earliest(limit: number): Entry | undefined {
    let next: Entry | undefined;
    for (const t of this.timers.values()) if (t.due <= limit && (next === undefined || t.due < next.due || (t.due === next.due && t.id < next.id))) next = t;
    return next;
  }
}
