/**
 * The one time source of the actor runtime: the timers a behaviour starts through its ActorContext, supervision's
 * restart delays and crash window, and what takes its timers from an actor (the Reconnector's back-off, the
 * ReconnectingSender's retry delays, a receiver's redelivery delays) read the time and wait through a Clock.
 *
 * An ActorRuntime uses REAL_CLOCK (Node's timers and Date.now, nothing in between) unless it is given another.
 * Tests give it a virtual clock (test/support/virtual-clock.ts) that moves only when the test advances it, so a
 * 30 s back-off is tested in no wall time and to the millisecond. Jest's fake timers cannot do this: they break
 * the jest worker once an actor is stopped (docs/development.md "Time in tests").
 */

/** A started timer, as its clock returned it. Opaque: only the clock that made it can clear it. */
export interface ClockTimer {
  readonly __clockTimer: never;
}

export interface TimerOptions {
  /** The timer alone does not keep the process alive (Node's `unref`); a virtual clock ignores it. */
  readonly unref?: boolean;
}

export interface Clock {
  /** Milliseconds since the epoch (Date.now on the real clock). */
  now(): number;
  /** Runs `fn` once, `ms` from now. */
  set(fn: () => void, ms: number, options?: TimerOptions): ClockTimer;
  /** Cancels a timer that has not run yet; a timer that already ran, or undefined, is ignored. */
  clear(timer: ClockTimer | undefined): void;
}

/** Node's timers and Date.now. */
export const REAL_CLOCK: Clock = Object.freeze({
  now: Date.now,
  set(fn: () => void, ms: number, options?: TimerOptions): ClockTimer {
    const timer = setTimeout(fn, ms);
    if (options?.unref === true) timer.unref();
    return timer as unknown as ClockTimer;
  },
  clear(timer: ClockTimer | undefined): void {
    if (timer !== undefined) clearTimeout(timer as unknown as NodeJS.Timeout);
  },
});
