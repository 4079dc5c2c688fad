/**
 * StreamPersister's pending requests: every request taken from the input and not yet removed, in the order
 * taken, the ones written on the current connection first. Replies answer the oldest written request
 * (FIFO) or, with a Parser, the written request whose tag the reply carries. After a connection is lost no
 * request counts as written, so all are written again, oldest first, on the next one.
 */
import { Message } from '../../src/message/message';
import { CellSlot, Taken, XQueue } from '../../src/xqueue/xqueue';

/**
 * A request taken from the input and not yet removed. It is its own Taken (the cell, message, generation and slot of
 * the take), so that a reply finds the message and removes it with no object beside it to read (with 512 pooled children
 * each object a reply reads is a cache miss; issue 32).
 */
export class PendingRequest implements Taken<Message> {
  readonly cell: number;
  readonly item: Message;
  readonly generation: number;
  /** The take's cell (Taken.slot), copied so that the queue removes the request without looking its cell up. */
  readonly slot: CellSlot | undefined;
  /** Written on the current connection (false again after the connection is lost). */
  written = false;
  /** Times written, over all connections. */
  writes = 0;
  /** Reply timeouts charged to this request (it was the oldest when ReceiveTime passed). */
  timeouts = 0;
  /** The request taken after it while both are pending (PendingRequests' list). */
  next: PendingRequest | undefined = undefined;

  constructor(
    taken: Taken<Message>,
    readonly queue: XQueue<Message>,
    /** With Parser (multiplexed): the cell id written into RCField, read back from the parsed reply. */
    readonly tag: string,
    /** The rendered request (text is written as UTF-8), written again as it is after a reconnect. */
    readonly data: string | Buffer,
    /** JMSExpiration in ms since the epoch; Infinity when none. */
    readonly expiresAt: number,
  ) {
    this.cell = taken.cell;
    this.item = taken.item;
    this.generation = taken.generation;
    this.slot = taken.slot;
  }
}

/**
 * The pending requests, oldest first: a list linked through the requests, so that the oldest is read from here with no
 * array between (issue 32).
 */
export class PendingRequests implements Iterable<PendingRequest> {
  private head: PendingRequest | undefined = undefined;
  private tail: PendingRequest | undefined = undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The oldest pending request (the one the next FIFO reply answers when it is written). */
  get oldest(): PendingRequest | undefined {
    return this.head;
  }

  /** The request taken last. */
  get newest(): PendingRequest | undefined {
    return this.tail;
  }

  *[Symbol.iterator](): Iterator<PendingRequest> {
    for (let p = this.head; p !== undefined; p = p.next) yield p;
  }

  add(p: PendingRequest): void {
    p.next = undefined;
    if (this.tail === undefined) this.head = p;
    else this.tail.next = p;
    this.tail = p;
    this.count++;
  }

  /** Removes `p`; false when it had left already (each request leaves exactly once). */
  remove(p: PendingRequest): boolean {
    // The oldest leaves first (FIFO replies).
    if (this.head === p) {
      this.head = p.next;
      if (this.head === undefined) this.tail = undefined;
    } else {
      let before = this.head;
      while (before !== undefined && before.next !== p) before = before.next;
      if (before === undefined) return false;
      before.next = p.next;
      if (this.tail === p) this.tail = before;
    }
    p.next = undefined;
    this.count--;
    return true;
  }

  /** Records a write of `p` on the current connection. */
  markWritten(p: PendingRequest): void {
    p.written = true;
    p.writes++;
  }

  /** The connection is gone: nothing counts as written on a connection any more. */
  forgetWrites(): void {
    for (let p = this.head; p !== undefined; p = p.next) p.written = false;
  }

  anyWritten(): boolean {
    for (let p = this.head; p !== undefined; p = p.next) if (p.written) return true;
    return false;
  }

  /** The written request tagged `tag`. */
  writtenWithTag(tag: string): PendingRequest | undefined {
    for (let p = this.head; p !== undefined; p = p.next) if (p.written && p.tag === tag) return p;
    return undefined;
  }

  /** The requests whose JMSExpiration is at or before `now`. */
  expiredAt(now: number): PendingRequest[] {
    const out: PendingRequest[] = [];
    for (let p = this.head; p !== undefined; p = p.next) if (p.expiresAt <= now) out.push(p);
    return out;
  }

  /** The earliest JMSExpiration of a pending request; Infinity when none expires. */
  nextExpiry(): number {
    let earliest = Infinity;
    for (let p = this.head; p !== undefined; p = p.next) earliest = Math.min(earliest, p.expiresAt);
    return earliest;
  }
}
