/**
 * StreamPersister's pending requests: every request taken from the input and not yet removed, in the order
 * taken, the ones written on the current connection first. Replies answer the oldest written request
 * (FIFO) or, with a Parser, the written request whose tag the reply carries. After a connection is lost no
 * request counts as written, so all are written again, oldest first, on the next one.
 */
import { Message } from '../../src/message/message';
import { Taken, XQueue } from '../../src/xqueue/xqueue';

/** A request taken from the input and not yet removed. */
export interface PendingRequest {
  readonly taken: Taken<Message>;
  readonly queue: XQueue<Message>;
  /** With Parser (multiplexed): the cell id written into RCField, read back from the parsed reply. */
  readonly tag: string;
  /** The rendered request (text is written as UTF-8), written again as it is after a reconnect. */
  readonly data: string | Buffer;
  /** JMSExpiration in ms since the epoch; Infinity when none. */
  readonly expiresAt: number;
  /** Written on the current connection (false again after the connection is lost). */
  written: boolean;
  /** Times written, over all connections. */
  writes: number;
  /** Reply timeouts charged to this request (it was the oldest when ReceiveTime passed). */
  timeouts: number;
}

export function pendingRequest(taken: Taken<Message>, queue: XQueue<Message>, tag: string, data: string | Buffer, expiresAt: number): PendingRequest {
  return { taken, queue, tag, data, expiresAt, written: false, writes: 0, timeouts: 0 };
}

export class PendingRequests implements Iterable<PendingRequest> {
  private list: PendingRequest[] = [];

  get size(): number {
    return this.list.length;
  }

  /** The oldest pending request (the one the next FIFO reply answers when it is written). */
  get oldest(): PendingRequest | undefined {
    return this.list[0];
  }

  /** The request at `index` (0 = the oldest); index < size. */
  at(index: number): PendingRequest {
    return this.list[index];
  }

  /** The request taken last. */
  get newest(): PendingRequest | undefined {
    return this.list[this.list.length - 1];
  }

  [Symbol.iterator](): Iterator<PendingRequest> {
    return this.list[Symbol.iterator]();
  }

  add(p: PendingRequest): void {
    this.list.push(p);
  }

  /** Removes `p`; false when it had left already (each request leaves exactly once). */
  remove(p: PendingRequest): boolean {
    const list = this.list;
    // The oldest leaves first (FIFO replies): shift makes no array of the removed, as splice does.
    if (list[0] === p) {
      list.shift();
      return true;
    }
    const i = list.indexOf(p);
    if (i < 0) return false;
    list.splice(i, 1);
    return true;
  }

  /** Records a write of `p` on the current connection. */
  markWritten(p: PendingRequest): void {
    p.written = true;
    p.writes++;
  }

  /** The connection is gone: nothing counts as written on a connection any more. */
  forgetWrites(): void {
    for (const p of this.list) p.written = false;
  }

  anyWritten(): boolean {
    return this.list.some((p) => p.written);
  }

  /** The written request tagged `tag`. */
  writtenWithTag(tag: string): PendingRequest | undefined {
    return this.list.find((p) => p.written && p.tag === tag);
  }

  /** The requests whose JMSExpiration is at or before `now`. */
  expiredAt(now: number): PendingRequest[] {
    return this.list.filter((p) => p.expiresAt <= now);
  }

  /** The earliest JMSExpiration of a pending request; Infinity when none expires. */
  nextExpiry(): number {
    return Math.min(...this.list.map((p) => p.expiresAt));
  }
}
