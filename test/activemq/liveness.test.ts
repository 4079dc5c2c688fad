/**
 * Liveness of the AMQP 1.0 connection on ActiveMQ (docs/operations.md#liveness-of-broker-connections). The
 * broker at ACTIVEMQ_URL is only used: the silent partition is cut in a TcpProxy of this test between the
 * JMSReceiver and the broker, while a JMSPersister publishes straight to the broker all along.
 */
import { JMS_PERSISTER } from '../../actors/persisters/jms-persister';
import { JMS_RECEIVER } from '../../actors/receivers/jms-receiver';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../src/transports/amqp10-connection';
import { Message } from '../../src/message/message';
import { describeRun, quietWatch, runPartition } from '../support/partition-kit';
import { TcpProxy } from '../support/tcp-proxy';
import { ACTIVEMQ, Kit, unique } from './activemq-kit';

jest.setTimeout(120_000);

const CUT_MS = 15_000;
const kit = new Kit();
afterEach(() => kit.cleanup());

it('keeps a receiver on a quiet queue connected for three times its IdleTimeout: the broker empty frames count as traffic', async () => {
  const { h } = kit.start(JMS_RECEIVER, { Name: 'quiet', QueueName: unique('xroute.quiet'), Mode: 'daemon', IdleTimeout: '1000' });
  expect(await quietWatch(h.status, 3_000)).toEqual({ statuses: ['RUNNING'], reconnects: 0 });
});

it('turns not ready within the default IdleTimeout + 2 s of a silent cut, reconnects, loses nothing and logs the outage from the last traffic', async () => {
  const queue = unique('xroute.partition');
  const proxy = await TcpProxy.start({ host: ACTIVEMQ.host, port: ACTIVEMQ.port });
  const { q: input } = kit.start(JMS_PERSISTER, { Name: 'feed', QueueName: queue });
  try {
    const r = await runPartition({
      proxy,
      cutMs: CUT_MS,
      receiver: {
        ClassName: 'receiver.JMSReceiver',
        URI: `amqp://127.0.0.1:${proxy.port}`,
        Username: ACTIVEMQ.username,
        Password: ACTIVEMQ.password,
        QueueName: queue,
        Mode: 'daemon',
        XAMode: '1',
        ReconnectBackoff: '100,500',
      },
      publish: async (i) => {
        await input.put(Message.text(String(i)));
      },
    });
    console.log(describeRun('AMQP 1.0 (ActiveMQ) silent partition', r));
    expect(r.detectionMs).toBeLessThanOrEqual(DEFAULT_IDLE_TIMEOUT_MS + 2_000);
    expect(r.lost).toBe(0);
    expect(Math.abs((r.outageMs ?? 0) - r.cutMs)).toBeLessThanOrEqual(r.cutMs * 0.1);
  } finally {
    await proxy.close();
  }
});
