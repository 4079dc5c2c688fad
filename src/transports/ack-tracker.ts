/**
 * Settlement of the deliveries of one AMQP 0-9-1 channel, as a pure state machine: the receiver tells it
 * which deliveries arrived and how each one ended (done, or failed with or without requeue), in any
 * order, and `flush()` answers with the basic.ack / basic.nack frames to send, in order.
 *
 * The rules it keeps, whatever the completion order:
 *  - every delivery tag is settled exactly once (a tag settled twice, or one the broker does not hold,
 *    is a channel error "406 unknown delivery tag" that makes RabbitMQ redeliver everything unacked);
 *  - nothing is acked before it is done;
 *  - a multiple-ack covers only a run of consecutive tags that are all done now, with every lower tag
 *    already settled: it never spans an in-flight, failed or earlier settled tag.
 * Coalescing (one multiple-ack per run) is what keeps acking cheaper than one frame per message; a
 * finished delivery behind one still in flight is acked on its own, so the prefetch window never waits
 * for a slow neighbour.
 *
 * Delivery tags count up from 1 per channel, one per delivery. One tracker serves one channel: when the
 * channel is lost, `lost()` makes every later call a no-op (the broker redelivers what was unsettled)
 * and the new channel gets a new tracker.
 */
import { DeliveryTagOrderError } from './amqp091-errors';

export type SettleFrame =
  { readonly kind: 'ack'; readonly tag: number; readonly multiple: boolean } | { readonly kind: 'nack'; readonly tag: number; readonly requeue: boolean };

const IN_FLIGHT = 0;
const DONE = 1;
const FAILED_REQUEUE = 2;
const FAILED_DROP = 3;
type State = typeof IN_FLIGHT | typeof DONE | typeof FAILED_REQUEUE | typeof FAILED_DROP;

export class AckTracker {
  /** Tags the broker still holds unsettled, ascending (a Map keeps insertion order; tags arrive ascending). */
  private readonly unsettled = new Map<number, State>();
  /** Tags given an outcome since the last flush. */
  private marked: number[] = [];
  private lastTag = 0;
  /** Every tag below it is settled; the head walk starts here (so each tag is walked over once). */
  private head = 1;
  private dead = false;

  /** Registers a delivery; tags must be 1, 2, 3, ... on this channel. */
  delivered(tag: number): void {
    if (this.dead) return;
    if (tag !== this.lastTag + 1) throw new DeliveryTagOrderError(tag, this.lastTag + 1);
    this.lastTag = tag;
    this.unsettled.set(tag, IN_FLIGHT);
  }

  /** The delivery's message is done downstream: ack it. False when the tag is unknown, already settled or the channel is lost. */
  done(tag: number): boolean {
    return this.mark(tag, DONE);
  }

  /** The delivery failed: nack it, with or without requeue. False as for done(). */
  failed(tag: number, requeue: boolean): boolean {
    return this.mark(tag, requeue ? FAILED_REQUEUE : FAILED_DROP);
  }

  /** Whether any outcome waits for flush(). */
  get hasMarked(): boolean {
    return this.marked.length > 0;
  }

  /** Deliveries the broker holds unsettled (in flight, or marked and not yet flushed). */
  get unsettledCount(): number {
    return this.unsettled.size;
  }

  get isLost(): boolean {
    return this.dead;
  }

  /** The channel is gone: nothing of it can be settled any more. Returns how many marked outcomes were dropped. */
  lost(): number {
    const dropped = this.marked.length;
    this.dead = true;
    this.marked = [];
    this.unsettled.clear();
    return dropped;
  }

  /** The frames that settle every outcome marked since the last flush, in the order they must be sent. */
  flush(): SettleFrame[] {
    const frames: SettleFrame[] = [];
    if (this.dead || this.marked.length === 0) return frames;
    // The head: from the lowest unsettled tag up to the first one in flight, consecutive done tags
    // become one multiple-ack; a failed tag or a gap (an earlier settled tag) ends a run.
    let runStart = 0;
    let runEnd = 0;
    const closeRun = (): void => {
      if (runStart === 0) return;
      frames.push({ kind: 'ack', tag: runEnd, multiple: runEnd > runStart });
      runStart = 0;
    };
    let settledAtHead = 0;
    let tag = this.head;
    for (; tag <= this.lastTag; tag++) {
      const state = this.unsettled.get(tag);
      if (state === undefined) continue; // settled by an earlier flush (behind a gap)
      if (state === IN_FLIGHT) break;
      this.unsettled.delete(tag);
      settledAtHead++;
      if (state === DONE) {
        if (runStart !== 0 && tag === runEnd + 1) runEnd = tag;
        else {
          closeRun();
          runStart = runEnd = tag;
        }
      } else {
        closeRun();
        frames.push({ kind: 'nack', tag, requeue: state === FAILED_REQUEUE });
      }
    }
    this.head = tag;
    closeRun();
    // Behind a delivery still in flight: each outcome on its own (none left when everything was at the head).
    if (settledAtHead === this.marked.length) {
      this.marked = [];
      return frames;
    }
    for (const tag of this.marked) {
      const state = this.unsettled.get(tag);
      if (state === undefined || state === IN_FLIGHT) continue;
      this.unsettled.delete(tag);
      frames.push(state === DONE ? { kind: 'ack', tag, multiple: false } : { kind: 'nack', tag, requeue: state === FAILED_REQUEUE });
    }
    this.marked = [];
    return frames;
  }

  private mark(tag: number, state: State): boolean {
    if (this.dead || this.unsettled.get(tag) !== IN_FLIGHT) return false;
    this.unsettled.set(tag, state);
    this.marked.push(tag);
    return true;
  }
}
