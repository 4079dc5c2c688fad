/**
 * JMSPersister (put) and JMSReceiver (get) against RabbitMQ's AMQP 1.0 (rabbitmq_amqp1_0 on 127.0.0.1:5672).
 */
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { Message } from '../../../src/message/message';
import { DEFAULT_POLICY } from '../../../src/runtime/supervision-policy';
import { waitFor } from '../../support/component-harness';
import { publishAmqp10, queueInfo, withRabbitChannel } from '../../support/amqp10-test-client';
import { Kit, attached, feed, unique } from './jms-queue-kit';

jest.setTimeout(60_000);

const kit = new Kit();
afterEach(() => kit.cleanup());

function queueName(prefix: string): string {
  const q = unique(prefix);
  kit.queues.push(q);
  return q;
}

const bodies = (ms: Message[]) => ms.map((m) => m.bodyText());

describe('JMSPersister and JMSReceiver on RabbitMQ AMQP 1.0', () => {
  it('moves messages from a persister through a queue to a receiver, keeping headers, properties and body', async () => {
    const queue = queueName('roundtrip');
    const p = kit.start(JMS_PERSISTER, { Name: 'put', QueueName: queue });
    const r = kit.start(JMS_RECEIVER, { Name: 'get', QueueName: queue, Mode: 'daemon' });
    const got = kit.collect(r.q);
    const sent = Message.text(
      'hello',
      { colour: 'red', qty: '5' },
      {
        JMSType: 'order',
        JMSCorrelationID: 'c-1',
        JMSMessageID: 'ID:m-1',
        JMSPriority: 7,
        JMSDeliveryMode: 2,
        JMSReplyTo: '/queue/replies',
        JMSTimestamp: 1_700_000_000_000,
      },
    );
    const f = feed(p.q, [sent, Message.map({ a: 1, b: 'two' }), Message.bytes(Buffer.from([1, 2, 3]))]);
    await waitFor(() => got.received.length === 3, 'the three messages');
    await f.settled;
    const [text, map, bytes] = got.received;
    expect({
      headers: text.headers,
      properties: Object.fromEntries(text.properties),
      body: text.bodyText(),
      map: map.body,
      bytes: bytes.body,
      generatedId: /^ID:xroute-/.test(map.headers.JMSMessageID ?? ''),
      outcomes: f.outcomes,
    }).toEqual({
      headers: {
        JMSMessageID: 'ID:m-1',
        JMSCorrelationID: 'c-1',
        JMSType: 'order',
        JMSPriority: 7,
        JMSDeliveryMode: 2,
        JMSReplyTo: '/queue/replies',
        JMSTimestamp: 1_700_000_000_000,
        JMSDestination: `/amq/queue/${queue}`,
      },
      properties: { colour: 'red', qty: '5' },
      body: 'hello',
      map: { kind: 'map', map: { a: 1, b: 'two' } },
      bytes: { kind: 'bytes', bytes: Buffer.from([1, 2, 3]) },
      generatedId: true,
      outcomes: ['done', 'done', 'done'],
    });
  });

  it('applies the Persistence, Priority and Expiry overrides to what it sends', async () => {
    const queue = queueName('overrides');
    const p = kit.start(JMS_PERSISTER, { Name: 'put-ovr', QueueName: queue, Persistence: '1', Priority: '8', Expiry: '60000' });
    const r = kit.start(JMS_RECEIVER, { Name: 'get-ovr', QueueName: queue, Mode: 'daemon' });
    const got = kit.collect(r.q);
    const before = Date.now();
    await feed(p.q, [Message.text('x', {}, { JMSPriority: 2, JMSDeliveryMode: 2, JMSExpiration: before + 5_000 })]).done;
    await waitFor(() => got.received.length === 1, 'the message');
    const h = got.received[0].headers;
    const ttl = (h.JMSExpiration ?? 0) - before;
    expect({ mode: h.JMSDeliveryMode, priority: h.JMSPriority, ttlAbout60s: ttl > 59_000 && ttl <= 61_000 }).toEqual({
      mode: 1,
      priority: 8,
      ttlAbout60s: true,
    });
  });

  it("keeps the message's own delivery mode, priority and remaining lifetime; an expired message gets 1 s", async () => {
    const queue = queueName('own');
    const p = kit.start(JMS_PERSISTER, { Name: 'put-own', QueueName: queue });
    const r = kit.start(JMS_RECEIVER, { Name: 'get-own', QueueName: queue, Mode: 'daemon' });
    const got = kit.collect(r.q);
    await attached(r.h, 'subscribed');
    const now = Date.now();
    await feed(p.q, [
      Message.text('own', {}, { JMSPriority: 3, JMSDeliveryMode: 1, JMSExpiration: now + 30_000 }),
      Message.text('expired', {}, { JMSExpiration: now - 10_000 }),
    ]).done;
    await waitFor(() => got.received.length === 2, 'both messages');
    const [own, expired] = got.received.map((m) => m.headers);
    const expiredTtl = (expired.JMSExpiration ?? 0) - (expired.JMSTimestamp ?? 0);
    expect({
      mode: own.JMSDeliveryMode,
      priority: own.JMSPriority,
      expiration: Math.abs((own.JMSExpiration ?? 0) - (now + 30_000)) < 1000,
      expiredGot1s: expiredTtl >= 1000 && expiredTtl < 2000,
      expiredMode: expired.JMSDeliveryMode,
    }).toEqual({
      mode: 1,
      priority: 3,
      expiration: true,
      expiredGot1s: true,
      expiredMode: 2,
    });
  });

  it('yields exactly the messages its selector selects, although RabbitMQ ignores the selector filter', async () => {
    const queue = queueName('selector');
    const r = kit.start(JMS_RECEIVER, { Name: 'get-sel', QueueName: queue, Mode: 'daemon', MessageSelector: "colour = 'red' AND qty > 2" });
    const got = kit.collect(r.q);
    await attached(r.h, 'subscribed');
    await publishAmqp10(`/amq/queue/${queue}`, [
      { body: 'red-5', application_properties: { colour: 'red', qty: 5 } },
      { body: 'blue-5', application_properties: { colour: 'blue', qty: 5 } },
      { body: 'red-1', application_properties: { colour: 'red', qty: 1 } },
      { body: 'last', application_properties: { colour: 'red', qty: 3 } },
    ]);
    // The receiver counts a message as it arrives; the collector has it a turn later.
    await waitFor(() => r.h.status.get().counters.received === 4 && got.received.length >= 2, 'all 4 received, 2 passed on');
    expect({ selected: bodies(got.received), filtered: r.h.status.get().counters.filtered }).toEqual({ selected: ['red-5', 'last'], filtered: 2 });
  });

  it('stamps StringProperty on every message and drops the reply-to when JMSReplyTo is empty', async () => {
    const queue = queueName('stamp');
    const r = kit.start(JMS_RECEIVER, {
      Name: 'get-stamp',
      QueueName: queue,
      Mode: 'daemon',
      CellID: '2',
      StringProperty: { JMSReplyTo: '', Hostname: 'h-${CellID}' },
    });
    const got = kit.collect(r.q);
    await attached(r.h, 'subscribed');
    await publishAmqp10(`/amq/queue/${queue}`, [{ body: 'x', reply_to: '/queue/r', application_properties: { keep: 'yes' } }]);
    await waitFor(() => got.received.length === 1, 'the message');
    const m = got.received[0];
    expect({ replyTo: m.headers.JMSReplyTo, props: Object.fromEntries(m.properties) }).toEqual({ replyTo: undefined, props: { keep: 'yes', Hostname: 'h-2' } });
  });

  it('in XAMode 1 accepts only what the downstream finished: the rest is redelivered to the next receiver', async () => {
    const queue = queueName('xa1');
    const first = kit.start(JMS_RECEIVER, { Name: 'get-xa1', QueueName: queue, Mode: 'daemon', XAMode: '1' }, { capacity: 16 });
    const d1 = kit.collect(first.q, { onTake: (m) => Number(m.bodyText()!.slice(1)) % 2 === 0 });
    await attached(first.h, 'subscribed');
    await publishAmqp10(
      `/amq/queue/${queue}`,
      Array.from({ length: 6 }, (_, i) => ({ body: `x${i}` })),
    );
    await waitFor(() => d1.received.length === 6 && first.h.status.get().counters.acked === 3, 'all 6 taken, 3 accepted');
    await kit.stop(first.h);
    const second = kit.start(JMS_RECEIVER, { Name: 'get-xa1b', QueueName: queue, Mode: 'daemon' }, { capacity: 16 });
    const d2 = kit.collect(second.q);
    await waitFor(() => d2.received.length === 3, 'the 3 unfinished messages');
    expect(bodies(d2.received)).toEqual(['x1', 'x3', 'x5']);
  });

  it('in XAMode 0 accepts a message as soon as it is in the XQueue', async () => {
    const queue = queueName('xa0');
    const r = kit.start(JMS_RECEIVER, { Name: 'get-xa0', QueueName: queue, Mode: 'daemon', XAMode: '0' });
    const d = kit.collect(r.q, { onTake: () => false });
    await attached(r.h, 'subscribed');
    await publishAmqp10(`/amq/queue/${queue}`, [{ body: 'a' }, { body: 'b' }]);
    await waitFor(() => d.received.length === 2 && r.h.status.get().counters.acked === 2, 'both taken and accepted');
    await kit.stop(r.h);
    expect((await queueInfo(queue))?.messageCount).toBe(0);
  });

  it('grants no more credit than its XQueue has free cells', async () => {
    const queue = queueName('credit');
    const r = kit.start(JMS_RECEIVER, { Name: 'get-credit', QueueName: queue, Mode: 'daemon' }, { capacity: 4 });
    const d = kit.collect(r.q, { onTake: () => false });
    await attached(r.h, 'subscribed');
    await publishAmqp10(
      `/amq/queue/${queue}`,
      Array.from({ length: 30 }, (_, i) => ({ body: `c${i}` })),
    );
    await waitFor(() => d.received.length === 4, '4 in flight');
    await new Promise((res) => setTimeout(res, 400));
    expect({ inFlight: d.received.length, leftOnBroker: (await queueInfo(queue))?.messageCount }).toEqual({ inFlight: 4, leftOnBroker: 26 });
  });

  it('stops after ReceiveTime ms without a message when Mode is not daemon', async () => {
    const queue = queueName('nondaemon');
    await withRabbitChannel(async (ch) => void (await ch.assertQueue(queue, { durable: true })));
    await publishAmqp10(`/amq/queue/${queue}`, [{ body: 'one' }, { body: 'two' }]);
    const r = kit.start(JMS_RECEIVER, { Name: 'get-nd', QueueName: queue, ReceiveTime: '500' });
    const d = kit.collect(r.q);
    await waitFor(() => r.h.status.status === 'STOPPED', 'STOPPED after the quiet period');
    // STOPPED comes first; the broker hears of the closed link a moment later (until then it may still hand the
    // receiver a message, which then returns to the queue)
    for (let deadline = Date.now() + 10_000; ((await queueInfo(queue))?.consumerCount ?? 0) > 0 && Date.now() < deadline;)
      await new Promise((res) => setTimeout(res, 100));
    await publishAmqp10(`/amq/queue/${queue}`, [{ body: 'after' }]);
    await new Promise((res) => setTimeout(res, 300));
    expect({ got: bodies(d.received), detail: r.h.status.get().detail, leftOnBroker: (await queueInfo(queue))?.messageCount }).toEqual({
      got: ['one', 'two'],
      detail: 'no message for 500 ms (Mode is not daemon)',
      leftOnBroker: 1,
    });
  });

  it('closes its connection after MaxIdleTime without messages and opens it again for the next one', async () => {
    const queue = queueName('idle');
    const p = kit.start(JMS_PERSISTER, { Name: 'put-idle', QueueName: queue, MaxIdleTime: '1' });
    await feed(p.q, [Message.text('before')]).done;
    await waitFor(() => p.h.status.status === 'DISABLED', 'DISABLED after 1 s idle', 5_000);
    const f = feed(p.q, [Message.text('after')]);
    await waitFor(() => f.outcomes.length === 1, 'the message after waking up');
    expect({
      outcomes: f.outcomes,
      status: p.h.status.status,
      connects: p.h.status.get().counters.connects,
      onBroker: (await queueInfo(queue))?.messageCount,
    }).toEqual({ outcomes: ['done'], status: 'RUNNING', connects: 2, onBroker: 2 });
  });

  it('reports a wrong password as an authentication error that is not retried, without the password', async () => {
    const p = kit.start(
      JMS_PERSISTER,
      { Name: 'put-badpw', QueueName: unique('pw'), Password: 'not-the-password' },
      { policy: { ...DEFAULT_POLICY, strategy: 'stop' } },
    );
    await waitFor(() => p.h.status.status === 'FAILED', 'FAILED');
    const detail = p.h.status.get().detail ?? '';
    expect({
      mentionsAuth: /authentication failed for user "guest"/.test(detail),
      leaksPassword: JSON.stringify(p.h.logs).includes('not-the-password'),
    }).toEqual({ mentionsAuth: true, leaksPassword: false });
  });

  it('reports an unreachable broker clearly, keeps retrying and keeps the messages in its XQueue', async () => {
    const p = kit.start(JMS_PERSISTER, { Name: 'put-unreach', URI: 'amqp://127.0.0.1:1', QueueName: 'x' });
    const f = feed(p.q, [Message.text('waiting')]);
    await waitFor(
      () => p.h.status.status === 'RETRYING' && /cannot connect to amqp:\/\/127\.0\.0\.1:1: ECONNREFUSED/.test(p.h.status.get().detail ?? ''),
      'RETRYING with ECONNREFUSED',
    );
    await f.done;
    expect({ status: p.h.status.status, held: p.q.size, outcomes: f.outcomes }).toEqual({ status: 'RETRYING', held: 1, outcomes: [] });
  });
});
