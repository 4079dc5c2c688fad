/**
 * AmqpPersister against the real RabbitMQ: confirmed publishing, templated routing keys, the return and
 * nack policies, passive checks, and the AMQP mapping round trip through persister and receiver.
 */
import { AMQP_PERSISTER } from '../../../actors/persisters/amqp-persister';
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { ComponentConfig } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { messageFromJson, messageToJson } from '../../../src/message/json-form';
import { Outcome, XQueue } from '../../../src/xqueue/xqueue';
import { Harness, harnessesStoppedAfterEach, runComponent, waitFor } from '../../support/component-harness';
import { adminForFile, TestConsumer, uniqueName } from './amqp-kit';
import { TcpProxy } from '../../support/tcp-proxy';

jest.setTimeout(60_000);

const admin = adminForFile();
const harnesses = harnessesStoppedAfterEach();

const BASE = { Name: 'pstr_test', ClassName: 'org.qbroker.persister.RMQPersister', URI: 'amqp://guest:guest@127.0.0.1/', Operation: 'pub' };

function start(config: Record<string, unknown>, capacity = 100): { h: Harness; input: XQueue<Message>; outcomes: Outcome[] } {
  const input = new XQueue<Message>('root', capacity);
  const h = runComponent(AMQP_PERSISTER, { config: { ...BASE, ...config } as ComponentConfig, input });
  harnesses.push(h);
  return { h, input, outcomes: [] };
}

function feed(input: XQueue<Message>, outcomes: Outcome[], messages: Message[]): void {
  for (const m of messages) {
    if (input.offer(m, (_m, outcome) => outcomes.push(outcome)) < 0) throw new Error('input full');
  }
}

describe('publishing', () => {
  it('publishes every message with a fixed routing key and removes it once confirmed', async () => {
    const q = await admin().queue(uniqueName('fixed'));
    const { input, outcomes, h } = start({ RoutingKey: q });
    feed(
      input,
      outcomes,
      Array.from({ length: 50 }, (_, i) => Message.text(`m${i}`)),
    );
    await waitFor(() => outcomes.length === 50, '50 outcomes');
    expect(outcomes.every((o) => o === 'done')).toBe(true);
    expect(input.stats()).toMatchObject({ size: 0, totalRemoved: 50 });
    expect(h.status.get().counters.confirmed).toBe(50);
    const got = await admin().drain(q);
    expect(got.map((m) => m.content.toString())).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
  });

  it('routes by a ##field## routing key template', async () => {
    const x = await admin().exchange(uniqueName('tmpl'), 'direct');
    const eu = await admin().queue(uniqueName('eu'));
    const us = await admin().queue(uniqueName('us'));
    await admin().ch.bindQueue(eu, x, 'orders.eu');
    await admin().ch.bindQueue(us, x, 'orders.us');
    const { input, outcomes } = start({ ExchangeName: x, RoutingKey: 'orders.##Region##' });
    feed(input, outcomes, [Message.text('1', { Region: 'eu' }), Message.text('2', { Region: 'us' }), Message.text('3', { Region: 'eu' })]);
    await waitFor(() => outcomes.length === 3, 'three outcomes');
    expect((await admin().drain(eu)).map((m) => m.content.toString())).toEqual(['1', '3']);
    expect((await admin().drain(us)).map((m) => m.content.toString())).toEqual(['2']);
  });

  it('removes a message from its XQueue only when the broker already holds it', async () => {
    const q = await admin().queue(uniqueName('pending'));
    const { input } = start({ RoutingKey: q });
    const seenByBroker: Promise<number>[] = [];
    input.offer(Message.text('one'), () =>
      seenByBroker.push(
        admin()
          .ch.checkQueue(q)
          .then((r) => r.messageCount),
      ),
    );
    await waitFor(() => seenByBroker.length === 1, 'removal');
    expect(await seenByBroker[0]).toBe(1);
  });
});

