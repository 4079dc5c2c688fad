/**
 * OutlinkSender (actors/nodes/outlink-sender.ts): every message placed reports its own key when its consumer
 * removes it, whichever cell it had; a full outlink makes messages wait in order; close() withdraws what no
 * consumer took; handOver() gives the placed keys in the order they were placed.
 */
import { Message } from '../../../src/message/message';
import { ConsumerHandle, Outcome, Taken, XQueue } from '../../../src/xqueue/xqueue';
import { WHOLE_QUEUE } from '../../../src/xqueue/partition';
import { OutlinkSender, SenderDone } from '../../../actors/nodes/outlink-sender';

interface Fixture {
  readonly queue: XQueue<Message>;
  readonly sender: OutlinkSender<string>;
  readonly consumer: ConsumerHandle;
  readonly returned: { key: string; body: string | undefined; outcome: Outcome }[];
  readonly done: SenderDone<string>;
}

function fixture(capacity: number): Fixture {
  const queue = new XQueue<Message>('out', capacity);
  const sender = new OutlinkSender<string>(queue, WHOLE_QUEUE, new AbortController().signal, (e) => {
    throw e;
  });
  const returned: Fixture['returned'] = [];
  const done: SenderDone<string> = (key, item, outcome) => returned.push({ key, body: item.bodyText(), outcome });
  return { queue, sender, consumer: queue.attach('test', () => undefined), returned, done };
}

function takeAll(f: Fixture): Taken<Message>[] {
  const taken: Taken<Message>[] = [];
  for (let t = f.queue.take(f.consumer); t !== undefined; t = f.queue.take(f.consumer)) taken.push(t);
  return taken;
}

/** Settles the promise callbacks of a reservation that waited. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('OutlinkSender', () => {
  it('hands each removed message back with its own key and outcome, in whatever order cells are removed', () => {
    const f = fixture(4);
    for (const key of ['a', 'b', 'c']) f.sender.send(key, Message.text(`body ${key}`), f.done);
    const [a, b, c] = takeAll(f);
    f.queue.remove(c, 'done');
    f.queue.remove(a, 'failed');
    f.queue.remove(b, 'done');
    expect(f.returned).toEqual([
      { key: 'c', body: 'body c', outcome: 'done' },
      { key: 'a', body: 'body a', outcome: 'failed' },
      { key: 'b', body: 'body b', outcome: 'done' },
    ]);
  });

  it('keeps a reused cell apart from the message that had it before', () => {
    const f = fixture(1);
    f.sender.send('first', Message.text('1'), f.done);
    f.queue.remove(takeAll(f)[0]);
    f.sender.send('second', Message.text('2'), f.done);
    f.queue.remove(takeAll(f)[0]);
    expect(f.returned.map((r) => r.key)).toEqual(['first', 'second']);
  });

  it('makes messages wait in order while the outlink is full, and places them as cells free', async () => {
    const f = fixture(1);
    for (const key of ['a', 'b', 'c']) f.sender.send(key, Message.text(key), f.done);
    expect(f.sender.backlog).toBe(2);
    const order: string[] = [];
    while (order.length < 3) {
      const [t] = takeAll(f);
      if (t === undefined) {
        await settle();
        continue;
      }
      order.push(t.item.bodyText() ?? '');
      f.queue.remove(t);
    }
    expect(order).toEqual(['a', 'b', 'c']);
    expect(f.returned.map((r) => r.key)).toEqual(['a', 'b', 'c']);
  });

  it('withdraws on close what no consumer took, without a callback', () => {
    const f = fixture(4);
    for (const key of ['a', 'b', 'c']) f.sender.send(key, Message.text(key), f.done);
    const a = f.queue.take(f.consumer) as Taken<Message>;
    f.sender.close();
    expect(f.queue.size).toBe(1); // only the message a consumer holds
    expect(f.returned).toEqual([]);
    f.queue.remove(a);
    expect(f.returned.map((r) => r.key)).toEqual(['a']);
  });

  it('hands over the placed keys in the order they were placed, and their callbacks still fire', () => {
    const f = fixture(3);
    for (const key of ['a', 'b', 'c']) f.sender.send(key, Message.text(key), f.done);
    f.queue.remove(f.queue.take(f.consumer) as Taken<Message>); // frees the first cell; 'd' takes it, so cell order is no longer placing order
    f.sender.send('d', Message.text('d'), f.done);
    f.sender.send('e', Message.text('e'), f.done); // waits: the outlink is full
    expect(f.sender.handOver()).toEqual({ placed: ['b', 'c', 'd'], waiting: ['e'] });
    f.sender.close(); // after a hand-over: withdraws nothing, the successor relies on them
    expect(f.queue.size).toBe(3);
    for (const t of takeAll(f)) f.queue.remove(t);
    expect(f.returned.map((r) => r.key).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reports the keys of messages placed in cells a resize added', () => {
    const f = fixture(1);
    f.sender.send('a', Message.text('a'), f.done);
    f.queue.resize(3);
    f.sender.send('b', Message.text('b'), f.done);
    f.sender.send('c', Message.text('c'), f.done);
    for (const t of takeAll(f)) f.queue.remove(t);
    expect(f.returned.map((r) => r.key)).toEqual(['a', 'b', 'c']);
  });
});
