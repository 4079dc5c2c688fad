/**
 * The bound on the actor runtime's fast path (src/runtime/actor.ts, ActorCell.deliver): an idle consumer woken by an
 * XQueue handles its messages in a microtask of the turn that woke it, not a nact `setImmediate` turn later (and so
 * does an idle actor woken by its own waker, ActorContext.waker: one message of the budget per wake). A chain
 * of such wakes (a producer and a consumer feeding each other) never leaves the microtask queue, so it would starve
 * timers and I/O. The budget counts the messages handled on the fast path since the event loop last turned; once it
 * is spent, consumers are woken through nact again until a `setImmediate` refills it. The refill is queued once half
 * the budget is spent, not every turn: a turn can still spend no more than it holds, and a steady flow of messages
 * pays one `setImmediate` per half budget rather than one per turn.
 */

/** Messages per event-loop turn on the fast path: room for a poll phase that answers 512 pooled persisters at once (issue 32). */
export const FAST_MESSAGES_PER_TURN = 1024;

export class FastTurnBudget {
  private left: number;
  private refillQueued = false;
  private readonly refill = (): void => {
    this.refillQueued = false;
    this.left = this.perTurn;
  };

  constructor(readonly perTurn: number = FAST_MESSAGES_PER_TURN) {
    this.left = perTurn;
  }

  /** Some of this turn's budget is left (a wake may take the fast path). */
  available(): boolean {
    return this.left > 0;
  }

  /** Spends one message of this turn's budget. */
  spend(): void {
    if (this.left > 0) this.left--;
    if (!this.refillQueued && this.left <= this.perTurn / 2) {
      this.refillQueued = true;
      setImmediate(this.refill);
    }
  }
}

/** One budget for the process: the event loop it protects is the process's. */
export const FAST_TURNS = new FastTurnBudget();
