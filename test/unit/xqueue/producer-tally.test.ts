import { MessageCounts } from '../../../src/xqueue/message-counts';
import { XQueue } from '../../../src/xqueue/xqueue';
import { attachCounting } from './helpers';

const newTally = (): MessageCounts => new MessageCounts();

/** A queue of one cell, so every message reuses the cell of the one before it. */
function oneCellQueue(): { q: XQueue<string>; take: () => ReturnType<XQueue<string>['take']> } {
  const q = new XQueue<string>('q', 1);
  const c = attachCounting(q);
  return { q, take: () => q.take(c.handle) };
}

describe('XQueue producer tally', () => {
  it('counts a message in when it is added and done when the consumer removes it', () => {
    const { q, take } = oneCellQueue();
    const tally = newTally();
    q.offer('a', undefined, undefined, tally);
    expect(tally.counts()).toEqual({ in: 1, done: 0, failed: 0 });
    q.remove(take()!);
    expect(tally.counts()).toEqual({ in: 1, done: 1, failed: 0 });
  });

  it('counts a message removed as failed as failed', () => {
    const { q, take } = oneCellQueue();
    const tally = newTally();
    q.offer('a', undefined, undefined, tally);
    q.remove(take()!, 'failed');
    expect(tally.counts()).toEqual({ in: 1, done: 0, failed: 1 });
  });

  it('leaves a tally alone once its message is gone, when an uncounted producer reuses the cell', () => {
    const { q, take } = oneCellQueue();
    const tally = newTally();
    q.offer('counted', undefined, undefined, tally);
    q.remove(take()!);
    q.offer('uncounted');
    q.remove(take()!);
    q.offer('withdrawn');
    q.takeback(0);
    expect(tally.counts()).toEqual({ in: 1, done: 1, failed: 0 });
  });

  it('counts each message in the tally of the producer that added it, when producers alternate on a cell', () => {
    const { q, take } = oneCellQueue();
    const first = newTally();
    const second = newTally();
    for (const tally of [first, second, first, undefined, second]) {
      q.offer('m', undefined, undefined, tally);
      q.remove(take()!);
    }
    expect([first.counts(), second.counts()]).toEqual([
      { in: 2, done: 2, failed: 0 },
      { in: 2, done: 2, failed: 0 },
    ]);
  });

  it('counts a message withdrawn unseen out again', () => {
    const { q } = oneCellQueue();
    const tally = newTally();
    const cell = q.offer('a', undefined, undefined, tally);
    q.takeback(cell);
    expect(tally.in).toBe(0);
  });
});
