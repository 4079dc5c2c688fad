/**
 * JMSSubscriber against RabbitMQ's AMQP 1.0 (rabbitmq_amqp1_0 on 127.0.0.1:5672, guest/guest).
 */
import { randomUUID } from 'crypto';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';
import { ComponentConfig } from '../../../src/runtime/component';
import { DEFAULT_POLICY } from '../../../src/runtime/supervision-policy';
import { Drain, deleteQueue, drain, listQueueNames, publishAmqp10, queueInfo, RABBIT_URI } from '../../support/amqp10-test-client';

jest.setTimeout(60_000);

const running: Harness[] = [];
const drains: Drain[] = [];
const queuesToDelete: string[] = [];

afterEach(async () => {
  for (const d of drains.splice(0)) d.detach();
  await Promise.all(running.splice(0).map((h) => h.stop()));
  for (const q of queuesToDelete.splice(0)) await deleteQueue(q);
});

function unique(prefix: string): string {
  return `${prefix}.${randomUUID().slice(0, 8)}`;
}

function start(config: ComponentConfig, capacity = 64, policy = DEFAULT_POLICY): { h: Harness; out: XQueue<Message> } {
  const out = new XQueue<Message>(`out-${String(config.Name)}`, capacity);
  const h = runComponent(JMS_SUBSCRIBER, { config: { URI: RABBIT_URI, Username: 'guest', Password: 'guest', Mode: 'daemon', ...config }, output: out, policy });
  running.push(h);
  return { h, out };
}

function collect(out: XQueue<Message>, options: Parameters<typeof drain>[1] = {}): Drain {
  const d = drain(out, options);
  drains.push(d);
  return d;
}

async function subscribed(h: Harness): Promise<void> {
  await waitFor(() => h.logs.some((l) => l.message === 'subscribed'), `${h.env.name} subscribed (status ${JSON.stringify(h.status.get())})`, 15_000);
}

async function stopHarness(h: Harness): Promise<void> {
  const i = running.indexOf(h);
  if (i >= 0) running.splice(i, 1);
  await h.stop();
}

const bodies = (d: Drain) => d.received.map((m) => m.bodyText());

