/**
 * Sending messages into one outlink in order, with back pressure instead of loss: a message that finds
 * no free cell waits here (its input message stays taken upstream, so upstream credit stays used) and
 * goes out, in arrival order, as soon as the outlink frees a cell. Used by nodes for every outlink whose
 * messages must not be dropped when it is full.
 *
 * The sender remembers the cell of every message it placed until the consumer removes it, so that on a
 * stop it can withdraw what no consumer has taken yet (the runtime puts the input messages back, and
 * those copies would otherwise run twice).
 */
import { Message } from '../../src/message/message';
import { DoneCallback, Outcome, XQueue } from '../../src/xqueue/xqueue';
import { Partition } from '../../src/xqueue/partition';
import { ReserveAbortedError, XQueueStoppedError } from '../../src/xqueue/errors';
import { Deque } from './deque';

/**
 * What a sender's messages report when their consumer removes them: the key they were sent with. One function per
 * sender or outlink, not a closure per message (issue 32: a node's hops allocate nothing per message of their own).
 */
export type SenderDone<K> = (key: K, item: Message, outcome: Outcome) => void;

interface Pending<K> {
  readonly key: K;
  readonly item: Message;
  readonly onDone: SenderDone<K>;
}

/** A free cell of `q` in `partition`, or -1 when none is free or the queue is paused or stopped. */
export function tryReserveCell(q: XQueue<Message>, partition: Partition): number {
  try {
    return q.tryReserve(partition);
  } catch (e) {
    if (e instanceof XQueueStoppedError) return -1;
    throw e;
  }
}

export class OutlinkSender<K> {
  private readonly waiting = new Deque<Pending<K>>();
  /**
   * What this sender placed, by the cell it holds until the consumer removes it (cells are 0 .. capacity - 1, more after a resize): its
   * key, its callback and the order it was placed in. Arrays by cell rather than a record per message, so that a
   * message placed at once allocates nothing here.
   */
  private readonly placedKeys: (K | undefined)[];
  private readonly placedDone: (SenderDone<K> | undefined)[];
  private readonly placedOrder: number[];
  private placements = 0;
  /** The one callback given to the queue for every cell placed; it finds the message's own by the cell. */
  private readonly removed: DoneCallback<Message> = (item, outcome, cell) => {
    const key = this.placedKeys[cell] as K;
    const onDone = this.placedDone[cell] as SenderDone<K>;
    this.placedKeys[cell] = undefined;
    this.placedDone[cell] = undefined;
    onDone(key, item, outcome);
  };
  private reserving = false;
  private closed = false;
  /** handOver() left what it placed to fire its callbacks; close() then withdraws nothing. */
  private handedOver = false;

  /**
   * @param signal aborts a reservation in progress (the node is stopping)
   * @param onError an unexpected reservation failure (not a stop): the node should crash
   */
  constructor(
    readonly queue: XQueue<Message>,
    private readonly partition: Partition,
    private readonly signal: AbortSignal,
    private readonly onError: (err: unknown) => void,
  ) {
    this.placedKeys = new Array<K | undefined>(queue.capacity).fill(undefined);
    this.placedDone = new Array<SenderDone<K> | undefined>(queue.capacity).fill(undefined);
    this.placedOrder = new Array<number>(queue.capacity).fill(0);
  }

  /** Messages waiting for a free cell. */
  get backlog(): number {
    return this.waiting.size;
  }

  /**
   * Adds now when a cell is free and nothing waits before it; otherwise queues behind the others. `onDone` gets
   * `key` back when the consumer removes the message.
   */
  send(key: K, item: Message, onDone: SenderDone<K>): void {
    if (this.closed) return;
    if (this.waiting.size === 0) {
      const cell = tryReserveCell(this.queue, this.partition);
      if (cell >= 0) {
        this.place(cell, key, item, onDone);
        return;
      }
    }
    this.waiting.pushBack({ key, item, onDone });
    this.reserveNext();
  }

  /** Withdraws every placed message no consumer has taken yet (no callback fires for those) and drops what waits. */
  close(): void {
    this.closed = true;
    if (!this.handedOver) {
      for (let cell = 0; cell < this.placedKeys.length; cell++) {
        // A message a consumer holds stays placed: its callback fires when it is removed.
        if (this.placedDone[cell] === undefined || this.queue.takeback(cell) === undefined) continue;
        this.placedKeys[cell] = undefined;
        this.placedDone[cell] = undefined;
      }
    }
    while (this.waiting.size > 0) this.waiting.popFront();
  }

  /**
   * Ends this sender for a successor (a reload): what it placed stays in the outlink, its callbacks still fire;
   * what waits for a cell is dropped here. Returns both, placed first, each in order.
   */
  handOver(): { readonly placed: K[]; readonly waiting: K[] } {
    this.closed = true;
    this.handedOver = true;
    const cells: number[] = [];
    for (let cell = 0; cell < this.placedDone.length; cell++) if (this.placedDone[cell] !== undefined) cells.push(cell);
    cells.sort((a, b) => this.placedOrder[a] - this.placedOrder[b]);
    const placed = cells.map((cell) => this.placedKeys[cell] as K);
    const waiting: K[] = [];
    for (let p = this.waiting.popFront(); p !== undefined; p = this.waiting.popFront()) waiting.push(p.key);
    return { placed, waiting };
  }

  private place(cell: number, key: K, item: Message, onDone: SenderDone<K>): void {
    if (cell >= this.placedKeys.length) this.grow(cell + 1); // the queue was resized
    this.placedKeys[cell] = key;
    this.placedDone[cell] = onDone;
    this.placedOrder[cell] = this.placements++;
    this.queue.add(cell, item, this.removed);
  }

  /** Head of line: one reservation at a time, so the waiting messages keep their order. */
  private reserveNext(): void {
    if (this.reserving || this.waiting.size === 0 || this.closed) return;
    this.reserving = true;
    this.queue.reserve({ partition: this.partition, signal: this.signal }).then(
      (cell) => {
        this.reserving = false;
        if (this.closed) {
          this.queue.cancel(cell);
          return;
        }
        this.placeWaiting(cell);
        while (this.waiting.size > 0) {
          const next = tryReserveCell(this.queue, this.partition);
          if (next < 0) break;
          this.placeWaiting(next);
        }
        this.reserveNext();
      },
      (err: unknown) => {
        this.reserving = false;
        if (!this.closed && !(err instanceof ReserveAbortedError) && !(err instanceof XQueueStoppedError)) this.onError(err);
      },
    );
  }

  private grow(cells: number): void {
    while (this.placedKeys.length < cells) {
      this.placedKeys.push(undefined);
      this.placedDone.push(undefined);
      this.placedOrder.push(0);
    }
  }

  private placeWaiting(cell: number): void {
    const p = this.waiting.popFront() as Pending<K>;
    this.place(cell, p.key, p.item, p.onDone);
  }
}
