/**
 * Fault test: 10 000 persistent messages through a durable JMSSubscriber while a private RabbitMQ node of this
 * test (with the AMQP 1.0 plugin) is restarted three times (stop_app / start_app); the system broker is not touched. Nothing may be lost; duplicates (redeliveries of messages whose
 * accept died with the connection) are allowed and counted. They are published over AMQP 0-9-1, so every one also
 * passes the header relay (side queue -> subscription queue, src/transports/rabbit-header-relay.ts).
 * Run with: npx jest --selectProjects fault test/fault/jms
 */
import { randomUUID } from 'crypto';
import * as amqplib from 'amqplib';
import { JMS_SUBSCRIBER } from '../../actors/receivers/jms-subscriber';
import { runComponent, waitFor } from '../support/component-harness';
import { XQueue } from '../../src/xqueue/xqueue';
import { Message } from '../../src/message/message';
import { drain, RABBIT, RABBIT_URI, useAmqp10Node } from '../support/amqp10-test-client';
import { PrivateRabbitMQ, startPrivateRabbitMQ } from '../support/private-rabbitmq';

jest.setTimeout(300_000);

const TOTAL = 10_000;
const RESTARTS = 3;

let node: PrivateRabbitMQ;

beforeAll(async () => {
  node = await startPrivateRabbitMQ({ plugins: ['rabbitmq_amqp1_0'] });
  useAmqp10Node(node);
});

afterAll(async () => {
  await node?.dispose(); // its queues go with it
});

/** Publishes ids [0, TOTAL) persistently on amq.topic, re-publishing an unconfirmed chunk after a broker outage. */
async function publishAll(key: string, stop: () => boolean): Promise<number> {
  let next = 0;
  let republished = 0;
  while (next < TOTAL && !stop()) {
    let conn: amqplib.ChannelModel | undefined;
    try {
      conn = await amqplib.connect(`amqp://guest:guest@${RABBIT.host}:${RABBIT.port}`);
      conn.on('error', () => undefined);
      const ch = await conn.createConfirmChannel();
      ch.on('error', () => undefined);
      while (next < TOTAL && !stop()) {
        const end = Math.min(TOTAL, next + 250);
        for (let i = next; i < end; i++) ch.publish('amq.topic', key, Buffer.from(String(i)), { persistent: true, messageId: String(i) });
        await ch.waitForConfirms();
        next = end;
        await new Promise((r) => setTimeout(r, 5));
      }
      await conn.close().catch(() => undefined);
    } catch {
      republished++;
      await conn?.close().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return republished;
}

it('loses none of 10 000 messages on a durable subscription through 3 broker restarts', async () => {
  const key = `fault.${randomUUID().slice(0, 8)}`;
  const clientId = `fault-${randomUUID().slice(0, 8)}`;
  const out = new XQueue<Message>('fault-out', 64);
  const h = runComponent(JMS_SUBSCRIBER, {
    config: {
      Name: 'fault-sub',
      URI: RABBIT_URI,
      Username: 'guest',
      Password: 'guest',
      TopicName: key,
      ClientID: clientId,
      SubscriptionID: 'fault',
      Mode: 'daemon',
      XAMode: '1',
      ReconnectBackoff: '100,1000',
    },
    output: out,
  });
  const seen = new Set<string>();
  let deliveries = 0;
  const d = drain(out, {
    onTake: (m) => {
      deliveries++;
      seen.add(m.bodyText() ?? '');
      return true;
    },
  });
  let finished = false;
  try {
    await waitFor(() => h.logs.some((l) => l.message === 'subscribed'), 'the subscription', 30_000);
    const publishing = publishAll(key, () => finished);
    for (let r = 1; r <= RESTARTS; r++) {
      await waitFor(() => seen.size >= (r * TOTAL) / (RESTARTS + 1), `${(r * TOTAL) / (RESTARTS + 1)} messages before restart ${r}`, 120_000);
      await node.stopApp();
      await new Promise((res) => setTimeout(res, 1500));
      await node.startApp();
      await waitFor(
        () => h.status.status === 'RUNNING' && h.logs.filter((l) => l.message === 'subscribed').length === r + 1,
        `resubscription after restart ${r}`,
        120_000,
      );
    }
    await publishing;
    await waitFor(() => seen.size === TOTAL, `all ${TOTAL} distinct messages (have ${seen.size})`, 180_000);
    const lost = Array.from({ length: TOTAL }, (_, i) => String(i)).filter((id) => !seen.has(id));
    console.log(
      `fault: ${TOTAL} sent, ${seen.size} distinct received, ${deliveries - seen.size} duplicates, ${h.status.get().counters.disconnects ?? 0} disconnects, ${h.status.get().counters.ackLost ?? 0} accepts lost with their link, ${h.status.get().counters.relayed ?? 0} relayed from the AMQP 0-9-1 side queue`,
    );
    expect({ lost: lost.length, disconnects: h.status.get().counters.disconnects }).toEqual({ lost: 0, disconnects: RESTARTS });
  } finally {
    finished = true;
    d.detach();
    await h.stop();
  }
});
