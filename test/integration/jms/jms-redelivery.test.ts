/**
 * JMSReceiver on RabbitMQ's AMQP 1.0 with FailedOutcome release: a message that always fails downstream is
 * released only after a back-off delay that doubles per consecutive failure, so it is redelivered a few
 * times a second at most instead of in a hot loop, and it is never lost.
 */
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { Message } from '../../../src/message/message';
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { waitFor } from '../../support/component-harness';
import { publishAmqp10, queueInfo } from '../../support/amqp10-test-client';
import { Kit, attached, unique } from './jms-queue-kit';

jest.setTimeout(60_000);

const kit = new Kit();
afterEach(() => kit.cleanup());

/** Fails every message, recording when each attempt arrived. */
function failAll(out: XQueue<Message>): number[] {
  const times: number[] = [];
  const handle = out.attach('failing', () => setImmediate(pull));
  function pull(): void {
    for (let t: Taken<Message> | undefined = out.take(handle); t; t = out.take(handle)) {
      times.push(Date.now());
      out.remove(t, 'failed', 'test downstream refused it');
    }
  }
  return times;
}

it('releases a failed message only after a back-off delay that doubles per consecutive failure, and keeps it', async () => {
  const queue = unique('jms-backoff');
  kit.queues.push(queue);
  const { h, q } = kit.start(
    JMS_RECEIVER,
    { Name: 'get-backoff', QueueName: queue, Mode: 'daemon', FailedOutcome: 'release', RedeliveryDelay: '300,1200' },
    { capacity: 8 },
  );
  const times = failAll(q);
  await attached(h, 'subscribed');
  await publishAmqp10(`/amq/queue/${queue}`, [{ body: 'poison' }]);
  await waitFor(() => times.length >= 4, 'four attempts', 20_000);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  expect(gaps[0]).toBeGreaterThanOrEqual(290);
  expect(gaps[1]).toBeGreaterThanOrEqual(590);
  expect(gaps[2]).toBeGreaterThanOrEqual(1190);
  expect(h.status.get().counters.redeliveries).toBeGreaterThanOrEqual(3);
  // Stopped while it was held: the broker still has it.
  await kit.stop(h);
  expect((await queueInfo(queue))?.messageCount).toBe(1);
});
