/**
 * A component's messages in, done and failed, summed when read (issue 28: counting costs at most 3 %).
 *
 * The XQueues keep the counts in the records a hop already writes: a consumer's (which counts what it removed beside
 * the count of cells it holds) and a producer's (which counts what it added in place of the queue's own count). Each
 * record is a TallySource of the component's MessageCounts, which adds them up when a scrape, the flow's meter or the
 * totals logged at stop read them; a message pays no increment for its component's figures.
 */

/**
 * One component's counts at one queue (a consumer's record, or a producer's): what a MessageCounts sums. Monotonic
 * but for `in`, which a message put back or taken back unseen leaves again.
 */
export interface TallySource {
  /** Taken and not put back (a consumer); added and not taken back (a producer). */
  readonly in: number;
  readonly done: number;
  readonly failed: number;
  /** True once it counts nothing more (a detached consumer): the sum keeps its figures and lets the record go. */
  readonly settled: boolean;
}

/** Messages in, done and failed at one moment. */
export interface InDoneFailed {
  readonly in: number;
  readonly done: number;
  readonly failed: number;
}

/**
 * The figures of one component: the sum of its sources (registered by the queues with track()) and of what the
 * component counts itself (a receiver that counts each message once rather than each hand-over to the queue).
 */
export class MessageCounts {
  private ownIn = 0;
  private ownDone = 0;
  private ownFailed = 0;
  private readonly sources: TallySource[] = [];

  /** Called by a queue when it starts counting this component's messages in `source`. */
  track(source: TallySource): void {
    this.foldSettled();
    this.sources.push(source);
  }

  /** Counts messages in (or, with a negative `by`, out again: a message given back to be counted at its redelivery). */
  countIn(by = 1): void {
    this.ownIn += by;
  }

  countDone(): void {
    this.ownDone++;
  }

  countFailed(): void {
    this.ownFailed++;
  }

  get in(): number {
    return this.counts().in;
  }

  get done(): number {
    return this.counts().done;
  }

  get failed(): number {
    return this.counts().failed;
  }

  /** How many records of the queues it reads now (those settled are folded in first, and let go). */
  get recordsHeld(): number {
    this.foldSettled();
    return this.sources.length;
  }

  /** All three figures, summed once. */
  counts(): InDoneFailed {
    this.foldSettled();
    let n = this.ownIn;
    let done = this.ownDone;
    let failed = this.ownFailed;
    for (const s of this.sources) {
      n += s.in;
      done += s.done;
      failed += s.failed;
    }
    return { in: n, done, failed };
  }

  /** A settled source counts nothing more: its figures become the component's own, and the record is let go. */
  private foldSettled(): void {
    if (!this.sources.some((s) => s.settled)) return;
    const live = this.sources.filter((s) => !s.settled);
    for (const s of this.sources) {
      if (!s.settled) continue;
      this.ownIn += s.in;
      this.ownDone += s.done;
      this.ownFailed += s.failed;
    }
    this.sources.length = 0;
    this.sources.push(...live);
  }
}
