/**
 * When the messages of an XQueue were added, without reading a clock per message (a clock read costs about as
 * much as a whole XQueue hop): each stats() call stamps the queue's next sequence number with the time, so a
 * message is known to have been added by the first stamp taken after it. Ages are therefore exact to within the
 * interval between two stats() calls (the flow samples every second, docs/operations.md "Flow").
 */

/** Checkpoints kept at most; beyond this every second one but the first and last is dropped (coarser ages in between). */
const MAX_CHECKPOINTS = 1024;

export class AddClock {
  private seqs: number[] = [];
  private times: number[] = [];

  /** Records that every message with a sequence number below `nextSeq` was added by `now`. */
  stamp(nextSeq: number, now: number, oldestPresentSeq: number): void {
    // A checkpoint at or below the oldest present message dates only messages that are gone.
    let drop = 0;
    while (drop < this.seqs.length && this.seqs[drop] <= oldestPresentSeq) drop++;
    if (drop > 0) {
      this.seqs.splice(0, drop);
      this.times.splice(0, drop);
    }
    if (this.seqs.length === 0 || this.seqs[this.seqs.length - 1] !== nextSeq) {
      this.seqs.push(nextSeq);
      this.times.push(now);
    }
    if (this.seqs.length > MAX_CHECKPOINTS) {
      const keep = (_: number, i: number, all: number[]) => i % 2 === 0 || i === all.length - 1;
      this.seqs = this.seqs.filter(keep);
      this.times = this.times.filter(keep);
    }
  }

  /** The time by which message `seq` had been added (the first stamp after it); undefined when none is yet. */
  addedBy(seq: number): number | undefined {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.seqs[mid] <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.seqs.length ? this.times[lo] : undefined;
  }
}
