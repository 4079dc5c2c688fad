import { XQueue } from '../../../src/xqueue/xqueue';
import { ReserveAbortedError, XQueueError, XQueueStoppedError } from '../../../src/xqueue/errors';
import { parsePartition, WHOLE_QUEUE as WHOLE } from '../../../src/xqueue/partition';
import { attachCounting, recorder, settle } from './helpers';

/** A one-cell queue whose cell holds 'a' (not yet taken): a producer has to wait. */
function fullQueueOfOne(): XQueue<string> {
  const q = new XQueue<string>('q', 1);
  q.add(q.tryReserve(), 'a');
  return q;
}

describe('XQueue construction', () => {
  it('has the capacity it was given', () => {
    expect(new XQueue('q', 7).capacity).toBe(7);
  });

  it('turns a capacity of 0 or less into 1, as the original does', () => {
    expect(new XQueue('q', 0).capacity).toBe(1);
    expect(new XQueue('q', -5).capacity).toBe(1);
  });

  it('starts running and empty', () => {
    const s = new XQueue('q', 3).stats();
    expect(s).toMatchObject({ state: 'running', depth: 0, inFlight: 0, reserved: 0, free: 3 });
  });
});

describe('XQueue.tryReserve', () => {
  it('hands out a free cell and marks it reserved', () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.tryReserve();
    expect(cell).toBeGreaterThanOrEqual(0);
    expect(q.cellStateOf(cell)).toBe('reserved');
    expect(q.stats().reserved).toBe(1);
  });

  it('returns -1 when every cell is reserved', () => {
    const q = new XQueue<string>('q', 2);
    q.tryReserve();
    q.tryReserve();
    expect(q.tryReserve()).toBe(-1);
  });

  it('reports the queue full once every cell is reserved (reserved cells count)', () => {
    const q = new XQueue<string>('q', 1);
    q.tryReserve();
    expect(q.isFull()).toBe(true);
  });

  it('hands out only cells inside the producer partition', () => {
    const q = new XQueue<string>('q', 6);
    const p = parsePartition('2,2', 6);
    const cells = [q.tryReserve(p), q.tryReserve(p), q.tryReserve(p)];
    expect(cells.slice(0, 2).sort()).toEqual([2, 3]);
    expect(cells[2]).toBe(-1);
  });

  it('hands out the single cell of a one-number partition', () => {
    const q = new XQueue<string>('q', 6);
    expect(q.tryReserve(parsePartition('4', 6))).toBe(4);
  });

  it('returns -1 on a paused queue even when cells are free', () => {
    const q = new XQueue<string>('q', 2);
    q.pause();
    expect(q.tryReserve()).toBe(-1);
  });

  it('throws XQueueStoppedError on a stopped queue', () => {
    const q = new XQueue<string>('q', 2);
    q.stop();
    expect(() => q.tryReserve()).toThrow(XQueueStoppedError);
  });
});

