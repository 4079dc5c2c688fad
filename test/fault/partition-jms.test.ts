/**
 * Fault test: a silent partition (a proxy that stops forwarding, no FIN or RST) between a JMSReceiver and
 * RabbitMQ's AMQP 1.0 (a private node of this test), with IdleTimeout left at the default and set shorter. A JMSPersister
 * publishes straight to the broker all along. The flow must turn not ready within the IdleTimeout + 2 s,
 * reconnect by itself when the path is back, lose nothing, and log the outage from the last traffic (within
 * 10 % of the cut's length).
 */
import { randomUUID } from 'crypto';
import { JMS_PERSISTER } from '../../actors/persisters/jms-persister';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../src/transports/amqp10-connection';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { Harness, runComponent } from '../support/component-harness';
import { PrivateRabbitMQ, startPrivateRabbitMQ } from '../support/private-rabbitmq';
import { describeRun, runPartition } from '../support/partition-kit';
import { TcpProxy } from '../support/tcp-proxy';

jest.setTimeout(180_000);

const QUEUE = `partition-q-${randomUUID().slice(0, 8)}`;

let node: PrivateRabbitMQ;
let proxy: TcpProxy;
let feeder: Harness;
const input = new XQueue<Message>('partition-feed', 64);

beforeAll(async () => {
  node = await startPrivateRabbitMQ({ plugins: ['rabbitmq_amqp1_0'] });
  proxy = await TcpProxy.start({ host: node.host, port: node.port });
  feeder = runComponent(JMS_PERSISTER, {
    config: { Name: 'feed', URI: `amqp://${node.host}:${node.port}`, Username: 'guest', Password: 'guest', QueueName: QUEUE },
    input,
  });
});

afterAll(async () => {
  await feeder?.stop();
  await proxy?.close();
  await node?.dispose(); // its queues go with it
});

it.each([
  ['the default IdleTimeout', {}, DEFAULT_IDLE_TIMEOUT_MS, 15_000],
  ['an IdleTimeout of 3000 ms', { IdleTimeout: '3000' }, 3000, 10_000],
] as const)(
  'turns not ready within %s + 2 s of a silent cut, reconnects, loses nothing and logs the outage from the last traffic',
  async (_what, config, idleTimeoutMs, cutMs) => {
    const r = await runPartition({
      proxy,
      cutMs,
      receiver: {
        ClassName: 'receiver.JMSReceiver',
        URI: `amqp://127.0.0.1:${proxy.port}`,
        Username: 'guest',
        Password: 'guest',
        QueueName: QUEUE,
        Mode: 'daemon',
        XAMode: '1',
        ReconnectBackoff: '100,500',
        ...config,
      },
      publish: async (i) => {
        await input.put(Message.text(`${idleTimeoutMs}-${i}`));
      },
      bodyOf: (i) => `${idleTimeoutMs}-${i}`,
    });
    console.log(describeRun(`AMQP 1.0 (RabbitMQ) silent partition, IdleTimeout ${idleTimeoutMs} ms`, r));
    expect(r.detectionMs).toBeLessThanOrEqual(idleTimeoutMs + 2_000);
    expect(r.notReadyBody).toMatch(new RegExp(`nothing received for \\d+ ms \\(limit ${idleTimeoutMs} ms, set by IdleTimeout\\)`));
    expect(r.lost).toBe(0);
    expect(Math.abs((r.outageMs ?? 0) - r.cutMs)).toBeLessThanOrEqual(r.cutMs * 0.1);
  },
);
