/** Test support for XQueue tests: a consumer that only counts its wake-ups, and a microtask flush. */
import { ConsumerHandle, XQueue } from '../../../src/xqueue/xqueue';

export interface CountingConsumer {
  handle: ConsumerHandle;
  wakes: number;
}

export function attachCounting<T>(q: XQueue<T>, name = 'consumer'): CountingConsumer {
  const c = { wakes: 0 } as CountingConsumer;
  c.handle = q.attach(name, () => {
    c.wakes++;
  });
  return c;
}

/** Lets every pending promise continuation run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Records each completion callback as [item, outcome, cell]. */
export function recorder<T>(): { calls: [T, string, number][]; onDone: (item: T, outcome: string, cell: number) => void } {
  const calls: [T, string, number][] = [];
  return { calls, onDone: (item, outcome, cell) => calls.push([item, outcome, cell]) };
}

/** A queue holding `items` in order, each added with the recorder's callback. */
export function queueWith(items: string[], capacity = 8): { q: XQueue<string>; r: ReturnType<typeof recorder<string>> } {
  const q = new XQueue<string>('q', capacity);
  const r = recorder<string>();
  for (const item of items) q.offer(item, r.onDone);
  return { q, r };
}