describe('XQueue.reserve', () => {
  it('resolves at once when a cell is free', async () => {
    const q = new XQueue<string>('q', 1);
    await expect(q.reserve()).resolves.toBe(0);
  });

  it('waits while the queue is full and gets the cell freed by a remove', async () => {
    const q = fullQueueOfOne();
    const c = attachCounting(q);
    let got: number | undefined;
    void q.reserve().then((cell) => (got = cell));
    await settle();
    expect(got).toBeUndefined();
    q.remove(q.take(c.handle)!);
    await settle();
    expect(got).toBe(0);
    expect(q.cellStateOf(0)).toBe('reserved');
  });

  it('serves waiting producers in the order they started waiting', async () => {
    const q = fullQueueOfOne();
    const order: string[] = [];
    void q.reserve().then((cell) => {
      order.push('first');
      q.cancel(cell);
    });
    void q.reserve().then(() => order.push('second'));
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    await settle();
    expect(order).toEqual(['first', 'second']);
  });

  it('does not let tryReserve jump ahead of a waiting producer', async () => {
    const q = fullQueueOfOne();
    const waiting = q.reserve();
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    expect(q.tryReserve()).toBe(-1);
    await expect(waiting).resolves.toBe(0);
  });

  it('waits for a cell of its own partition even when other cells are free', async () => {
    const q = new XQueue<string>('q', 4);
    const p = parsePartition('1', 4);
    q.add(q.tryReserve(p), 'mine');
    let got: number | undefined;
    void q.reserve({ partition: p }).then((cell) => (got = cell));
    await settle();
    expect(got).toBeUndefined();
    expect(q.stats().free).toBe(3);
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    await settle();
    expect(got).toBe(1);
  });

  it('does not make a producer wait behind one that waits for another partition', async () => {
    const q = new XQueue<string>('q', 4);
    const p = parsePartition('0', 4);
    q.add(q.tryReserve(p), 'in cell 0');
    void q.reserve({ partition: p });
    let got: number | undefined;
    void q.reserve().then((cell) => (got = cell));
    await settle();
    expect(got).toBeDefined();
    expect(got).not.toBe(0);
  });

  it('rejects with ReserveAbortedError when its signal aborts, and leaves the queue unchanged', async () => {
    const q = fullQueueOfOne();
    const ac = new AbortController();
    const waiting = q.reserve({ signal: ac.signal });
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(ReserveAbortedError);
    expect(q.stats().waitingProducers).toBe(0);
  });

  it('rejects at once when its signal is already aborted', async () => {
    const q = fullQueueOfOne();
    const ac = new AbortController();
    ac.abort();
    await expect(q.reserve({ signal: ac.signal })).rejects.toBeInstanceOf(ReserveAbortedError);
  });

  it('gives the freed cell to the next producer after an aborted one', async () => {
    const q = fullQueueOfOne();
    const ac = new AbortController();
    const aborted = q.reserve({ signal: ac.signal }).catch((e: Error) => e.name);
    const next = q.reserve();
    ac.abort();
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    await expect(aborted).resolves.toBe('ReserveAbortedError');
    await expect(next).resolves.toBe(0);
  });

  it('waits on a paused queue and is served on resume', async () => {
    const q = new XQueue<string>('q', 2);
    q.pause();
    let got: number | undefined;
    void q.reserve().then((cell) => (got = cell));
    await settle();
    expect(got).toBeUndefined();
    q.resume();
    await settle();
    expect(got).toBeGreaterThanOrEqual(0);
  });

  it('serves, on resume, a waiting producer whose partition is free even when the first waiter cannot be served', async () => {
    const q = new XQueue<string>('q', 3);
    const p0 = parsePartition('0', 3);
    q.add(q.tryReserve(p0), 'cell 0 busy');
    q.pause();
    void q.reserve({ partition: p0 });
    let got: number | undefined;
    void q.reserve({ partition: parsePartition('2', 3) }).then((cell) => (got = cell));
    q.resume();
    await settle();
    expect(got).toBe(2);
  });

  it('rejects a waiting producer with XQueueStoppedError when the queue stops', async () => {
    const q = fullQueueOfOne();
    const waiting = q.reserve();
    q.stop();
    await expect(waiting).rejects.toBeInstanceOf(XQueueStoppedError);
  });
});

describe('XQueue.whenFree', () => {
  it('hands the cell a remove frees to the waiting callback before remove returns, already reserved', () => {
    const q = fullQueueOfOne();
    const c = attachCounting(q);
    const got: number[] = [];
    q.whenFree(
      WHOLE,
      (cell) => got.push(cell),
      () => undefined,
    );
    q.remove(q.take(c.handle)!);
    expect(got).toEqual([0]);
    expect(q.cellStateOf(0)).toBe('reserved');
  });

  it('waits its turn behind producers that waited before it', async () => {
    const q = fullQueueOfOne();
    const order: string[] = [];
    void q.reserve().then((cell) => {
      order.push('promise');
      q.cancel(cell);
    });
    q.whenFree(
      WHOLE,
      () => order.push('callback'),
      () => undefined,
    );
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    await settle();
    expect(order).toEqual(['promise', 'callback']);
  });

  it('lets a callback reserve more cells from inside a hand-over of several waiters at once (resume)', () => {
    const q = new XQueue<string>('q', 3);
    q.pause();
    const got: number[] = [];
    const again = (): void => {
      const more = q.tryReserve();
      if (more >= 0) got.push(more);
    };
    q.whenFree(
      WHOLE,
      (cell) => (got.push(cell), again()),
      () => undefined,
    );
    q.whenFree(
      WHOLE,
      (cell) => got.push(cell),
      () => undefined,
    );
    q.resume();
    expect(got.sort()).toEqual([0, 1, 2]);
    expect(q.stats()).toMatchObject({ reserved: 3, free: 0, waitingProducers: 0 });
  });

  it('is taken out of the line by its cancel function, so the freed cell stays free', () => {
    const q = fullQueueOfOne();
    const got: number[] = [];
    const cancel = q.whenFree(
      WHOLE,
      (cell) => got.push(cell),
      () => undefined,
    );
    cancel();
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    expect(got).toEqual([]);
    expect(q.stats()).toMatchObject({ free: 1, waitingProducers: 0 });
  });

  it('tells the waiter when the queue stops, and refuses a new wait on a stopped queue', () => {
    const q = new XQueue<string>('q', 1);
    q.tryReserve();
    const stopped: Error[] = [];
    q.whenFree(
      WHOLE,
      () => undefined,
      (e) => stopped.push(e),
    );
    q.stop();
    expect(stopped[0]).toBeInstanceOf(XQueueStoppedError);
    expect(() =>
      q.whenFree(
        WHOLE,
        () => undefined,
        () => undefined,
      ),
    ).toThrow(XQueueStoppedError);
  });
});

