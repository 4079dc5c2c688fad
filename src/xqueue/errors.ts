/** Typed errors of the XQueue. */
import { XrouteError } from '../foundation/xroute-error';

export class XQueueError extends XrouteError {
  constructor(
    readonly queue: string,
    message: string,
  ) {
    super(`XQueue ${queue}: ${message}`);
    this.name = 'XQueueError';
  }
}

/** A producer waited for a cell, or tried to reserve one, on a queue that has been stopped. */
export class XQueueStoppedError extends XQueueError {
  constructor(queue: string) {
    super(queue, 'stopped');
    this.name = 'XQueueStoppedError';
  }
}

/** A partition that does not fit the queue ("offset,length" out of range or malformed). */
export class PartitionError extends XQueueError {
  constructor(
    queue: string,
    readonly partition: string,
    readonly expected: string,
  ) {
    super(queue, `invalid Partition ${JSON.stringify(partition)}: expected ${expected}`);
    this.name = 'PartitionError';
  }
}

/** A wait for a free cell was abandoned through its AbortSignal. */
export class ReserveAbortedError extends XQueueError {
  constructor(queue: string) {
    super(queue, 'reserve aborted');
    this.name = 'ReserveAbortedError';
  }
}
