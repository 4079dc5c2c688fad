/**
 * Where a message's time goes inside a flow (issue 32): each link of the flow is watched, and the moment each
 * message is added to it, taken from it and removed from it is logged by the message's sequence number, on the
 * same clock as its intended send time (performance.now). The timeline of a run is, per event, the p50 and p99
 * of the time since the message's intended send; consecutive p50s show what each hop adds. On a link the
 * receiver's add follows its delivery from the broker in the same turn, and a persister in XAMode 1 removes its
 * message once the broker confirmed the publish, so "take -> remove" is the publish and its confirm.
 * Watching costs each message a map lookup and a clock read per event: xroute's figures include it.
 */
import type { Message } from '../../src/message/message';
import type { Taken, XQueue } from '../../src/xqueue/xqueue';
import { percentile, sequenceOf } from './latency';

/** One event of the timeline: milliseconds from the intended send to the event. */
export interface HopEvent {
  readonly event: string;
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
}

export class HopTrace {
  private readonly times = new Map<string, Float64Array>();
  private readonly seqs = new WeakMap<object, number>();

  constructor(readonly size: number) {}

  /** Logs every add, take and remove on `q` from now on (the queue's own methods are wrapped). */
  watch(q: XQueue<Message>): void {
    const add = q.add.bind(q);
    const take = q.take.bind(q);
    const remove = q.remove.bind(q);
    q.add = (cell, item, onDone, tally) => {
      this.mark(`${q.name}: added`, item);
      add(cell, item, onDone, tally);
    };
    q.take = (handle) => {
      const taken = take(handle);
      if (taken) this.mark(`${q.name}: taken`, taken.item);
      return taken;
    };
    q.remove = (taken: Taken<Message>, outcome, reason) => {
      this.mark(`${q.name}: removed`, taken.item);
      return remove(taken, outcome, reason);
    };
  }

  /** Logs `event` for a message now (the first time only: a redelivery keeps the first). */
  mark(event: string, msg: Message, at = performance.now()): void {
    this.markSeq(event, this.seqOf(msg), at);
  }

  /** Logs `event` for message `seq` now (a raw client's events: it has no Message). */
  markSeq(event: string, seq: number, at = performance.now()): void {
    if (!(seq >= 0 && seq < this.size)) return;
    let t = this.times.get(event);
    if (!t) this.times.set(event, (t = new Float64Array(this.size).fill(NaN)));
    if (Number.isNaN(t[seq])) t[seq] = at;
  }

  /**
   * Each event's p50 and p99 since the intended send, in order of p50; messages below `skip` warm up, and only
   * those `only` keeps count (e.g. the slowest, to see where their time went).
   */
  timeline(
    intendedAt: (seq: number) => number,
    skip: number,
    extra: Record<string, (seq: number) => number> = {},
    only: (seq: number) => boolean = () => true,
  ): HopEvent[] {
    const all = new Map<string, (seq: number) => number>([
      ...[...this.times].map(([e, t]): [string, (seq: number) => number] => [e, (s) => t[s]]),
      ...Object.entries(extra),
    ]);
    const out: HopEvent[] = [];
    for (const [event, at] of all) {
      const offsets: number[] = [];
      for (let s = skip; s < this.size; s++) {
        if (!only(s)) continue;
        const d = at(s) - intendedAt(s);
        if (!Number.isNaN(d)) offsets.push(d);
      }
      if (offsets.length === 0) continue;
      offsets.sort((a, b) => a - b);
      out.push({ event, n: offsets.length, p50: percentile(offsets, 0.5), p99: percentile(offsets, 0.99) });
    }
    return out.sort((a, b) => a.p50 - b.p50);
  }

  private seqOf(msg: Message): number {
    let seq = this.seqs.get(msg);
    if (seq === undefined) {
      const body = msg.bodyText();
      seq = body !== undefined && /\d+\|/.test(body) ? sequenceOf(body) : -1; // not one of the bench's messages
      this.seqs.set(msg, seq);
    }
    return seq;
  }
}
