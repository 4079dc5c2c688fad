/**
 * The pools hand out the JMS classes for amqp://…?ConnectionFactoryName=…, here on a real ActiveMQ: a pooled
 * JMSPersister puts on a queue that a pooled JMSReceiver gets from, and a pooled JMSPublisher publishes to a
 * topic that a pooled JMSSubscriber (durable, selected) receives from.
 */
import { Message } from '../../src/message/message';
import { Outcome, XQueue } from '../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../support/component-harness';
import { defaultRegistry } from '../../actors/index';
import { PERSISTER_POOL } from '../../actors/pools/persister-pool';
import { RECEIVER_POOL } from '../../actors/pools/receiver-pool';
import { PoolClient } from '../../actors/pools/pool-client';
import { drain } from '../support/amqp10-test-client';
import { ACTIVEMQ, unique, unsubscribe } from './activemq-kit';

jest.setTimeout(60_000);

const pools: Harness[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((h) => h.stop()));
});

function pool(kind: 'persister' | 'receiver'): PoolClient {
  const input = new XQueue<Message>(`${kind}_pool`, 16);
  const h = runComponent(kind === 'persister' ? PERSISTER_POOL : RECEIVER_POOL, { config: { Name: `${kind}_pool` }, input, registry: defaultRegistry() });
  pools.push(h);
  return new PoolClient(input);
}

const base = `amqp://${ACTIVEMQ.username}:${ACTIVEMQ.password}@${ACTIVEMQ.host}:${ACTIVEMQ.port}/?ConnectionFactoryName=activemq`;

function put(q: XQueue<Message>, messages: Message[]): Promise<Outcome[]> {
  return Promise.all(messages.map((m) => new Promise<Outcome>((resolve, reject) => q.put(m, (_m, o) => resolve(o)).catch(reject))));
}

describe('pooled JMS children on ActiveMQ', () => {
  it('puts 50 messages through a pooled JMSPersister on a queue and gets them through a pooled JMSReceiver in order', async () => {
    const queue = unique('pooled-q');
    const persisters = pool('persister');
    const receivers = pool('receiver');
    const out = await persisters.request({ URI: `${base}&QueueName=${queue}` });
    const sent = Array.from({ length: 50 }, (_, i) => Message.text(`q${i}`, { n: String(i) }));
    const outcomes = await put(out.transmit, sent);
    const inHandle = await receivers.request({ URI: `${base}&QueueName=${queue}&Mode=daemon&XAMode=1` });
    const got = drain(inHandle.transmit);
    try {
      await waitFor(() => got.received.length === 50, 'the 50 messages through the pooled receiver', 20_000);
    } finally {
      got.detach();
    }
    expect({
      persister: out.className,
      receiver: inHandle.className,
      done: outcomes.filter((o) => o === 'done').length,
      bodies: got.received.map((m) => m.bodyText()),
      n7: got.received[7].properties.get('n'),
    }).toEqual({
      persister: 'persister.JMSPersister',
      receiver: 'receiver.JMSReceiver',
      done: 50,
      bodies: sent.map((m) => m.bodyText()),
      n7: '7',
    });
  });

  it('publishes through a pooled JMSPublisher to a topic that a pooled durable JMSSubscriber receives selected', async () => {
    const topic = unique('pooled-t');
    const clientId = unique('pooled');
    const receivers = pool('receiver');
    const persisters = pool('persister');
    const inHandle = await receivers.request({
      URI: `${base}&TopicName=${topic}&Mode=daemon&ClientID=${clientId}&SubscriptionID=pooled&MessageSelector=colour = 'red'`,
    });
    const got = drain(inHandle.transmit);
    try {
      await waitFor(() => inHandle.status().component === 'RUNNING', 'the pooled subscriber subscribed', 20_000);
      const out = await persisters.request({ URI: `${base}&TopicName=${topic}` });
      const outcomes = await put(
        out.transmit,
        ['red', 'blue', 'red', 'green', 'red'].map((colour, i) => Message.text(`${colour}-${i}`, { colour })),
      );
      await waitFor(() => got.received.length === 3, 'the three red messages', 20_000);
      await new Promise((r) => setTimeout(r, 300));
      expect({ publisher: out.className, subscriber: inHandle.className, outcomes, bodies: got.received.map((m) => m.bodyText()) }).toEqual({
        publisher: 'persister.JMSPublisher',
        subscriber: 'receiver.JMSSubscriber',
        outcomes: ['done', 'done', 'done', 'done', 'done'],
        bodies: ['red-0', 'red-2', 'red-4'],
      });
    } finally {
      got.detach();
      await Promise.all(pools.splice(0).map((h) => h.stop()));
      await unsubscribe(ACTIVEMQ, clientId, 'pooled');
    }
  });
});
