import { MessageCounts, TallySource } from '../../../src/xqueue/message-counts';

/** A source whose figures the test sets. */
function source(figures: { in: number; done: number; failed: number }, settled = false): TallySource & { settled: boolean } {
  return { ...figures, settled };
}

describe('MessageCounts', () => {
  it('reads 0 in, done and failed before anything is counted', () => {
    expect(new MessageCounts().counts()).toEqual({ in: 0, done: 0, failed: 0 });
  });

  it('sums the figures of its sources with what the component counted itself', () => {
    const counts = new MessageCounts();
    counts.track(source({ in: 5, done: 3, failed: 1 }));
    counts.track(source({ in: 2, done: 2, failed: 0 }));
    counts.countIn();
    counts.countIn();
    counts.countIn(-1);
    counts.countDone();
    counts.countFailed();
    expect([counts.counts(), counts.in, counts.done, counts.failed]).toEqual([{ in: 8, done: 6, failed: 2 }, 8, 6, 2]);
  });

  it('reads a source as it is now, not as it was when tracked', () => {
    const counts = new MessageCounts();
    const s = { in: 0, done: 0, failed: 0, settled: false };
    counts.track(s);
    s.in = 4;
    s.done = 3;
    expect(counts.counts()).toEqual({ in: 4, done: 3, failed: 0 });
  });

  it('keeps the figures of a source once it settled, and no longer reads it', () => {
    const counts = new MessageCounts();
    const s = source({ in: 4, done: 3, failed: 1 });
    counts.track(s);
    s.settled = true;
    counts.counts();
    Object.assign(s, { in: 100, done: 100, failed: 100 });
    expect(counts.counts()).toEqual({ in: 4, done: 3, failed: 1 });
  });
});
