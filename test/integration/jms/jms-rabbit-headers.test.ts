/**
 * JMSSubscriber (Dialect rabbitmq) on a topic that AMQP 0-9-1 and AMQP 1.0 clients both publish to: the 0-9-1
 * headers arrive as JMS properties of their own types, the selector applies to both kinds of message, and
 * nothing is lost or delivered twice, also for a durable subscription across an xroute restart.
 */
import * as amqplib from 'amqplib';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { Harness, waitFor } from '../../support/component-harness';
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';
import { ComponentConfig } from '../../../src/runtime/component';
import { splitObjects } from '../../../src/transports/amqp10-dialect';
import rhea = require('rhea');
import { closeRheaConnection, Drain, listQueueNames, publishAmqp10, RABBIT, withRabbitChannel } from '../../support/amqp10-test-client';
import { Kit, unique } from './jms-queue-kit';
import { AmqpMessage } from '../../../src/transports/amqp10-mapping';

jest.setTimeout(90_000);

const kit = new Kit();
/** Subscription queues whose split (queues and exchanges) the test removes afterwards. */
const subscriptions: string[] = [];

afterEach(async () => {
  await kit.cleanup();
  for (const q of subscriptions.splice(0)) {
    const { queues, exchanges } = splitObjects(q);
    await withRabbitChannel(async (ch) => {
      for (const name of queues) await ch.deleteQueue(name);
      for (const name of exchanges) await ch.deleteExchange(name);
    }).catch(() => undefined);
  }
});

/** A JMSSubscriber with Dialect rabbitmq, and a consumer that finishes every message at once. */
function start(config: ComponentConfig, capacity = 64): { h: Harness; out: XQueue<Message>; d: Drain } {
  const { h, q: out } = kit.start(JMS_SUBSCRIBER, { Mode: 'daemon', Dialect: 'rabbitmq', ...config }, { capacity });
  return { h, out, d: kit.collect(out) };
}

async function relaying(h: Harness): Promise<void> {
  await waitFor(
    () => h.logs.some((l) => l.message === 'subscribed') && h.logs.some((l) => l.message === 'header relay running'),
    `${h.env.name} subscribed and relaying`,
    15_000,
  );
}

interface Published {
  readonly id: string;
  readonly colour: string;
  readonly size: number;
}

/** Publishes over AMQP 0-9-1 (amqplib, confirmed) to amq.topic. */
async function publishRaw091(key: string, messages: readonly { body: string; options: amqplib.Options.Publish }[]): Promise<void> {
  const conn = await amqplib.connect(`amqp://guest:guest@${RABBIT.host}:${RABBIT.port}`);
  try {
    const ch = await conn.createConfirmChannel();
    for (const m of messages) ch.publish('amq.topic', key, Buffer.from(m.body), m.options);
    await ch.waitForConfirms();
  } finally {
    await conn.close();
  }
}

/** Publishes over AMQP 0-9-1 with headers colour and size (an integer). */
async function publish091(key: string, messages: readonly Published[]): Promise<void> {
  await publishRaw091(
    key,
    messages.map((m) => ({ body: m.id, options: { messageId: m.id, deliveryMode: 2, headers: { colour: m.colour, size: m.size } } })),
  );
}

async function publish10(key: string, messages: readonly Published[]): Promise<void> {
  await publishAmqp10(
    `/exchange/amq.topic/${key}`,
    messages.map((m) => ({ body: m.id, message_id: m.id, durable: true, application_properties: { colour: m.colour, size: m.size } })),
  );
}

/** The issue's case: 120 messages, 40 red, 32 of them with size > 2. */
function issueBatch(prefix: string): Published[] {
  return Array.from({ length: 120 }, (_, i) => ({
    id: `${prefix}-${i}`,
    colour: i % 3 === 0 ? 'red' : i % 3 === 1 ? 'blue' : 'green',
    size: i % 3 === 0 ? ((i / 3) % 5) + 2 : i % 7,
  }));
}

/** 30 messages, 15 red, 9 of them with size > 2. */
function amqp10Batch(prefix: string): Published[] {
  return Array.from({ length: 30 }, (_, i) => ({ id: `${prefix}-${i}`, colour: i % 2 === 0 ? 'red' : 'blue', size: (i % 5) + 1 }));
}

