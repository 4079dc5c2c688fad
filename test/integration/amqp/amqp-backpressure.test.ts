/**
 * Flow control of AmqpReceiver against RabbitMQ: with a slow downstream and Capacity 10, the broker never
 * has more than 10 deliveries out unacknowledged, and the process does not grow while 100 000 messages
 * wait in the queue.
 */
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { ComponentConfig } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { runComponent, waitFor } from '../../support/component-harness';
import { Admin, TestConsumer, queueCounts, uniqueName } from './amqp-kit';
import { sleep } from '../../support/wait';

jest.setTimeout(180_000);

const MESSAGES = 100_000;

it('holds at most Capacity unacknowledged deliveries and keeps RSS flat while 100k messages wait', async () => {
  const admin = await Admin.open();
  const q = await admin.queue(uniqueName('backpressure'));
  await admin.publishNumbered(q, MESSAGES, 'bp', Buffer.alloc(1024, 'x'));
  const out = new XQueue<Message>('root', 10);
  const h = runComponent(AMQP_RECEIVER, {
    config: { Name: 'rcvr_bp', URI: 'amqp://guest:guest@127.0.0.1/', QueueName: q, XAMode: '1' } as ComponentConfig,
    output: out,
  });
  const consumer = new TestConsumer(out);
  // A slow downstream: one message done every 10 ms.
  const slow = setInterval(() => consumer.remove(1), 10);
  try {
    await waitFor(() => (h.status.get().counters.acked ?? 0) >= 20, 'the slow consumer at work');
    const unacked: number[] = [];
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 100);
    for (let i = 0; i < 10; i++) {
      const c = await queueCounts(q);
      unacked.push(c.unacked);
      expect(c.ready).toBeGreaterThan(MESSAGES - 5000);
      await sleep(300);
    }
    clearInterval(sampler);
    expect(Math.max(...unacked)).toBeLessThanOrEqual(10);
    expect(Math.min(...unacked)).toBeGreaterThan(0);
    // 100 000 messages of 1 KB would be ~100 MB if the broker pushed them all into the client.
    const growthMb = (Math.max(...rss) - rss[0]) / 2 ** 20;
    expect(growthMb).toBeLessThan(20);
    expect(out.stats().size).toBeLessThanOrEqual(10);
  } finally {
    clearInterval(slow);
    consumer.detach();
    await h.stop();
    await admin.cleanup();
  }
});
