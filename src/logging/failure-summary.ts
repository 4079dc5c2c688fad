/**
 * Rate-limited logging of repeated failures, so that a message failing over and over (or thousands of
 * them) cannot flood the log: the first failure after a quiet period is logged at once with its details;
 * the ones that follow within the window are only counted, per reason, and logged as one line per
 * reason when the window ends ("312 messages failed in the last 10 s: unroutable on exchange x, routing
 * key y"). A window with no failure ends the summarising; the next failure is logged at once again.
 */
import { Logger } from './logger';

export interface SummaryTimers {
  setTimeout(fn: () => void, ms: number): unknown;
}

export class FailureSummary {
  private readonly counts = new Map<string, number>();
  private windowOpen = false;

  constructor(
    private readonly logger: Logger,
    private readonly component: string,
    /** What failed, in the summary line: "messages failed", "publishes were returned". */
    private readonly what: string,
    private readonly timers: SummaryTimers,
    readonly windowMs = 10_000,
  ) {}

  /** One failure (or `count` of them at once). `message` and `meta` are logged as they are when no window is open. */
  record(reason: string, message: string, meta: Record<string, unknown> = {}, count = 1): void {
    if (!this.windowOpen) {
      this.windowOpen = true;
      this.logger.warn(message, { component: this.component, reason, ...meta });
      this.timers.setTimeout(() => this.endWindow(), this.windowMs);
      return;
    }
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + count);
  }

  /** Logs what was counted and not yet logged (e.g. when the component stops). */
  flush(): void {
    const seconds = Math.round(this.windowMs / 1000);
    for (const [reason, n] of this.counts) {
      this.logger.warn(`${n} ${this.what} in the last ${seconds} s: ${reason}`, { component: this.component, reason, count: n, windowSeconds: seconds });
    }
    this.counts.clear();
  }

  private endWindow(): void {
    const any = this.counts.size > 0;
    this.flush();
    if (any) this.timers.setTimeout(() => this.endWindow(), this.windowMs);
    else this.windowOpen = false;
  }
}
