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
 * The methods are the ones rhea's Incoming calls on its ring (push, pop_if, by_id, available), with rhea's
 * names; a unit test fails if rhea stops calling them (test/unit/transports/amqp10-incoming-window.test.ts).
 */

/** What the buffer needs of a delivery: rhea's id (the session's delivery-id). */
export interface IncomingDelivery {
  readonly id: number;
}

/** More deliveries than the window allowed: the peer ignored the session window. */
export class IncomingWindowOverflowError extends Error {
  constructor(
    readonly capacity: number,
    readonly deliveryId: number,
  ) {
    super(`AMQP 1.0 session: delivery ${deliveryId} beyond the incoming window of ${capacity} unsettled deliveries`);
    this.name = 'IncomingWindowOverflowError';
  }
}

export class IncomingDeliveries<D extends IncomingDelivery> {
  /** By delivery-id, in arrival order (a Map keeps insertion order, and deletes anywhere in O(1)). */
  private readonly entries = new Map<number, D>();

  /**
   * `capacity`: the most deliveries the session may hold at once. Settled ones are swept out once they fill
   * half of it, so the window never falls below half the capacity minus the unsettled deliveries.
   */
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The free slots: rhea's session incoming window. */
  available(): number {
    return this.capacity - this.entries.size;
  }

  push(delivery: D): void {
    if (this.entries.size >= this.capacity) throw new IncomingWindowOverflowError(this.capacity, delivery.id);
    this.entries.set(delivery.id, delivery);
  }

  /**
   * Removes the deliveries `done` says are finished (rhea: settled) and returns how many: the run at the head
   * at once, as rhea's ring does, and every other one once the buffer is half full. The sweep is what frees
   * the slots behind a held delivery; doing it only at half-full keeps its cost at about one look per delivery.
   */
  pop_if(done: (delivery: D) => boolean): number {
    let removed = 0;
    for (const [id, d] of this.entries) {
      if (!done(d)) break;
      this.entries.delete(id);
      removed++;
    }
    if (this.entries.size * 2 <= this.capacity) return removed;
    for (const [id, d] of this.entries) {
      if (!done(d)) continue;
      this.entries.delete(id);
      removed++;
    }
    return removed;
  }

  /** The same deliveries in a buffer of another capacity (at least their number). */
  resized(capacity: number): IncomingDeliveries<D> {
    const next = new IncomingDeliveries<D>(Math.max(capacity, this.entries.size));
    for (const d of this.entries.values()) next.push(d);
    return next;
  }

  by_id(id: number): D | undefined {
    return this.entries.get(id);
  }

  get_head(): D | undefined {
    for (const d of this.entries.values()) return d;
    return undefined;
  }
}
