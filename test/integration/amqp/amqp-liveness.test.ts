/**
 * Liveness of an AMQP 0-9-1 connection on the real broker (docs/operations.md#liveness-of-broker-connections):
 * RabbitMQ's heartbeats are traffic, so a receiver on a queue where nothing happens is never declared dead.
 */
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { runComponent } from '../../support/component-harness';
import { quietWatch } from '../../support/partition-kit';
import { Admin, BROKER_URL, uniqueName } from './amqp-kit';

jest.setTimeout(30_000);

it('keeps a receiver on a quiet queue connected for three times its Heartbeat: the broker heartbeats count as traffic', async () => {
  const admin = await Admin.open();
  const queue = await admin.queue(uniqueName('quiet'));
  const h = runComponent(AMQP_RECEIVER, {
    config: { Name: 'quiet', URI: BROKER_URL, QueueName: queue, Heartbeat: '1' },
    output: new XQueue<Message>('quiet-out', 8),
  });
  try {
    expect(await quietWatch(h.status, 3_000)).toEqual({ statuses: ['RUNNING'], reconnects: 0 });
  } finally {
    await h.stop();
    await admin.cleanup();
  }
});
