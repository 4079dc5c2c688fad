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
import { DoneCallback, XQueue } from '../../src/xqueue/xqueue';
import { Partition } from '../../src/xqueue/partition';
import { ReserveAbortedError, XQueueStoppedError } from '../../src/xqueue/errors';
import { Deque } from './deque';

interface Pending<K> {
  readonly key: K;
  readonly item: Message;
  readonly onDone: DoneCallback<Message>;
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
  private readonly placed = new Map<K, number>();
  private reserving = false;
  private closed = false;

  /**
   * @param signal aborts a reservation in progress (the node is stopping)
   * @param onError an unexpected reservation failure (not a stop): the node should crash
   */
  constructor(
    readonly queue: XQueue<Message>,
    private readonly partition: Partition,
    private readonly signal: AbortSignal,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Messages waiting for a free cell. */
  get backlog(): number {
    return this.waiting.size;
  }

  /** Adds now when a cell is free and nothing waits before it; otherwise queues behind the others. */
  send(key: K, item: Message, onDone: DoneCallback<Message>): void {
    if (this.closed) return;
    const pending = { key, item, onDone };
    if (this.waiting.size === 0) {
      const cell = tryReserveCell(this.queue, this.partition);
      if (cell >= 0) {
        this.place(cell, pending);
        return;
      }
    }
    this.waiting.pushBack(pending);
    this.reserveNext();
  }

  /** Withdraws every placed message no consumer has taken yet and drops what waits; no callback fires. */
  close(): void {
    this.closed = true;
    for (const cell of this.placed.values()) this.queue.takeback(cell);
    this.placed.clear();
    while (this.waiting.size > 0) this.waiting.popFront();
  }

  /**
   * Ends this sender for a successor (a reload): what it placed stays in the outlink, its callbacks still fire;
   * what waits for a cell is dropped here. Returns both, placed first, each in order.
   */
  handOver(): { readonly placed: K[]; readonly waiting: K[] } {
    this.closed = true;
    const placed = [...this.placed.keys()];
    this.placed.clear();
    const waiting: K[] = [];
    for (let p = this.waiting.popFront(); p !== undefined; p = this.waiting.popFront()) waiting.push(p.key);
    return { placed, waiting };
  }

  private place(cell: number, p: Pending<K>): void {
    this.placed.set(p.key, cell);
    this.queue.add(cell, p.item, (item, outcome, c) => {
      this.placed.delete(p.key);
      p.onDone(item, outcome, c);
    });
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
        this.place(cell, this.waiting.popFront() as Pending<K>);
        while (this.waiting.size > 0) {
          const next = tryReserveCell(this.queue, this.partition);
          if (next < 0) break;
          this.place(next, this.waiting.popFront() as Pending<K>);
        }
        this.reserveNext();
      },
      (err: unknown) => {
        this.reserving = false;
        if (!this.closed && !(err instanceof ReserveAbortedError) && !(err instanceof XQueueStoppedError)) this.onError(err);
      },
    );
  }
}
