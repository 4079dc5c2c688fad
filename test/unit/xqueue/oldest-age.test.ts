import { XQueue } from '../../../src/xqueue/xqueue';
import { MessageCounts } from '../../../src/xqueue/message-counts';
import { attachCounting } from './helpers';
import { waitFor } from '../runtime/helpers';

const agedPast = (q: XQueue<string>, ms: number) => waitFor(() => q.stats().oldestAgeMs >= ms, `oldest message older than ${ms} ms`, 2000);

describe('XQueue oldest message age', () => {
  it('is 0 for an empty link', () => {
    expect(new XQueue<string>('q', 4).stats().oldestAgeMs).toBe(0);
  });

  it('is the age of the first message added while it waits', async () => {
    const q = new XQueue<string>('q', 4);
    q.offer('old');
    await agedPast(q, 30);
    q.offer('new');
    expect(q.stats().oldestAgeMs).toBeGreaterThanOrEqual(30);
  });

  it('counts a message taken and not yet removed as present', async () => {
    const q = new XQueue<string>('q', 4);
    q.offer('old');
    const c = attachCounting(q);
    q.take(c.handle);
    await agedPast(q, 30);
    q.offer('new');
    expect(q.stats().oldestAgeMs).toBeGreaterThanOrEqual(30);
  });

  it('keeps the original age of a message put back', async () => {
    const q = new XQueue<string>('q', 4);
    q.offer('old');
    const c = attachCounting(q);
    const taken = q.take(c.handle)!;
    await agedPast(q, 30);
    q.putback(taken);
    expect(q.stats().oldestAgeMs).toBeGreaterThanOrEqual(30);
  });

  it('drops to 0 once the last message is removed', () => {
    const q = new XQueue<string>('q', 4);
    q.offer('only');
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    expect(q.stats().oldestAgeMs).toBe(0);
  });
});

describe('XQueue consumer tally', () => {
  it('counts a message put back out again, so in - done - failed is what the consumer holds', () => {
    const q = new XQueue<string>('q', 4);
    const tally = new MessageCounts();
    q.offer('a');
    q.offer('b');
    const handle = q.attach('c', () => undefined, tally);
    const a = q.take(handle)!;
    q.take(handle);
    q.putback(a);
    expect(tally.in - tally.done - tally.failed).toBe(1);
  });

  it('counts the messages of a detached consumer out again', () => {
    const q = new XQueue<string>('q', 4);
    const tally = new MessageCounts();
    q.offer('a');
    const handle = q.attach('c', () => undefined, tally);
    q.take(handle);
    q.detach(handle);
    expect(tally.in).toBe(0);
  });
});