describe('JMSSubscriber on RabbitMQ AMQP 1.0', () => {
  it('delivers every message of a topic to each of two subscribers', async () => {
    const topic = unique('fanout');
    const a = start({ Name: 'fan-a', TopicName: topic });
    const b = start({ Name: 'fan-b', TopicName: topic });
    const da = collect(a.out);
    const db = collect(b.out);
    await subscribed(a.h);
    await subscribed(b.h);
    const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
    await publishAmqp10(
      `/exchange/amq.topic/${topic}`,
      sent.map((body) => ({ body })),
    );
    await waitFor(() => da.received.length === 20 && db.received.length === 20, 'both subscribers to get 20');
    expect([bodies(da), bodies(db)]).toEqual([sent, sent]);
  });

  it('maps the AMQP message onto the message model (headers, typed application properties as strings)', async () => {
    const topic = unique('mapping');
    const { h, out } = start({ Name: 'map', TopicName: topic });
    const d = collect(out);
    await subscribed(h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [
      {
        body: 'payload',
        subject: 'order',
        message_id: 'id-1',
        correlation_id: 'c-1',
        priority: 7,
        durable: true,
        reply_to: '/queue/replies',
        creation_time: 1_700_000_000_000,
        application_properties: { colour: 'red', qty: 5, ok: true },
      },
    ]);
    await waitFor(() => d.received.length === 1, 'the message');
    const m = d.received[0];
    expect({ headers: m.headers, properties: Object.fromEntries(m.properties), body: m.bodyText() }).toEqual({
      headers: {
        JMSMessageID: 'id-1',
        JMSCorrelationID: 'c-1',
        JMSType: 'order',
        JMSPriority: 7,
        JMSDeliveryMode: 2,
        JMSReplyTo: '/queue/replies',
        JMSTimestamp: 1_700_000_000_000,
        JMSDestination: topic,
      },
      properties: { colour: 'red', qty: '5', ok: 'true' },
      body: 'payload',
    });
  });

  it('yields exactly the messages its selector selects, although RabbitMQ ignores the selector filter', async () => {
    const topic = unique('selector');
    const { h, out } = start({ Name: 'sel', TopicName: topic, MessageSelector: "colour = 'red' AND qty > 2" });
    const d = collect(out);
    await subscribed(h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [
      { body: 'red-5', application_properties: { colour: 'red', qty: 5 } },
      { body: 'blue-5', application_properties: { colour: 'blue', qty: 5 } },
      { body: 'red-1', application_properties: { colour: 'red', qty: 1 } },
      { body: 'none', application_properties: {} },
      { body: 'red-9', application_properties: { colour: 'red', qty: 9 } },
      { body: 'red-string-9', application_properties: { colour: 'red', qty: '9' } },
      { body: 'last', application_properties: { colour: 'red', qty: 3 } },
    ]);
    await waitFor(() => d.received.some((m) => m.bodyText() === 'last'), 'the last selected message');
    await waitFor(() => h.status.get().counters.received === 7, 'all 7 to be received');
    expect({ selected: bodies(d), filtered: h.status.get().counters.filtered }).toEqual({ selected: ['red-5', 'red-9', 'last'], filtered: 4 });
  });

  it('stamps StringProperty on every message and drops reply-to when JMSReplyTo is empty', async () => {
    const topic = unique('stamp');
    const { h, out } = start({
      Name: 'stamp',
      TopicName: topic,
      CellID: '3',
      StringProperty: { JMSReplyTo: '', Hostname: 'host-${CellID}', JMSType: 'stamped' },
    });
    const d = collect(out);
    await subscribed(h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [{ body: 'x', reply_to: '/queue/r', subject: 'orig', application_properties: { keep: 'yes' } }]);
    await waitFor(() => d.received.length === 1, 'the message');
    const m = d.received[0];
    expect({ replyTo: m.headers.JMSReplyTo, type: m.headers.JMSType, props: Object.fromEntries(m.properties) }).toEqual({
      replyTo: undefined,
      type: 'stamped',
      props: { keep: 'yes', Hostname: 'host-3' },
    });
  });

  it('keeps the messages published while xroute is stopped for a durable subscription', async () => {
    const topic = unique('durable');
    const clientId = unique('client');
    queuesToDelete.push(`${clientId}.sub1`);
    const config = { Name: 'dur', TopicName: topic, ClientID: clientId, SubscriptionID: 'sub1' };
    const first = start(config);
    const d1 = collect(first.out);
    await subscribed(first.h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [{ body: 'online' }]);
    await waitFor(() => d1.received.length === 1, 'the online message');
    await waitFor(() => d1.received.length === 1 && first.out.stats().totalRemoved === 1, 'removal');
    await stopHarness(first.h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [{ body: 'offline-1' }, { body: 'offline-2' }, { body: 'offline-3' }]);
    const second = start(config);
    const d2 = collect(second.out);
    await waitFor(() => d2.received.length === 3, 'the three offline messages');
    expect(bodies(d2)).toEqual(['offline-1', 'offline-2', 'offline-3']);
  });

  it('leaves no queue behind on the broker for a non-durable subscription', async () => {
    const clientId = unique('nodurable');
    const { h } = start({ Name: 'nd', TopicName: unique('nd'), ClientID: clientId });
    await subscribed(h);
    // The side queue is auto-deleted once its consumer, the header relay, has come and gone; a relay stopped before
    // it ever consumed leaves it to the queue's 60 s x-expires.
    await waitFor(() => h.logs.some((l) => l.message === 'header relay running'), 'the header relay consuming its side queue', 20_000);
    const during = listQueueNames().filter((q) => q.includes(clientId));
    await stopHarness(h);
    await waitFor(() => listQueueNames().filter((q) => q.includes(clientId)).length === 0, 'the subscription queue to be deleted', 10_000);
    expect(during).toHaveLength(2); // the subscription queue and its AMQP 0-9-1 side queue (jms-rabbit-headers.test.ts)
  });

  it('grants no more credit than its XQueue has free cells when the consumer is slow', async () => {
    const topic = unique('credit');
    const clientId = unique('credit');
    queuesToDelete.push(`${clientId}.slow`);
    const { h, out } = start({ Name: 'credit', TopicName: topic, ClientID: clientId, SubscriptionID: 'slow' }, 5);
    const d = collect(out, { onTake: () => false }); // takes and never finishes
    await subscribed(h);
    await publishAmqp10(
      `/exchange/amq.topic/${topic}`,
      Array.from({ length: 50 }, (_, i) => ({ body: `c${i}` })),
    );
    await waitFor(() => d.received.length === 5, '5 messages in flight');
    await new Promise((r) => setTimeout(r, 500));
    const info = await queueInfo(`${clientId}.slow`);
    expect({ inFlight: d.received.length, leftOnBroker: info?.messageCount }).toEqual({ inFlight: 5, leftOnBroker: 45 });
  });

  it('in XAMode 1 accepts only what the downstream finished: unfinished messages come back after a crash, none lost', async () => {
    const topic = unique('xa');
    const clientId = unique('xa');
    const queue = `${clientId}.xa`;
    queuesToDelete.push(queue);
    const config = { Name: 'xa', TopicName: topic, ClientID: clientId, SubscriptionID: 'xa', XAMode: '1' };
    const first = start(config, 16);
    // downstream finishes the even messages and "crashes" (never finishes) on the odd ones
    const d1 = collect(first.out, { onTake: (m) => Number(m.bodyText()!.slice(1)) % 2 === 0 });
    await subscribed(first.h);
    const sent = Array.from({ length: 10 }, (_, i) => `x${i}`);
    await publishAmqp10(
      `/exchange/amq.topic/${topic}`,
      sent.map((body) => ({ body })),
    );
    await waitFor(() => d1.received.length === 10, 'all 10 taken');
    await waitFor(() => first.h.status.get().counters.acked === 5, '5 accepted');
    await stopHarness(first.h);
    const second = start(config, 16);
    const d2 = collect(second.out);
    await waitFor(() => d2.received.length === 5, 'the 5 unfinished messages again');
    await waitFor(() => second.h.status.get().counters.acked === 5, 'them accepted');
    const finished = [...bodies(d1).filter((b) => Number(b!.slice(1)) % 2 === 0), ...bodies(d2)].sort();
    expect({ redelivered: bodies(d2), all: finished }).toEqual({ redelivered: ['x1', 'x3', 'x5', 'x7', 'x9'], all: [...sent].sort() });
  });

  it('in XAMode 0 accepts a message as soon as it is in the XQueue', async () => {
    const topic = unique('xa0');
    const clientId = unique('xa0');
    const queue = `${clientId}.xa0`;
    queuesToDelete.push(queue);
    const config = { Name: 'xa0', TopicName: topic, ClientID: clientId, SubscriptionID: 'xa0', XAMode: '0' };
    const first = start(config, 16);
    const d1 = collect(first.out, { onTake: () => false });
    await subscribed(first.h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [{ body: 'a' }, { body: 'b' }]);
    await waitFor(() => d1.received.length === 2 && first.h.status.get().counters.acked === 2, 'both taken and accepted');
    await stopHarness(first.h);
    const info = await queueInfo(queue);
    expect(info?.messageCount).toBe(0);
  });

  it('resolves ConnectionFactoryName and TopicName in a jndi.properties file', async () => {
    const topic = unique('jndi');
    const dir = mkdtempSync(join(tmpdir(), 'xroute-jndi-'));
    writeFileSync(
      join(dir, 'jndi.properties'),
      `java.naming.factory.initial = org.apache.qpid.jms.jndi.JmsInitialContextFactory\nconnectionfactory.local = ${RABBIT_URI}\ntopic.orders = ${topic}\n`,
    );
    const out = new XQueue<Message>('out-jndi', 8);
    const h = runComponent(JMS_SUBSCRIBER, {
      config: {
        Name: 'jndi',
        URI: 'jndi.properties',
        ConnectionFactoryName: 'local',
        TopicName: 'orders',
        Principal: 'guest',
        Credentials: 'guest',
        Mode: 'daemon',
      },
      output: out,
      baseDir: dir,
    });
    running.push(h);
    const d = collect(out);
    await subscribed(h);
    await publishAmqp10(`/exchange/amq.topic/${topic}`, [{ body: 'via-jndi' }]);
    await waitFor(() => d.received.length === 1, 'the message');
    expect(bodies(d)).toEqual(['via-jndi']);
  });

  it('reports a wrong password as an authentication error that is not retried, without the password', async () => {
    const { h } = start({ Name: 'badpw', TopicName: unique('pw'), Password: 'not-the-password' }, 8, { ...DEFAULT_POLICY, strategy: 'stop' });
    await waitFor(() => h.status.status === 'FAILED', 'FAILED');
    const detail = h.status.get().detail ?? '';
    expect({
      mentionsAuth: /authentication failed for user "guest"/.test(detail),
      leaksPassword: JSON.stringify(h.logs).includes('not-the-password') || detail.includes('not-the-password'),
    }).toEqual({ mentionsAuth: true, leaksPassword: false });
  });

  it('reports an unreachable broker clearly and keeps retrying', async () => {
    const { h } = start({ Name: 'unreach', URI: 'amqp://127.0.0.1:1', TopicName: 'x' });
    await waitFor(
      () => h.status.status === 'RETRYING' && /cannot connect to amqp:\/\/127\.0\.0\.1:1: ECONNREFUSED/.test(h.status.get().detail ?? ''),
      'RETRYING with ECONNREFUSED',
    );
    await new Promise((r) => setTimeout(r, 700));
    expect({ status: h.status.status, warnedOnce: h.logs.filter((l) => l.message === 'cannot connect; retrying').length }).toEqual({
      status: 'RETRYING',
      warnedOnce: 1,
    });
  });
});
