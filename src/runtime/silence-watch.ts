/**
 * Liveness of a broker connection, judged by xroute itself (docs/operations.md#liveness-of-broker-connections):
 * a connection that has received nothing at all, not even a heartbeat or an empty frame, for `limitMs` is
 * declared dead. The watch reads a byte counter (a socket's bytesRead) a few times per limit, so the
 * message path pays nothing, and it remembers when traffic was last seen: an outage is reported from
 * then, not from when it was detected.
 *
 * A check that runs late (the event loop was blocked, so bytes may be waiting unread in the kernel) does
 * not judge: the next one does, after the socket was read.
 */
import { SilentPeerError } from './errors';

/** When the outage that `error` reports began: the last traffic for a silent peer, else now. */
export function outageStartOf(error: unknown, now = Date.now()): number {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof SilentPeerError) return Math.min(e.lastTrafficAt, now);
  }
  return now;
}

export interface SilenceWatchOptions {
  readonly peer: string;
  /** 0 = no watch. */
  readonly limitMs: number;
  /** The property that sets the limit, for the error text. */
  readonly property: string;
  /** Bytes received so far (monotonic). */
  readonly received: () => number;
  /** Called once, when the limit passes without traffic; the watch has stopped by then. */
  readonly onSilent: (error: SilentPeerError) => void;
}

/** How often the counter is read: 20 times per limit, between 50 and 500 ms. */
export function checkIntervalMs(limitMs: number): number {
  return Math.min(500, Math.max(50, Math.round(limitMs / 20)));
}

export class SilenceWatch {
  private lastCount: number;
  private lastTraffic: number;
  private lastCheck: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;
  /** Checks made so far. */
  checks = 0;

  constructor(private readonly o: SilenceWatchOptions) {
    this.lastCount = o.received();
    this.lastTraffic = this.lastCheck = Date.now();
    this.intervalMs = checkIntervalMs(o.limitMs);
    if (o.limitMs > 0) {
      this.timer = setInterval(() => this.check(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Still watching: not stopped, not declared silent, and a limit to watch. */
  get active(): boolean {
    return this.timer !== undefined;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    this.checks++;
    const now = Date.now();
    const late = now - this.lastCheck > 3 * this.intervalMs;
    this.lastCheck = now;
    const count = this.o.received();
    if (count !== this.lastCount) {
      // dated to this check: at most one interval after the bytes came
      this.lastCount = count;
      this.lastTraffic = now;
    }
    const silentMs = now - this.lastTraffic;
    if (late || silentMs < this.o.limitMs || this.timer === undefined) return;
    this.stop();
    this.o.onSilent(new SilentPeerError(this.o.peer, this.o.limitMs, this.o.property, this.lastTraffic, silentMs));
  }
}
