/**
 * The pools hand out the JMS classes for amqp:// with ConnectionFactoryName: a pooled JMSPersister puts a
 * message on a queue of RabbitMQ's AMQP 1.0 and a pooled JMSReceiver gets it.
 */
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { runComponent, waitFor } from '../../support/component-harness';
import { defaultRegistry } from '../../../actors/index';
import { PERSISTER_POOL } from '../../../actors/pools/persister-pool';
import { RECEIVER_POOL } from '../../../actors/pools/receiver-pool';
import { PoolClient } from '../../../actors/pools/pool-client';
import { deleteQueue, drain, RABBIT } from '../../support/amqp10-test-client';
import { unique } from '../jms/jms-queue-kit';

jest.setTimeout(30_000);

function pool(kind: 'persister' | 'receiver') {
  const input = new XQueue<Message>(`${kind}_pool`, 16);
  const h = runComponent(kind === 'persister' ? PERSISTER_POOL : RECEIVER_POOL, { config: { Name: `${kind}_pool` }, input, registry: defaultRegistry() });
  return { h, client: new PoolClient(input) };
}

describe('pooled JMS children', () => {
  it('puts through a pooled JMSPersister and gets through a pooled JMSReceiver (RabbitMQ AMQP 1.0)', async () => {
    const queue = unique('pooled-jms');
    const base = `amqp://guest:guest@${RABBIT.host}:${RABBIT.port}/?ConnectionFactoryName=local&QueueName=${queue}`;
    const persisters = pool('persister');
    const receivers = pool('receiver');
    try {
      const out = await persisters.client.request({ URI: base });
      const outcome = await new Promise<string>((resolve, reject) =>
        out.transmit.put(Message.text('via jms pool', { n: '1' }), (_m, o) => resolve(o)).catch(reject),
      );
      const inHandle = await receivers.client.request({ URI: `${base}&Mode=daemon` });
      const got = drain(inHandle.transmit);
      await waitFor(() => got.received.length === 1, 'the message through the pooled receiver', 15_000);
      got.detach();
      expect({
        persister: out.className,
        receiver: inHandle.className,
        outcome,
        body: got.received[0].bodyText(),
        n: got.received[0].properties.get('n'),
      }).toEqual({
        persister: 'persister.JMSPersister',
        receiver: 'receiver.JMSReceiver',
        outcome: 'done',
        body: 'via jms pool',
        n: '1',
      });
    } finally {
      await persisters.h.stop();
      await receivers.h.stop();
      await deleteQueue(queue);
    }
  });
});
