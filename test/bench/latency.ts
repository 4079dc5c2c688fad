/**
 * What the latency benches share: open-loop arrivals (each message has an intended send time, fixed in advance
 * by the rate, so a slow system cannot slow its own load down and hide its queueing: no coordinated omission),
 * latency measured from that intended time to arrival on one clock (performance.now in this process), and the
 * summary of a run as percentiles.
 */
import { randomUUID } from 'node:crypto';

export interface LatencySummary {
  /** Messages measured. */
  readonly n: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

/** The nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}

export function summarise(samplesMs: readonly number[]): LatencySummary {
  const s = [...samplesMs].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 0.5), p99: percentile(s, 0.99), p999: percentile(s, 0.999), max: s[s.length - 1] ?? NaN };
}

/** Records, per sequence number, when a message was meant to leave and when it arrived. */
export class ArrivalLog {
  private readonly intended: Float64Array;
  private readonly arrived: Float64Array;
  private count = 0;
  private duplicates = 0;

  constructor(readonly size: number) {
    this.intended = new Float64Array(size);
    this.arrived = new Float64Array(size).fill(NaN);
  }

  sent(seq: number, at: number): void {
    this.intended[seq] = at;
  }

  arrive(seq: number, at = performance.now()): void {
    if (!(seq >= 0 && seq < this.size)) throw new Error(`arrival of unknown message ${seq}`);
    if (!Number.isNaN(this.arrived[seq])) {
      this.duplicates++;
      return;
    }
    this.arrived[seq] = at;
    this.count++;
  }

  /** When message `seq` was meant to leave (ms, performance.now). */
  intendedAt(seq: number): number {
    return this.intended[seq];
  }

  /** When message `seq` arrived; NaN while it has not. */
  arrivedAt(seq: number): number {
    return this.arrived[seq];
  }

  get arrivals(): number {
    return this.count;
  }

  get duplicated(): number {
    return this.duplicates;
  }

  /** Latencies (ms) of every arrived message from `from` (the first ones warm up) up to, not including, `to`. */
  latencies(from = 0, to = this.size): number[] {
    const out: number[] = [];
    for (let i = from; i < to; i++) if (!Number.isNaN(this.arrived[i])) out.push(this.arrived[i] - this.intended[i]);
    return out;
  }
}

/**
 * Sends `count` messages at `rate` per second, open loop: message i is due at start + i / rate and is sent as soon
 * as the loop sees it due (several in one turn when the loop is late). `send` gets the sequence number and its
 * intended time. Resolves when the last one has been sent.
 * Between sends it sleeps on a timer, at least 1 ms: above 1,000 msg/s what fell due meanwhile goes out together
 * (its latency still counts from each message's own intended time). It never spins: yielding with `setImmediate`
 * until the next message was due kept this process busy polling, a whole CPU of a 2-vCPU machine taken from the
 * broker and from the system under test, more of it the faster a side was (issue 32).
 */
export async function openLoop(rate: number, count: number, send: (seq: number, intendedAt: number) => void): Promise<void> {
  const interval = 1000 / rate;
  const start = performance.now() + 5;
  let next = 0;
  while (next < count) {
    const now = performance.now();
    while (next < count && start + next * interval <= now) {
      send(next, start + next * interval);
      next++;
    }
    if (next < count) {
      const wait = start + next * interval - performance.now();
      await new Promise<void>((r) => setTimeout(r, Math.max(1, Math.floor(wait))));
    }
  }
}

/** The sequence number a body starts with, after any non-digit prefix a transform added ("ORDER:17|xxx" is 17). */
export function sequenceOf(body: string): number {
  const m = /(\d+)\|/.exec(body);
  if (m === null) throw new Error(`no sequence number in body ${JSON.stringify(body.slice(0, 40))}`);
  return Number(m[1]);
}

/** A body of about `size` bytes carrying its sequence number. */
export function bodyFor(seq: number, size = 1024): string {
  const head = `${seq}|`;
  return head + 'x'.repeat(Math.max(0, size - head.length));
}

/** Fresh names for a run's source and destination queues. */
export function runQueueNames(): { inQueue: string; outQueue: string } {
  const id = randomUUID().slice(0, 8);
  return { inQueue: `xroute.test.latency.${id}.in`, outQueue: `xroute.test.latency.${id}.out` };
}

/** Resolves when `predicate` holds (checked every 5 ms), or rejects after `timeoutMs`. */
export async function until(predicate: () => boolean, what: () => string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
