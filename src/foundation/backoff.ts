/**
 * Exponential back-off, the one retry-timing policy used by supervisor restarts and broker
 * reconnection alike. Delays double from `minMs` to `maxMs`; `reset()` starts over after a success.
 * Reconnects and the flow's restarts add jitter, so a fleet of processes that lost the same broker does
 * not come back in lock-step and hit it all at the same instant.
 */

/** Jitter used by every reconnect and by the flow supervisor's restarts unless a policy sets its own. */
export const DEFAULT_JITTER = 0.2;
export interface BackoffOptions {
  readonly minMs: number;
  readonly maxMs: number;
  /** Multiplier per attempt; default 2. */
  readonly factor?: number;
  /** 0..1: each delay is randomised by up to ± this fraction (default 0 = deterministic). */
  readonly jitter?: number;
}

export class Backoff {
  private attempt = 0;
  constructor(readonly options: BackoffOptions) {}

  /** The delay before the next attempt; each call moves one attempt further. */
  next(): number {
    const { minMs, maxMs, factor = 2, jitter = 0 } = this.options;
    const base = Math.min(maxMs, minMs * Math.pow(factor, this.attempt));
    this.attempt++;
    if (jitter <= 0) return base;
    const spread = base * Math.min(1, jitter);
    return Math.min(maxMs, Math.max(0, Math.round(base - spread + Math.random() * 2 * spread)));
  }

  /** Attempts since the last reset. */
  get attempts(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** Parses "min,max" in milliseconds, e.g. "200,30000". */
export function parseBackoff(text: string | undefined, fallback: BackoffOptions): BackoffOptions {
  if (text === undefined || text.trim() === '') return fallback;
  const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(text);
  if (!m) throw new Error(`Backoff ${JSON.stringify(text)}: expected "minMs,maxMs", e.g. "200,30000"`);
  const minMs = Number(m[1]);
  const maxMs = Number(m[2]);
  if (maxMs < minMs) throw new Error(`Backoff ${JSON.stringify(text)}: max ${maxMs} is below min ${minMs}`);
  return { ...fallback, minMs, maxMs };
}
