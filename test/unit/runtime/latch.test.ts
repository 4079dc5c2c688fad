import { Latch } from '../../../src/runtime/latch';

/** Whether `p` has settled after the microtasks queued so far ran. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('Latch', () => {
  it('keeps a waiter waiting until it opens, then resolves it', async () => {
    const latch = new Latch();
    const waiting = latch.wait();
    expect(await settled(waiting)).toBe(false);
    latch.open();
    expect(await settled(waiting)).toBe(true);
  });

  it('resolves a wait that starts after it opened', async () => {
    const latch = new Latch();
    latch.open();
    expect(await settled(latch.wait())).toBe(true);
  });

  it('tells whether it is open', () => {
    const latch = new Latch();
    const before = latch.isOpen;
    latch.open();
    expect([before, latch.isOpen]).toEqual([false, true]);
  });

  it('opens once: a second open changes nothing and every waiter shares one promise', async () => {
    const latch = new Latch();
    const first = latch.wait();
    latch.open();
    latch.open();
    expect(latch.wait()).toBe(first);
    expect(await settled(first)).toBe(true);
  });
});