describe('XQueue.cancel', () => {
  it('returns a reserved cell to the free cells', () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.tryReserve();
    q.cancel(cell);
    expect(q.cellStateOf(cell)).toBe('empty');
    expect(q.stats()).toMatchObject({ reserved: 0, free: 2 });
  });

  it('makes the cancelled cell the next one reserved', () => {
    const q = new XQueue<string>('q', 4);
    q.tryReserve();
    const second = q.tryReserve();
    q.cancel(second);
    expect(q.tryReserve()).toBe(second);
  });

  it('hands the cancelled cell to a waiting producer', async () => {
    const q = new XQueue<string>('q', 1);
    const cell = q.tryReserve();
    const waiting = q.reserve();
    q.cancel(cell);
    await expect(waiting).resolves.toBe(cell);
  });

  it('refuses a cell that is not reserved', () => {
    const q = new XQueue<string>('q', 2);
    expect(() => q.cancel(0)).toThrow(XQueueError);
  });

  it('refuses a cell out of range', () => {
    const q = new XQueue<string>('q', 2);
    expect(() => q.cancel(5)).toThrow(/out of range/);
  });
});

describe('XQueue.add', () => {
  it('fills a reserved cell, which then waits to be taken', () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.tryReserve();
    q.add(cell, 'hello');
    expect(q.cellStateOf(cell)).toBe('occupied');
    expect(q.browse(cell)).toBe('hello');
    expect(q.stats()).toMatchObject({ depth: 1, reserved: 0, totalAdded: 1 });
  });

  it('refuses a cell that was not reserved', () => {
    const q = new XQueue<string>('q', 2);
    expect(() => q.add(0, 'x')).toThrow(/expected reserved/);
  });

  it('refuses to fill the same cell twice', () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.tryReserve();
    q.add(cell, 'x');
    expect(() => q.add(cell, 'y')).toThrow(XQueueError);
  });

  it('wakes an idle consumer once for several messages', () => {
    const q = new XQueue<string>('q', 4);
    const c = attachCounting(q);
    q.add(q.tryReserve(), 'a');
    q.add(q.tryReserve(), 'b');
    expect(c.wakes).toBe(1);
  });
});

describe('XQueue.put', () => {
  it('adds at once when a cell is free and resolves with the cell', async () => {
    const q = new XQueue<string>('q', 2);
    const cell = await q.put('a');
    expect(q.browse(cell)).toBe('a');
  });

  it('resolves each put into a reused cell with that cell, the message being the new one', async () => {
    const q = new XQueue<string>('q', 1);
    const c = attachCounting(q);
    expect(await q.put('a')).toBe(0);
    q.remove(q.take(c.handle)!);
    expect(await q.put('b')).toBe(0);
    expect(q.browse(0)).toBe('b');
  });

  it('waits while the queue is full (back pressure) instead of growing it', async () => {
    const q = new XQueue<string>('q', 1);
    await q.put('a');
    let done = false;
    const second = q.put('b').then(() => (done = true));
    await settle();
    expect(done).toBe(false);
    expect(q.size).toBe(1);
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    await second;
    expect(q.browse(0)).toBe('b');
  });

  it('stays within its partition', async () => {
    const q = new XQueue<string>('q', 4);
    const cell = await q.put('a', undefined, { partition: parsePartition('3', 4) });
    expect(cell).toBe(3);
  });

  it('attaches the completion callback to the message', async () => {
    const q = new XQueue<string>('q', 2);
    const r = recorder<string>();
    await q.put('a', r.onDone);
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    expect(r.calls).toEqual([['a', 'done', 0]]);
  });

  it('rejects on a stopped queue', async () => {
    const q = new XQueue<string>('q', 2);
    q.stop();
    await expect(q.put('a')).rejects.toBeInstanceOf(XQueueStoppedError);
  });
});