describe('publish failures', () => {
  it('removes an unroutable message as failed (ReturnPolicy fail)', async () => {
    const x = await admin().exchange(uniqueName('noroute'), 'direct');
    const { input, outcomes, h } = start({ ExchangeName: x, RoutingKey: 'nowhere' });
    feed(input, outcomes, [Message.text('lost?')]);
    await waitFor(() => outcomes.length === 1, 'outcome');
    expect(outcomes).toEqual(['failed']);
    expect(h.status.get().counters.returned).toBe(1);
  });

  it('drops an unroutable message with an error log (ReturnPolicy drop)', async () => {
    const x = await admin().exchange(uniqueName('drop'), 'direct');
    const { input, outcomes, h } = start({ ExchangeName: x, RoutingKey: 'nowhere', ReturnPolicy: 'drop' });
    feed(input, outcomes, [Message.text('dropped', {}, { JMSMessageID: 'm-drop' })]);
    await waitFor(() => outcomes.length === 1, 'outcome');
    expect(outcomes).toEqual(['done']);
    expect(h.logs.some((l) => l.level === 'error' && /unroutable/.test(l.message) && l.meta.messageId === 'm-drop')).toBe(true);
  });

  it('publishes an unroutable message again until it can be routed (ReturnPolicy retry)', async () => {
    const x = await admin().exchange(uniqueName('retry'), 'direct');
    const { input, outcomes, h } = start({ ExchangeName: x, RoutingKey: 'later', ReturnPolicy: 'retry', RetryDelay: '100' });
    feed(input, outcomes, [Message.text('eventually')]);
    await waitFor(() => (h.status.get().counters.returned ?? 0) >= 1, 'first return');
    const q = await admin().queue(uniqueName('late'));
    await admin().ch.bindQueue(q, x, 'later');
    await waitFor(() => outcomes.length === 1, 'outcome');
    expect(outcomes).toEqual(['done']);
    expect((await admin().drain(q)).map((m) => m.content.toString())).toEqual(['eventually']);
  });

  it('follows NackPolicy when the broker nacks a publish (queue full, reject-publish)', async () => {
    const q = await admin().queue(uniqueName('full'), { durable: false, maxLength: 1, arguments: { 'x-overflow': 'reject-publish' } });
    const { input, outcomes, h } = start({ RoutingKey: q, NackPolicy: 'fail', MaxInFlight: '1' });
    feed(input, outcomes, [Message.text('fits'), Message.text('rejected')]);
    await waitFor(() => outcomes.length === 2, 'two outcomes');
    expect(outcomes).toEqual(['done', 'failed']);
    expect(h.status.get().counters.nacked).toBe(1);
  });

  it('fails with a configuration error when a passive check finds no exchange', async () => {
    const x = uniqueName('absent');
    const { h } = start({ ExchangeName: x, RoutingKey: 'k' });
    await waitFor(() => h.status.get().status === 'FAILED', 'FAILED');
    expect(h.status.get().detail).toContain(`pstr_test: check of exchange "${x}" failed`);
  });

  it('declares its exchange when IsPassive is false', async () => {
    const x = admin().track('exchange', uniqueName('declared'));
    const { h } = start({ ExchangeName: x, ExchangeType: 'fanout', IsPassive: 'false', IsDurable: 'false' });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await expect(admin().ch.checkExchange(x)).resolves.toBeDefined();
  });
});

describe('lifecycle', () => {
  it('closes a connection that comes up after it was stopped while connecting', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5672 });
    try {
      proxy.cut(); // the persister's connection waits at the proxy: its connect is in flight
      const { h } = start({ RoutingKey: uniqueName('late-connection'), URI: `amqp://guest:guest@127.0.0.1:${proxy.port}/` });
      await waitFor(() => proxy.heldBytes > 0, 'the persister connecting (its protocol header held at the proxy)');
      await h.stop();
      proxy.resume();
      await waitFor(() => proxy.relayed === 1, 'the held connection relayed to the broker');
      await waitFor(() => proxy.open === 0, 'the connection opened after the stop to be closed');
    } finally {
      await proxy.close();
    }
  });
});

describe('mapping round trip', () => {
  it('carries headers, properties and body from persister to receiver unchanged', async () => {
    const q = await admin().queue(uniqueName('roundtrip'));
    const original = messageFromJson({
      body: 'payload ü',
      properties: { Region: 'eu', RuleName: 'r1' },
      headers: {
        JMSMessageID: 'rt-1',
        JMSCorrelationID: 'c-1',
        JMSType: 'order',
        JMSPriority: '6',
        JMSDeliveryMode: '2',
        JMSTimestamp: '1700000000000',
        JMSReplyTo: 'answers',
      },
    });
    const { input, outcomes } = start({ RoutingKey: q });
    feed(input, outcomes, [original]);
    await waitFor(() => outcomes.length === 1, 'published');
    const out = new XQueue<Message>('root', 10);
    const rh = runComponent(AMQP_RECEIVER, { config: { Name: 'rcvr_rt', URI: 'amqp://guest:guest@127.0.0.1/', QueueName: q } as ComponentConfig, output: out });
    harnesses.push(rh);
    const consumer = new TestConsumer(out, 'done');
    await waitFor(() => consumer.seen.length === 1, 'received');
    const json = messageToJson(consumer.seen[0]);
    expect(json.body).toBe('payload ü');
    expect(json.headers).toMatchObject({ ...messageToJson(original).headers, JMSDestination: q, JMSRedelivered: 'false' });
    expect(json.properties).toMatchObject({ Region: 'eu', RuleName: 'r1' });
  });
});
