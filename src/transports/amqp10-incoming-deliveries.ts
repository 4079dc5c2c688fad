/**
 * The incoming deliveries of one AMQP 1.0 session, with the slot of each settled delivery freed whatever its
 * place: what replaces rhea's session ring (see Amqp10Connection.openReceiver, docs/components/jms-queues.md
 * "One held delivery never stops the receiver").
 *
 * rhea keeps them in a ring of 2,048 slots that it frees only from its head, behind the oldest unsettled
 * delivery, and it advertises the free slots as the session's incoming window. One delivery held unsettled
 * (XAMode 1 with a long job downstream) therefore closed the window after 2,047 more, and the broker sent
 * nothing until it was settled. Here a settled delivery stops counting at once: the window is the capacity
 * minus the deliveries still unsettled, so it is bounded by what the receiver may hold (its link credit and
 * overflow), never by the age of one of them.
 *
 * A plain array in arrival order, swept in place: as cheap per delivery as rhea's ring (a Map keyed by id cost
 * 3-5 times more with a delivery held).
 * The methods are the ones rhea's Incoming calls on its ring (push, pop_if, by_id, available), with rhea's
 * names; a unit test fails if rhea stops calling them (test/unit/transports/amqp10-incoming-window.test.ts).
 */
import { IncomingWindowOverflowError } from './amqp10-errors';

/** What the buffer needs of a delivery: rhea's id (the session's delivery-id). */
export interface IncomingDelivery {
  readonly id: number;
}

export class IncomingDeliveries<D extends IncomingDelivery> {
  /** In arrival order (delivery-ids increasing, modulo 2^32) from `head`; the slots before it are spent. */
  private readonly items: (D | undefined)[] = [];
  private head = 0;

  /**
   * `capacity`: the most deliveries the session may hold at once. Settled ones are swept out once they fill
   * half of it, so the window never falls below half the capacity minus the unsettled deliveries.
   */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.items.length - this.head;
  }

  /** The free slots: rhea's session incoming window. */
  available(): number {
    return this.capacity - this.size;
  }

  push(delivery: D): void {
    if (this.size >= this.capacity) throw new IncomingWindowOverflowError(this.capacity, delivery.id);
    this.items.push(delivery);
  }

  /**
   * Removes the deliveries `done` says are finished (rhea: settled) and returns how many: the run at the head
   * at once, as rhea's ring does, and every other one once the buffer is half full. The sweep is what frees
   * the slots behind a held delivery; doing it only at half-full keeps its cost at about one look per delivery.
   */
  pop_if(done: (delivery: D) => boolean): number {
    const items = this.items;
    let removed = 0;
    while (this.head < items.length && done(items[this.head]!)) {
      items[this.head++] = undefined;
      removed++;
    }
    if (this.head === items.length) {
      items.length = 0;
      this.head = 0;
    } else if (this.size * 2 > this.capacity) {
      let kept = 0;
      for (let i = this.head; i < items.length; i++) {
        const d = items[i]!;
        if (done(d)) removed++;
        else items[kept++] = d;
      }
      items.length = kept;
      this.head = 0;
    } else if (this.head >= this.capacity) {
      // the spent slots at the front: drop them now and then, so the array never grows past twice the capacity
      items.splice(0, this.head);
      this.head = 0;
    }
    return removed;
  }

  /** The same deliveries in a buffer of another capacity (at least their number). */
  resized(capacity: number): IncomingDeliveries<D> {
    const next = new IncomingDeliveries<D>(Math.max(capacity, this.size));
    for (let i = this.head; i < this.items.length; i++) next.push(this.items[i]!);
    return next;
  }

  /** Binary search by distance from the head's id (ids increase along the buffer, modulo 2^32). */
  by_id(id: number): D | undefined {
    if (this.size === 0) return undefined;
    const base = this.items[this.head]!.id;
    const want = (id - base) >>> 0;
    let lo = this.head;
    let hi = this.items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = this.items[mid]!;
      const at = (d.id - base) >>> 0;
      if (at === want) return d;
      if (at < want) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  get_head(): D | undefined {
    return this.size > 0 ? this.items[this.head] : undefined;
  }
}
