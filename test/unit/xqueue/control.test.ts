import { QueueState, XQueue } from '../../../src/xqueue/xqueue';
import { attachCounting, settle } from './helpers';

describe('XQueue.pause', () => {
  it('stops consumers from taking', () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    const c = attachCounting(q);
    q.pause();
    expect(q.take(c.handle)).toBeUndefined();
    expect(q.depth).toBe(1);
  });

  it('does not wake consumers when a message is added while paused', () => {
    const q = new XQueue<string>('q', 2);
    const c = attachCounting(q);
    const cell = q.tryReserve();
    q.pause();
    q.add(cell, 'a');
    expect(c.wakes).toBe(0);
  });

  it('lets a consumer still remove what it had taken', () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    q.pause();
    expect(q.remove(t)).toBe(true);
  });

  it('keeps a cell freed while paused from a waiting producer until resume', async () => {
    const q = new XQueue<string>('q', 1);
    q.offer('a');
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    let got: number | undefined;
    void q.reserve().then((cell) => (got = cell));
    q.pause();
    q.remove(t);
    await settle();
    expect(got).toBeUndefined();
    q.resume();
    await settle();
    expect(got).toBe(0);
  });

  it('reports state paused', () => {
    const q = new XQueue<string>('q', 1);
    q.pause();
    expect(q.state).toBe('paused');
    expect(q.stats().state).toBe('paused');
  });
});

describe('XQueue.resume', () => {
  it('lets producers reserve again', () => {
    const q = new XQueue<string>('q', 2);
    q.pause();
    q.resume();
    expect(q.tryReserve()).toBeGreaterThanOrEqual(0);
    expect(q.state).toBe('running');
  });

  it('wakes a consumer that found the queue paused', () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    const c = attachCounting(q);
    q.pause();
    q.take(c.handle); // sees paused, goes idle
    q.resume();
    expect(c.wakes).toBe(2);
    expect(q.take(c.handle)?.item).toBe('a');
  });

  it('serves producers that waited while paused', async () => {
    const q = new XQueue<string>('q', 2);
    q.pause();
    const waiting = q.put('a');
    q.resume();
    await expect(waiting).resolves.toBeGreaterThanOrEqual(0);
    expect(q.depth).toBe(1);
  });

  it('makes a stopped queue usable again, with its messages still there', () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    q.stop();
    q.resume();
    const c = attachCounting(q);
    expect(q.take(c.handle)?.item).toBe('a');
  });
});

describe('XQueue.stop', () => {
  it('reports state stopped', () => {
    const q = new XQueue<string>('q', 1);
    q.stop();
    expect(q.state).toBe('stopped');
  });

  it('wakes every consumer so it can see the stop', () => {
    const q = new XQueue<string>('q', 1);
    const a = attachCounting(q, 'a');
    const b = attachCounting(q, 'b');
    q.stop();
    expect([a.wakes, b.wakes]).toEqual([1, 1]);
  });

  it('keeps the waiting messages (nothing is lost)', () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    q.stop();
    expect(q.depth).toBe(1);
    expect(q.browse(0)).toBe('a');
  });

  it('gives consumers nothing more', () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    const c = attachCounting(q);
    q.stop();
    expect(q.take(c.handle)).toBeUndefined();
  });
});

describe('XQueue.onStateChange', () => {
  it('tells listeners each state change once', () => {
    const q = new XQueue<string>('q', 1);
    const seen: QueueState[] = [];
    q.onStateChange((s) => seen.push(s));
    q.pause();
    q.pause();
    q.resume();
    q.stop();
    expect(seen).toEqual(['paused', 'running', 'stopped']);
  });

  it('stops telling a listener after it unsubscribes', () => {
    const q = new XQueue<string>('q', 1);
    const seen: QueueState[] = [];
    const off = q.onStateChange((s) => seen.push(s));
    off();
    q.pause();
    expect(seen).toEqual([]);
  });
});

describe('XQueue.close', () => {
  it('stops the queue for good: resume and pause leave it stopped', () => {
    const q = new XQueue<string>('q', 2);
    q.close();
    q.resume();
    q.pause();
    expect(q.state).toBe('stopped');
    expect(() => q.tryReserve()).toThrow();
  });
});

describe('XQueue.whenEmpty', () => {
  it('resolves at once on an empty queue', async () => {
    await expect(new XQueue('q', 1).whenEmpty()).resolves.toBeUndefined();
  });

  it('waits for the last message to be removed', async () => {
    const q = new XQueue<string>('q', 2);
    q.offer('a');
    let empty = false;
    void q.whenEmpty().then(() => (empty = true));
    const c = attachCounting(q);
    const t = q.take(c.handle)!;
    await settle();
    expect(empty).toBe(false);
    q.remove(t);
    await settle();
    expect(empty).toBe(true);
  });

  it('waits for a reserved cell to be filled and removed or cancelled', async () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.tryReserve();
    let empty = false;
    void q.whenEmpty().then(() => (empty = true));
    await settle();
    expect(empty).toBe(false);
    q.cancel(cell);
    await settle();
    expect(empty).toBe(true);
  });

  it('resolves when the last message is taken back', async () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.offer('a');
    const empty = q.whenEmpty();
    q.takeback(cell);
    await expect(empty).resolves.toBeUndefined();
  });
});

describe('XQueue.stats', () => {
  it('counts waiting, in-flight, reserved and free cells', () => {
    const q = new XQueue<string>('q', 5);
    q.offer('a');
    q.offer('b');
    q.tryReserve();
    const c = attachCounting(q);
    q.take(c.handle);
    expect(q.stats()).toMatchObject({ capacity: 5, depth: 1, inFlight: 1, reserved: 1, size: 2, free: 2, consumers: 1 });
  });

  it('counts waiting producers', async () => {
    const q = new XQueue<string>('q', 1);
    q.offer('a');
    void q.reserve();
    void q.reserve();
    expect(q.stats().waitingProducers).toBe(2);
  });

  it('keeps running totals of added, removed, failed, put back and taken back messages', () => {
    const q = new XQueue<string>('q', 4);
    q.offer('a');
    q.offer('b');
    const cell = q.offer('c');
    q.takeback(cell);
    const c = attachCounting(q);
    const ta = q.take(c.handle)!;
    q.putback(ta);
    q.remove(q.take(c.handle)!);
    q.remove(q.take(c.handle)!, 'failed');
    expect(q.stats()).toMatchObject({ totalAdded: 3, totalRemoved: 1, totalFailed: 1, totalPutback: 1, totalTakeback: 1 });
  });

  it('names the queue', () => {
    expect(new XQueue('root', 1).stats().name).toBe('root');
  });
});
