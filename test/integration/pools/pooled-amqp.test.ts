/** The pools hand out the AMQP classes other developers built, found in the shipped registry by class name. */
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { runComponent } from '../../support/component-harness';
import { defaultRegistry } from '../../../actors/index';
import { PERSISTER_POOL } from '../../../actors/pools/persister-pool';
import { RECEIVER_POOL } from '../../../actors/pools/receiver-pool';
import { PoolClient } from '../../../actors/pools/pool-client';
import { Admin, uniqueName } from '../amqp/amqp-kit';
import { drain } from '../../unit/pools/pool-support';

jest.setTimeout(30_000);

let admin: Admin;
beforeAll(async () => {
  admin = await Admin.open();
});
afterAll(async () => {
  await admin.cleanup();
});

function pool(kind: 'persister' | 'receiver') {
  const input = new XQueue<Message>(`${kind}_pool`, 16);
  const h = runComponent(kind === 'persister' ? PERSISTER_POOL : RECEIVER_POOL, { config: { Name: `${kind}_pool` }, input, registry: defaultRegistry() });
  return { h, client: new PoolClient(input) };
}

describe('pooled AMQP children', () => {
  it('publishes through a pooled AmqpPersister and receives through a pooled AmqpReceiver', async () => {
    const q = await admin.queue(uniqueName('pooled'));
    const persisters = pool('persister');
    const receivers = pool('receiver');
    try {
      const out = await persisters.client.request({ URI: `amqp://guest:guest@127.0.0.1/?RoutingKey=${q}` });
      expect(out.className).toBe('persister.AmqpPersister');
      await new Promise<void>((resolve, reject) => out.transmit.put(Message.text('via pool'), () => resolve()).catch(reject));
      const inHandle = await receivers.client.request({ URI: `amqp://guest:guest@127.0.0.1/?QueueName=${q}` });
      expect(inHandle.className).toBe('receiver.AmqpReceiver');
      const got = await drain(inHandle.transmit, 1, 15_000);
      expect(got[0].bodyText()).toBe('via pool');
      expect(inHandle.status().state).toBe('running');
    } finally {
      await persisters.h.stop();
      await receivers.h.stop();
    }
  });
});
