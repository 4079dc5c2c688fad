/**
 * What the queues count for a component (MessageTally / MessageCounts): every message it passed, once, whatever
 * became of the records the queues kept it in (consumers that crashed or handed over, producers sharing a link).
 */
import { MessageCounts } from '../../../src/xqueue/message-counts';
import { ConsumerHandle, XQueue } from '../../../src/xqueue/xqueue';
import { untilCollected } from '../../support/garbage';

const idle = (): void => undefined;

/** Takes and removes every waiting message as `handle`, `outcome` each. */
function finishAll(q: XQueue<string>, handle: ConsumerHandle, outcome: 'done' | 'failed' = 'done'): void {
  for (let t = q.take(handle); t !== undefined; t = q.take(handle)) q.remove(t, outcome);
}

describe('A consumer tally', () => {
  it('counts what each incarnation finished, once, after the earlier ones detached', () => {
    const q = new XQueue<string>('q', 8);
    const tally = new MessageCounts();
    for (let incarnation = 0; incarnation < 3; incarnation++) {
      const handle = q.attach(`c${incarnation}`, idle, tally);
      for (const m of ['a', 'b']) q.offer(m);
      finishAll(q, handle);
      q.detach(handle);
    }
    expect(tally.counts()).toEqual({ in: 6, done: 6, failed: 0 });
  });

  it('counts a message a crashed consumer held in once, by the incarnation that finishes it', () => {
    const q = new XQueue<string>('q', 8);
    const tally = new MessageCounts();
    q.offer('a');
    const crashed = q.attach('crashed', idle, tally);
    q.take(crashed);
    q.detach(crashed);
    const next = q.attach('next', idle, tally);
    finishAll(q, next, 'failed');
    expect(tally.counts()).toEqual({ in: 1, done: 0, failed: 1 });
  });

  it('moves what a handed-over consumer held to the tally of the consumer that adopts it', () => {
    const q = new XQueue<string>('q', 8);
    const before = new MessageCounts();
    const after = new MessageCounts();
    for (const m of ['a', 'b', 'c']) q.offer(m);
    const old = q.attach('old', idle, before);
    q.remove(q.take(old)!);
    q.take(old);
    q.take(old);
    q.holdForHandOver(old);
    const next = q.attach('next', idle, after);
    q.adopt(old, next);
    expect([before.counts(), after.counts()]).toEqual([
      { in: 1, done: 1, failed: 0 },
      { in: 2, done: 0, failed: 0 },
    ]);
  });
});

describe('A producer tally', () => {
  it('counts its own messages done when other producers share the link', () => {
    const q = new XQueue<string>('q', 8);
    const mine = new MessageCounts();
    const theirs = new MessageCounts();
    const c = q.attach('c', idle);
    q.offer('mine 1', undefined, undefined, mine);
    q.offer('theirs', undefined, undefined, theirs);
    q.offer('untallied');
    q.offer('mine 2', undefined, undefined, mine);
    q.remove(q.take(c)!);
    q.remove(q.take(c)!, 'failed');
    q.take(c);
    expect([mine.counts(), theirs.counts()]).toEqual([
      { in: 2, done: 1, failed: 0 },
      { in: 1, done: 0, failed: 1 },
    ]);
  });

  it('counts done what its consumers finished when it is the only producer', () => {
    const q = new XQueue<string>('q', 8);
    const tally = new MessageCounts();
    const c = q.attach('c', idle);
    for (const m of ['a', 'b', 'c', 'd']) q.offer(m, undefined, undefined, tally);
    q.remove(q.take(c)!);
    q.remove(q.take(c)!, 'failed');
    q.take(c);
    expect(tally.counts()).toEqual({ in: 4, done: 1, failed: 1 });
  });
});

describe('A producer tally of a closed queue', () => {
  /** A queue `tally` added four messages to (one failed, one still waiting), then closed; the test keeps no strong reference. */
  function closedQueue(tally: MessageCounts): WeakRef<XQueue<string>> {
    const q = new XQueue<string>('q', 8);
    const c = q.attach('c', idle);
    for (const m of ['a', 'b', 'c', 'd']) q.offer(m, undefined, undefined, tally);
    q.remove(q.take(c)!);
    q.remove(q.take(c)!, 'failed');
    q.remove(q.take(c)!);
    q.detach(c);
    q.close();
    return new WeakRef(q);
  }

  it('keeps the figures it read before the queue closed', () => {
    const tally = new MessageCounts();
    closedQueue(tally);
    expect([tally.counts(), tally.recordsHeld]).toEqual([{ in: 4, done: 2, failed: 1 }, 0]);
  });

  it('lets the closed queue go', async () => {
    const tally = new MessageCounts();
    const closed = closedQueue(tally);
    await untilCollected(closed, 'the closed queue');
    expect(tally.counts()).toEqual({ in: 4, done: 2, failed: 1 });
  });
});

describe('XQueue totals', () => {
  it('count what consumers removed after they detached, and every producer’s adds', () => {
    const q = new XQueue<string>('q', 8);
    const first = q.attach('first', idle, new MessageCounts());
    q.offer('a', undefined, undefined, new MessageCounts());
    q.offer('b');
    q.remove(q.take(first)!);
    q.remove(q.take(first)!, 'failed');
    q.detach(first);
    const second = q.attach('second', idle);
    q.offer('c');
    finishAll(q, second);
    expect(q.stats()).toMatchObject({ totalAdded: 3, totalRemoved: 2, totalFailed: 1 });
  });
});