describe('XQueue.offer', () => {
  it('adds when a cell is free and returns the cell', () => {
    const q = new XQueue<string>('q', 1);
    expect(q.offer('a')).toBe(0);
    expect(q.depth).toBe(1);
  });

  it('returns -1 and adds nothing when the queue is full', () => {
    const q = new XQueue<string>('q', 1);
    q.offer('a');
    expect(q.offer('b')).toBe(-1);
    expect(q.stats().totalAdded).toBe(1);
  });

  it('returns -1 when its partition is full although other cells are free', () => {
    const q = new XQueue<string>('q', 3);
    const p = parsePartition('0', 3);
    q.offer('a', undefined, p);
    expect(q.offer('b', undefined, p)).toBe(-1);
  });

  it('attaches the completion callback to the message, as put does', () => {
    const q = new XQueue<string>('q', 2);
    const r = recorder<string>();
    q.offer('a', r.onDone);
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    expect(r.calls).toEqual([['a', 'done', 0]]);
  });

  it('returns -1 on a paused queue, where put would wait', () => {
    const q = new XQueue<string>('q', 2);
    q.pause();
    expect(q.offer('a')).toBe(-1);
    expect(q.stats().totalAdded).toBe(0);
  });

  it('does not jump ahead of a producer waiting for a cell', async () => {
    const q = fullQueueOfOne();
    const waiting = q.put('b');
    const c = attachCounting(q);
    q.remove(q.take(c.handle)!);
    expect(q.offer('c')).toBe(-1);
    await expect(waiting).resolves.toBe(0);
  });

  it('throws XQueueStoppedError on a stopped queue (put rejects with it)', () => {
    const q = new XQueue<string>('q', 2);
    q.stop();
    expect(() => q.offer('a')).toThrow(XQueueStoppedError);
  });

  it('throws XQueueStoppedError on a closed queue', () => {
    const q = new XQueue<string>('q', 2);
    q.close();
    expect(() => q.offer('a')).toThrow(XQueueStoppedError);
  });
});

describe('XQueue.takeback', () => {
  it('withdraws a message nobody has taken and frees its cell', () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.offer('a');
    expect(q.takeback(cell)).toBe('a');
    expect(q.cellStateOf(cell)).toBe('empty');
    expect(q.stats()).toMatchObject({ depth: 0, totalTakeback: 1, free: 2 });
  });

  it('does not fire the completion callback', () => {
    const q = new XQueue<string>('q', 2);
    const r = recorder<string>();
    const cell = q.offer('a', r.onDone);
    q.takeback(cell);
    expect(r.calls).toEqual([]);
  });

  it('returns undefined for a message a consumer has already taken', () => {
    const q = new XQueue<string>('q', 2);
    const cell = q.offer('a');
    const c = attachCounting(q);
    q.take(c.handle);
    expect(q.takeback(cell)).toBeUndefined();
    expect(q.cellStateOf(cell)).toBe('taken');
  });

  it('returns undefined for an empty or out-of-range cell', () => {
    const q = new XQueue<string>('q', 2);
    expect(q.takeback(0)).toBeUndefined();
    expect(q.takeback(9)).toBeUndefined();
  });

  it('removes the message from the waiting order, so it is never taken', () => {
    const q = new XQueue<string>('q', 3);
    q.offer('a');
    const b = q.offer('b');
    q.offer('c');
    q.takeback(b);
    const c = attachCounting(q);
    expect([q.take(c.handle)?.item, q.take(c.handle)?.item, q.take(c.handle)]).toEqual(['a', 'c', undefined]);
  });
});
