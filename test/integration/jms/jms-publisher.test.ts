/**
 * JMSPublisher (pub) against RabbitMQ's AMQP 1.0: what it publishes to a topic reaches a JMSSubscriber.
 */
import { JMS_PUBLISHER } from '../../../actors/persisters/jms-publisher';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { Message } from '../../../src/message/message';
import { waitFor } from '../../support/component-harness';
import { Kit, attached, feed, unique } from './jms-queue-kit';

jest.setTimeout(30_000);

const kit = new Kit();
afterEach(() => kit.cleanup());

describe('JMSPublisher on RabbitMQ AMQP 1.0', () => {
  it('publishes to a topic that a JMSSubscriber receives, in order, with its properties', async () => {
    const topic = unique('pub');
    const sub = kit.start(JMS_SUBSCRIBER, { Name: 'sub', TopicName: topic, Mode: 'daemon' });
    const got = kit.collect(sub.q);
    await attached(sub.h, 'subscribed');
    const pub = kit.start(JMS_PUBLISHER, { Name: 'pub', TopicName: topic, ClientID: unique('publisher') });
    const sent = Array.from({ length: 10 }, (_, i) => Message.text(`t${i}`, { n: String(i) }, { JMSType: 'tick' }));
    const f = feed(pub.q, sent);
    await waitFor(() => got.received.length === 10 && f.outcomes.length === 10, 'all 10 published and received');
    expect({
      bodies: got.received.map((m) => m.bodyText()),
      props: got.received.map((m) => m.properties.get('n')),
      types: [...new Set(got.received.map((m) => m.headers.JMSType))],
      outcomes: [...new Set(f.outcomes)],
    }).toEqual({ bodies: sent.map((m) => m.bodyText()), props: sent.map((_, i) => String(i)), types: ['tick'], outcomes: ['done'] });
  });

  it('publishes with the Persistence and Priority overrides', async () => {
    const topic = unique('pubovr');
    const sub = kit.start(JMS_SUBSCRIBER, { Name: 'sub-ovr', TopicName: topic, Mode: 'daemon' });
    const got = kit.collect(sub.q);
    await attached(sub.h, 'subscribed');
    const pub = kit.start(JMS_PUBLISHER, { Name: 'pub-ovr', TopicName: topic, Persistence: '2', Priority: '9' });
    await feed(pub.q, [Message.text('p', {}, { JMSDeliveryMode: 1, JMSPriority: 1 })]).done;
    await waitFor(() => got.received.length === 1, 'the message');
    expect({ mode: got.received[0].headers.JMSDeliveryMode, priority: got.received[0].headers.JMSPriority }).toEqual({ mode: 2, priority: 9 });
  });
});
