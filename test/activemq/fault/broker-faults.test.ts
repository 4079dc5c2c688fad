/**
 * Fault tests on an ActiveMQ of their own (own port and store, started with the shared scripts, never the broker
 * at ACTIVEMQ_URL): a durable selected JMSSubscriber (XAMode 1) through a broker restart and through a broker
 * kill -9, and JMSPersister → queue → JMSReceiver (XAMode 1) through a kill -9. Nothing selected may be
 * lost; duplicates (messages taken downstream whose accept died with the connection, or sends whose settlement
 * did) are allowed and counted. Each test prints its counts: sent, selected, received, lost, duplicated.
 */
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { waitFor } from '../../support/component-harness';
import { Message } from '../../../src/message/message';
import { Outcome } from '../../../src/xqueue/xqueue';
import { Kit, Tally, brokerAt, logged, publish, report, unique } from '../activemq-kit';

import { startOwnActiveMQ } from '../../support/activemq-broker';

interface OwnBroker {
  url: string;
  stop(): Promise<string>;
  kill(): Promise<string>;
  start(): Promise<string>;
  dispose(): Promise<void>;
}

jest.setTimeout(240_000);

let own: OwnBroker;
let kit: Kit;
beforeAll(async () => {
  own = await startOwnActiveMQ();
  kit = new Kit(brokerAt(own.url));
}, 180_000);
afterEach(() => kit.cleanup());
afterAll(async () => {
  await own?.dispose();
});

/** `count` messages with ids from `from`; every fourth is not selected (keep = 'no'). */
function batch(from: number, count: number) {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return { body: `m${i}`, message_id: `m${i}`, durable: true, application_properties: { keep: i % 4 === 3 ? 'no' : 'yes', n: i } };
  });
}

const selectedIds = (sent: number) =>
  Array.from({ length: sent }, (_, i) => i)
    .filter((i) => i % 4 !== 3)
    .map((i) => `m${i}`);

async function subscriberThroughOutage(outage: 'restart' | 'kill'): Promise<void> {
  const topic = unique(`fault-${outage}`);
  const clientId = unique('fault');
  const { h, q } = kit.start(
    JMS_SUBSCRIBER,
    { Name: `sub-${outage}`, TopicName: topic, ClientID: clientId, SubscriptionID: 'fault', MessageSelector: "keep = 'yes'", XAMode: '1', Mode: 'daemon' },
    { capacity: 16 },
  );
  const tally = new Tally();
  // a slow downstream (16 cells, each held 100 ms: about 160 msg/s), so that the outage hits the flow in the middle
  kit.collect(q, { holdMs: 100, onTake: (m) => (tally.add(m.bodyText() ?? ''), true) });
  await logged(h, 'subscribed');
  const PER_PHASE = 1000;
  await publish(brokerAt(own.url), `topic://${topic}`, batch(0, PER_PHASE));
  await waitFor(() => tally.distinct >= 200, '200 selected messages before the outage', 60_000);
  const receivedBefore = tally.distinct;
  if (outage === 'kill') await own.kill();
  else await own.stop();
  await own.start();
  await logged(h, 'subscribed', 2, 60_000);
  await publish(brokerAt(own.url), `topic://${topic}`, batch(PER_PHASE, PER_PHASE));
  const expected = selectedIds(2 * PER_PHASE);
  await waitFor(() => tally.distinct >= expected.length, `all ${expected.length} selected (have ${tally.distinct})`, 120_000);
  await new Promise((r) => setTimeout(r, 500)); // late redeliveries count as duplicates
  const counts = tally.counts(2 * PER_PHASE, expected);
  const c = h.status.get().counters;
  report(`JMSSubscriber durable, XAMode 1, broker ${outage === 'kill' ? 'kill -9' : 'restart'}`, counts, {
    receivedBeforeOutage: receivedBefore,
    disconnects: c.disconnects,
    ackLost: c.ackLost ?? 0,
    withdrawn: c.withdrawn ?? 0,
    filteredByXroute: c.filtered ?? 0,
  });
  expect({ lost: counts.lost, unexpected: tally.unexpected(expected), disconnects: c.disconnects }).toEqual({ lost: 0, unexpected: [], disconnects: 1 });
}

describe('ActiveMQ faults (own broker instance)', () => {
  it('loses no selected message of a durable subscription through a broker restart', async () => {
    await subscriberThroughOutage('restart');
  });

  it('loses no selected message of a durable subscription through a broker kill -9', async () => {
    await subscriberThroughOutage('kill');
  });

  it('loses no message from JMSPersister through a queue to JMSReceiver (XAMode 1) through a broker kill -9', async () => {
    const queue = unique('fault-q');
    const TOTAL = 2000;
    const p = kit.start(JMS_PERSISTER, { Name: 'put-kill', QueueName: queue, Persistence: '2' }, { capacity: 256 });
    const r = kit.start(JMS_RECEIVER, { Name: 'get-kill', QueueName: queue, XAMode: '1', Mode: 'daemon' }, { capacity: 16 });
    const tally = new Tally();
    kit.collect(r.q, { holdMs: 1, onTake: (m) => (tally.add(m.bodyText() ?? ''), true) });
    const outcomes = new Map<Outcome, number>();
    const feeding = (async () => {
      // paced at about 500 msg/s, so that the kill hits the flow in the middle
      for (let i = 0; i < TOTAL; i++) {
        if (i % 25 === 0) await new Promise((res) => setTimeout(res, 50));
        await p.q.put(Message.text(`m${i}`, { keep: i % 4 === 3 ? 'no' : 'yes' }), (_m, o) => outcomes.set(o, (outcomes.get(o) ?? 0) + 1));
      }
    })();
    await waitFor(() => tally.distinct >= 400, '400 messages before the kill', 60_000);
    const receivedBefore = tally.distinct;
    await own.kill();
    await own.start();
    await feeding;
    const expected = Array.from({ length: TOTAL }, (_, i) => `m${i}`);
    await waitFor(
      () => tally.distinct >= expected.length && (outcomes.get('done') ?? 0) === TOTAL,
      `all ${expected.length} selected (have ${tally.distinct}; persister done ${outcomes.get('done') ?? 0}; persister ${JSON.stringify(p.h.status.get())}; receiver ${JSON.stringify(r.h.status.get())})`,
      120_000,
    );
    await new Promise((res) => setTimeout(res, 500));
    const counts = tally.counts(TOTAL, expected);
    report('JMSPersister -> queue -> JMSReceiver XAMode 1, broker kill -9', counts, {
      receivedBeforeOutage: receivedBefore,
      resent: p.h.status.get().counters.resent ?? 0,
      receiverDisconnects: r.h.status.get().counters.disconnects,
      persisterDisconnects: p.h.status.get().counters.disconnects,
      ackLost: r.h.status.get().counters.ackLost ?? 0,
    });
    expect({ lost: counts.lost, unexpected: tally.unexpected(expected), persisterDone: outcomes.get('done') }).toEqual({
      lost: 0,
      unexpected: [],
      persisterDone: TOTAL,
    });
  });
});
