/**
 * Fault test: a silent partition (a proxy that stops forwarding, no FIN or RST) between an AmqpReceiver and
 * the system RabbitMQ (only used: the cut is in the proxy of this test), with its Heartbeat left at the
 * default and set shorter. Messages are published straight to the broker all along. The flow must turn not ready within
 * the Heartbeat + 2 s, reconnect by itself when the path is back, lose nothing, and log the outage from the
 * last traffic (within 10 % of the cut's length).
 */
import * as amqp from 'amqplib';
import { randomUUID } from 'crypto';
import { DEFAULT_HEARTBEAT_SECONDS } from '../../src/transports/amqp091-connection';
import { describeRun, runPartition } from '../support/partition-kit';
import { TcpProxy } from '../support/tcp-proxy';

jest.setTimeout(120_000);

const QUEUE = `xroute.partition.${randomUUID().slice(0, 8)}`;

let proxy: TcpProxy;
let publisher: amqp.ChannelModel;
let channel: amqp.ConfirmChannel;

beforeAll(async () => {
  proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5672 });
  publisher = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  channel = await publisher.createConfirmChannel();
  await channel.assertQueue(QUEUE, { durable: false });
});

afterAll(async () => {
  await channel?.deleteQueue(QUEUE).catch(() => undefined);
  await publisher?.close().catch(() => undefined);
  await proxy?.close();
});

it.each([
  ['the default Heartbeat', {}, DEFAULT_HEARTBEAT_SECONDS, 15_000],
  ['a Heartbeat of 3 s', { Heartbeat: '3' }, 3, 10_000],
] as const)(
  'turns not ready within %s + 2 s of a silent cut, reconnects, loses nothing and logs the outage from the last traffic',
  async (_what, config, heartbeatSeconds, cutMs) => {
    const r = await runPartition({
      proxy,
      cutMs,
      receiver: {
        ClassName: 'receiver.AmqpReceiver',
        URI: `amqp://guest:guest@127.0.0.1:${proxy.port}/`,
        QueueName: QUEUE,
        XAMode: '1',
        ReconnectBackoff: '100,500',
        ...config,
      },
      publish: async (i) => {
        channel.sendToQueue(QUEUE, Buffer.from(`${heartbeatSeconds}-${i}`));
        await channel.waitForConfirms();
      },
      bodyOf: (i) => `${heartbeatSeconds}-${i}`,
    });
    console.log(describeRun(`AMQP 0-9-1 silent partition, Heartbeat ${heartbeatSeconds} s`, r));
    expect(r.detectionMs).toBeLessThanOrEqual(heartbeatSeconds * 1000 + 2_000);
    expect(r.notReadyBody).toMatch(new RegExp(`nothing received for \\d+ ms \\(limit ${heartbeatSeconds * 1000} ms, set by Heartbeat\\)`));
    expect(r.lost).toBe(0);
    expect(Math.abs((r.outageMs ?? 0) - r.cutMs)).toBeLessThanOrEqual(r.cutMs * 0.1);
  },
);