const SELECTOR = "colour = 'red' AND size > 2";
const selected = (ms: readonly Published[]) => ms.filter((m) => m.colour === 'red' && m.size > 2).map((m) => m.id);

/** sent / selected / received / lost / duplicated, by message id. */
function tally(sent: readonly Published[], received: readonly Message[]) {
  const want = new Set(selected(sent));
  const ids = received.map((m) => m.headers.JMSMessageID ?? '');
  const distinct = new Set(ids);
  return {
    sent: sent.length,
    selected: want.size,
    received: ids.length,
    lost: [...want].filter((id) => !distinct.has(id)).length,
    duplicated: ids.length - distinct.size,
    unexpected: [...distinct].filter((id) => !want.has(id)).length,
  };
}

describe('JMSSubscriber on RabbitMQ: properties of AMQP 0-9-1 and AMQP 1.0 publishers', () => {
  it('selects by 0-9-1 headers and 1.0 application properties alike, with nothing lost or duplicated', async () => {
    const topic = unique('props');
    const clientId = unique('props');
    subscriptions.push(`${clientId}.sel`);
    const { h, d } = start({ Name: 'props', TopicName: topic, ClientID: clientId, SubscriptionID: 'sel', MessageSelector: SELECTOR });
    await relaying(h);
    const over091 = issueBatch('a091');
    const over10 = amqp10Batch('a10');
    await publish091(topic, over091);
    await publish10(topic, over10);
    const sent = [...over091, ...over10];
    await waitFor(
      () => h.status.get().counters.received === sent.length,
      () => `all ${sent.length} received (${JSON.stringify(h.status.get().counters)})`,
      30_000,
    );
    await waitFor(() => d.received.length >= 41, 'the 41 selected ones');
    await new Promise((r) => setTimeout(r, 300)); // a duplicate would arrive now
    const counts = tally(sent, d.received);
    console.log(`0-9-1 + 1.0 selector: ${JSON.stringify({ ...counts, relayed: h.status.get().counters.relayed, filtered: h.status.get().counters.filtered })}`);
    expect(counts).toEqual({ sent: 150, selected: 41, received: 41, lost: 0, duplicated: 0, unexpected: 0 });
    expect({ over091: selected(over091).length, over10: selected(over10).length, relayed: h.status.get().counters.relayed }).toEqual({
      over091: 32,
      over10: 9,
      relayed: 120,
    });
  });

  it('gives the rules downstream the 0-9-1 headers as properties, numbers as their number text', async () => {
    const topic = unique('types');
    const clientId = unique('types');
    subscriptions.push(`${clientId}.t`);
    const { h, d } = start({
      Name: 'types',
      TopicName: topic,
      ClientID: clientId,
      SubscriptionID: 't',
      MessageSelector: 'size > 2 AND ratio < 2 AND urgent AND big > 4000000000',
    });
    await relaying(h);
    await publishRaw091(topic, [
      {
        body: 'typed',
        options: {
          messageId: 'typed-1',
          type: 'order',
          timestamp: 1_700_000_000,
          contentType: 'text/plain',
          headers: { colour: 'red', size: 3, ratio: 1.5, urgent: true, big: 5_000_000_000 },
        },
      },
      { body: 'size-as-text', options: { messageId: 'text-9', headers: { size: '9', ratio: 1.5, urgent: true, big: 5_000_000_000 } } },
    ]);
    await waitFor(
      () => h.status.get().counters.received === 2 && d.received.length === 1,
      () => `both received, one taken (${JSON.stringify(h.status.get().counters)})`,
    );
    const m = d.received[0];
    expect({
      received: d.received.map((x) => x.headers.JMSMessageID),
      headers: { id: m.headers.JMSMessageID, type: m.headers.JMSType, timestamp: m.headers.JMSTimestamp, destination: m.headers.JMSDestination },
      properties: Object.fromEntries(m.properties),
      body: m.bodyText(),
    }).toEqual({
      received: ['typed-1'], // size '9' is a string: not > 2 in a JMS selector
      headers: { id: 'typed-1', type: 'order', timestamp: 1_700_000_000_000, destination: topic },
      properties: { colour: 'red', size: '3', ratio: '1.5', urgent: 'true', big: '5000000000', RMQ_Exchange: 'amq.topic', RMQ_RoutingKey: topic },
      body: 'typed',
    });
  });

  it('keeps a durable selected subscription across an xroute restart, from both kinds of publisher', async () => {
    const topic = unique('restart');
    const clientId = unique('restart');
    subscriptions.push(`${clientId}.dur`);
    const config = { Name: 'dur', TopicName: topic, ClientID: clientId, SubscriptionID: 'dur', MessageSelector: SELECTOR };
    const first = start(config);
    await relaying(first.h);
    const online = [...issueBatch('on091'), ...amqp10Batch('on10')];
    await publish091(topic, online.slice(0, 120));
    await publish10(topic, online.slice(120));
    await waitFor(() => first.d.received.length === 41 && first.out.stats().totalRemoved === 41, 'the 41 online messages done');
    await kit.stop(first.h);
    const offline = [...issueBatch('off091'), ...amqp10Batch('off10')];
    await publish091(topic, offline.slice(0, 120));
    await publish10(topic, offline.slice(120));
    const second = start(config);
    await waitFor(
      () => second.d.received.length >= 41,
      () => `the 41 offline messages (${second.d.received.length})`,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    const counts = tally([...online, ...offline], [...first.d.received, ...second.d.received]);
    console.log(`durable across restart: ${JSON.stringify({ ...counts, online: first.d.received.length, offline: second.d.received.length })}`);
    expect(counts).toEqual({ sent: 300, selected: 82, received: 82, lost: 0, duplicated: 0, unexpected: 0 });
  });

  it('redelivers a relayed message that downstream failed (FailedOutcome release) with its properties, and finishes each once', async () => {
    const topic = unique('redeliver');
    const clientId = unique('redeliver');
    subscriptions.push(`${clientId}.re`);
    const { h, q: out } = kit.start(
      JMS_SUBSCRIBER,
      {
        Mode: 'daemon',
        Dialect: 'rabbitmq',
        Name: 're',
        TopicName: topic,
        ClientID: clientId,
        SubscriptionID: 're',
        MessageSelector: SELECTOR,
        FailedOutcome: 'release',
        RedeliveryDelay: '50,200',
      },
      { capacity: 16 },
    );
    // downstream fails the first attempt of every message and finishes the second
    const attempts: { id: string; size?: string }[] = [];
    const handle = out.attach('fail-once', () => setImmediate(pull));
    function pull(): void {
      for (let t: Taken<Message> | undefined = out.take(handle); t; t = out.take(handle)) {
        const id = t.item.headers.JMSMessageID ?? '';
        const first = !attempts.some((a) => a.id === id);
        attempts.push({ id, size: t.item.properties.get('size') });
        out.remove(t, first ? 'failed' : 'done', first ? 'test downstream fails the first attempt' : undefined);
      }
    }
    await relaying(h);
    const sent = issueBatch('re').slice(0, 30); // 10 red, 8 of them selected
    await publish091(topic, sent);
    await waitFor(
      () => h.status.get().counters.acked === 8,
      () => `8 finished (${JSON.stringify(h.status.get().counters)})`,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    out.detach(handle);
    const seconds = attempts.filter((a, i) => attempts.findIndex((b) => b.id === a.id) !== i);
    expect({
      attempts: attempts.length,
      distinct: new Set(attempts.map((a) => a.id)).size,
      secondsWithSize: seconds.every((a) => a.size !== undefined && Number(a.size) > 2),
      counters: { acked: h.status.get().counters.acked, redeliveries: h.status.get().counters.redeliveries },
    }).toEqual({ attempts: 16, distinct: 8, secondsWithSize: true, counters: { acked: 8, redeliveries: 8 } });
  });

  it('moves a durable subscription queue of an earlier xroute (bound straight to the topic) onto the split, without delivering twice', async () => {
    const topic = unique('upgrade');
    const clientId = unique('upgrade');
    const queue = `${clientId}.up`;
    subscriptions.push(queue);
    await withRabbitChannel(async (ch) => {
      await ch.assertQueue(queue, { durable: true });
      await ch.bindQueue(queue, 'amq.topic', topic);
    });
    await publish091(topic, [{ id: 'before-upgrade', colour: 'red', size: 5 }]); // waits in the old queue, without headers on the way out
    const { h, d } = start({ Name: 'up', TopicName: topic, ClientID: clientId, SubscriptionID: 'up' });
    await relaying(h);
    const after = issueBatch('after');
    await publish091(topic, after);
    await waitFor(
      () => d.received.length >= 121,
      () => `121 messages (${d.received.length})`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const ids = d.received.map((m) => m.headers.JMSMessageID);
    const withHeaders = d.received.filter((m) => m.properties.get('colour') !== undefined).length;
    expect({ received: ids.length, distinct: new Set(ids).size, first: ids[0], withHeaders }).toEqual({
      received: 121,
      distinct: 121,
      first: 'before-upgrade',
      withHeaders: 120,
    });
  });

  it('leaves neither the subscription queue nor its 0-9-1 side queue behind for a non-durable subscription', async () => {
    const clientId = unique('nd');
    const { h } = start({ Name: 'nd', TopicName: unique('nd'), ClientID: clientId });
    await relaying(h);
    const during = listQueueNames().filter((q) => q.includes(clientId)).length;
    await kit.stop(h);
    await waitFor(
      () => listQueueNames().filter((q) => q.includes(clientId)).length === 0,
      () => `the queues to be deleted (${listQueueNames().filter((q) => q.includes(clientId))})`,
      10_000,
    );
    expect(during).toBe(2);
  });
});

/**
 * What RabbitMQ's AMQP 1.0 plugin does at the protocol boundary, the reason for the split and the relay (if a later
 * RabbitMQ keeps 0-9-1 headers for AMQP 1.0 receivers, these fail and the relay can go).
 */
describe('RabbitMQ AMQP 1.0 plugin at the protocol boundary (the premise of the header relay)', () => {
  async function viaQueue<T>(work: (queue: string) => Promise<T>): Promise<T> {
    const queue = unique('boundary');
    await withRabbitChannel(async (ch) => {
      await ch.assertQueue(queue, { durable: false });
      await ch.bindQueue(queue, 'amq.topic', queue);
    });
    try {
      return await work(queue);
    } finally {
      await withRabbitChannel(async (ch) => {
        await ch.deleteQueue(queue);
      }).catch(() => undefined);
    }
  }

  it('hands an AMQP 1.0 receiver a message published over AMQP 0-9-1 without its headers', async () => {
    const received = await viaQueue(async (queue) => {
      await publishRaw091(queue, [{ body: 'x', options: { headers: { colour: 'red', size: 3 } } }]);
      return receiveOne10(queue);
    });
    expect({ applicationProperties: received.application_properties, annotations: received.message_annotations }).toEqual({
      applicationProperties: undefined,
      annotations: undefined,
    });
  });

  it('hands an AMQP 0-9-1 consumer the application properties of an AMQP 1.0 message only as a binary header that amqplib decodes as lossy text', async () => {
    const headers = await viaQueue(async (queue) => {
      await publish10(queue, [{ id: 'p', colour: 'red', size: 3 }]);
      return withRabbitChannel(async (ch) => {
        for (let i = 0; i < 100; i++) {
          const m = await ch.get(queue, { noAck: true });
          if (m) return m.properties.headers ?? {};
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error('no message');
      });
    });
    const packed = String(headers['x-amqp-1.0-app-properties']);
    expect({ colourHeader: headers.colour, packedIsText: typeof headers['x-amqp-1.0-app-properties'], lossy: packed.includes('\ufffd') }).toEqual({
      colourHeader: undefined,
      packedIsText: 'string',
      lossy: true,
    });
  });
});

/** The first message of `queue`, received over AMQP 1.0 (rhea). */
async function receiveOne10(queue: string): Promise<AmqpMessage> {
  const conn = rhea.create_container().connect({ host: RABBIT.host, port: RABBIT.port, username: 'guest', password: 'guest', reconnect: false });
  try {
    return await new Promise<AmqpMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nothing from ${queue} in 10 s`)), 10_000);
      conn.open_receiver({ source: { address: `/amq/queue/${queue}` } }).on('message', (ctx) => {
        clearTimeout(timer);
        resolve(ctx.message as unknown as AmqpMessage);
      });
    });
  } finally {
    await closeRheaConnection(conn);
  }
}
