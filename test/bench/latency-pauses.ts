/**
 * What stalls the bench's process while one side of a latency run carries its load (issue 32): garbage-collection
 * pauses (a PerformanceObserver on 'gc' entries, on the same clock as the messages' times) and event-loop delay
 * (how late a 1 ms timer fires: a long turn, a pause or a descheduled process). Each side has its own loop-delay
 * histogram, running only during that side's blocks; a pause is the side's when it starts inside one of its
 * blocks. `slowInPause` tells how much of the slowest messages' latency GC explains: the share of their time in
 * flight (from the intended send to the arrival) during which a pause ran.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { percentile } from './latency';

export interface PauseStats {
  /** GC pauses that started in the side's blocks: how many, their total and the longest (ms). */
  readonly gcPauses: number;
  readonly gcTotalMs: number;
  readonly gcMaxMs: number;
  /** Event-loop delay during the side's blocks (ms): the median of the blocks' p99s, and the longest. */
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  /** The process's CPU time (user + system) per message of the side's blocks, in µs: bench, client and broker client together. */
  readonly cpuPerMessageUs: number;
  /** Of the time the messages at or above the side's p99 spent in flight: the share that was a GC pause. */
  readonly slowInPause: number;
}

/** A message's flight: intended send to arrival (ms, performance.now). */
export interface Flight {
  readonly from: number;
  readonly to: number;
}

export interface Window {
  readonly t0: number;
  readonly t1: number;
}

/** A side's block: its time window, how many messages it carried and the CPU time the process spent in it (µs). */
export interface Block extends Window {
  readonly from: number;
  readonly to: number;
  readonly cpuUs: number;
}

/** Watches GC pauses from construction to stop(); `side()` gives a loop-delay meter to run during each block. */
export class PauseWatch {
  private readonly pauses: Window[] = [];
  private stopped = false;
  private readonly observer = new PerformanceObserver((list) => this.record(list.getEntries()));

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** A loop-delay meter for one side: begin() at the start of each of its blocks, end() at the end. */
  side(): LoopDelay {
    return new LoopDelay();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.record(this.observer.takeRecords());
    this.observer.disconnect();
  }

  /** One side's figures: its blocks, its loop-delay histogram and the flights of its slowest messages. */
  stats(blocks: readonly Block[], loopDelay: LoopDelay, slow: readonly Flight[]): PauseStats {
    const mine = this.pauses.filter((p) => blocks.some((b) => p.t0 >= b.t0 && p.t0 < b.t1));
    const lengths = mine.map((p) => p.t1 - p.t0);
    let inPause = 0;
    let total = 0;
    for (const f of slow) {
      total += f.to - f.from;
      for (const p of this.pauses) inPause += Math.max(0, Math.min(p.t1, f.to) - Math.max(p.t0, f.from));
    }
    return {
      gcPauses: mine.length,
      gcTotalMs: lengths.reduce((a, b) => a + b, 0),
      gcMaxMs: Math.max(0, ...lengths),
      loopDelayP99Ms: loopDelay.p99Ms(),
      loopDelayMaxMs: loopDelay.maxMs(),
      cpuPerMessageUs: blocks.reduce((a, b) => a + b.cpuUs, 0) / blocks.reduce((a, b) => a + (b.to - b.from), 0),
      slowInPause: total > 0 ? inPause / total : NaN,
    };
  }

  private record(entries: readonly { startTime: number; duration: number }[]): void {
    for (const e of entries) this.pauses.push({ t0: e.startTime, t1: e.startTime + e.duration });
  }
}

/**
 * Event-loop delay over a side's blocks: a fresh histogram per block (one switched off between blocks would count
 * the gap as a delay), each block's p99 and maximum kept.
 */
export class LoopDelay {
  private current?: ReturnType<typeof monitorEventLoopDelay>;
  private readonly p99s: number[] = [];
  private longest = 0;

  begin(): void {
    this.current = monitorEventLoopDelay({ resolution: 1 });
    this.current.enable();
  }

  end(): void {
    const h = this.current;
    if (h === undefined) return;
    this.current = undefined;
    h.disable();
    if (h.count === 0) return;
    this.p99s.push(h.percentile(99) / 1e6);
    this.longest = Math.max(this.longest, h.max / 1e6);
  }

  p99Ms(): number {
    return percentile(
      [...this.p99s].sort((a, b) => a - b),
      0.5,
    );
  }

  maxMs(): number {
    return this.p99s.length > 0 ? this.longest : NaN;
  }
}
