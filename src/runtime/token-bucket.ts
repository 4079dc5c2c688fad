/**
 * A token bucket: at most `burst` at once, refilled at `perSecond`. Bounds how much of something (a log line) may
 * happen per second, whatever the input rate; the clock is injected so tests run in virtual time.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.refilledAt = now();
  }

  /** Takes one token; false when none is left (the caller drops what it was about to do). */
  take(): boolean {
    const now = this.now();
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
      this.refilledAt = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
