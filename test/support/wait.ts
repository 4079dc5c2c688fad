/**
 * Waiting in tests, one implementation of each: waitFor (a condition, polled) for every project, and sleep (a fixed
 * wall-clock wait) only where a real broker or process sets the pace (integration and fault tests). The unit project
 * may not sleep: its lint rules reject setTimeout and this sleep (docs/development.md "Time in tests").
 */

/**
 * Resolves when `predicate` holds (it may be async, e.g. an HTTP status check or a broker's queue count), polling every
 * `everyMs`; rejects after `timeoutMs` with `what` in the message. `what` may be a function, to describe the state at
 * the moment of the timeout.
 */
export async function waitFor(predicate: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 10_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await sleep(everyMs);
  }
}

/**
 * Resolves when `count()` reaches `target`; rejects only when the count has not grown for `stallMs`. For a real
 * flow draining a backlog, whose pace depends on how loaded the machine is: a flow that keeps moving is given the
 * time it needs, a flow that stops is caught within `stallMs`.
 */
export async function waitWhileProgressing(count: () => number, target: number, what: () => string, stallMs = 30_000, everyMs = 50): Promise<void> {
  let last = count();
  let lastMovedAt = Date.now();
  while (last < target) {
    if (Date.now() - lastMovedAt > stallMs) throw new Error(`no progress for ${stallMs} ms waiting for ${what()}`);
    await sleep(everyMs);
    const now = count();
    if (now > last) [last, lastMovedAt] = [now, Date.now()];
  }
}

/** Resolves after `ms` of wall-clock time. Not in unit tests: wait for a condition or use a VirtualClock. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves after `turns` full turns of the event loop, a wait for no amount of time: data a peer in this process already
 * wrote to a loopback socket has then been read and handled (the poll phase of each turn reads what the kernel holds).
 * It shows that something that would have been sent at once was not (e.g. an accept before its message was removed),
 * and lets a fake peer answer in a later read than the request's without a timer.
 */
export async function eventLoopTurns(turns = 2): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Counts full event-loop turns (a `setImmediate` each) while `during` runs: `turn` is how many have ended since it
 * began, 0 before. Shows in which turn something happened: work done in the turn that caused it reads 0.
 */
export class TurnCounter {
  turn = 0;

  async during(work: () => Promise<void>): Promise<void> {
    const tick = (): void => {
      this.turn++;
      ticker = setImmediate(tick);
    };
    let ticker = setImmediate(tick);
    try {
      await work();
    } finally {
      clearImmediate(ticker);
    }
  }
}
