/**
 * One delivery held downstream does not stop a JMS receiver on ActiveMQ (docs/components/jms-queues.md "One
 * held delivery never stops the receiver"): with XAMode 1 the held one stays unsettled at the broker while the
 * 9,999 others arrive, as fast as they do with nothing held: within twice the time, as the median of rounds that alternate
 * which run goes first (test/support/held-delivery.ts HELD_RUN says why one pair of runs was too noisy).
 */
import { JMS_RECEIVER } from '../../actors/receivers/jms-receiver';
import { JMS_SUBSCRIBER } from '../../actors/receivers/jms-subscriber';
import { ComponentConfig } from '../../src/runtime/component';
import { HELD_RUN_PASSES, heldAndFreePairs, heldRunVerdict } from '../support/held-delivery';
import { ACTIVEMQ, Kit, publish, unique } from './activemq-kit';

jest.setTimeout(600_000);

const kit = new Kit();
afterEach(() => kit.cleanup());

const cases = [
  {
    component: JMS_RECEIVER,
    source: (name: string): ComponentConfig => ({ QueueName: name }),
    address: (name: string) => `queue://${name}`,
    publishFirst: true,
  },
  {
    component: JMS_SUBSCRIBER,
    source: (name: string): ComponentConfig => ({ TopicName: name }),
    address: (name: string) => `topic://${name}`,
    publishFirst: false,
  },
];

describe.each(cases)('$component.className on ActiveMQ with one delivery held', ({ component, source, address, publishFirst }) => {
  it('gets the 9,999 others within twice the time they take with nothing held, none lost or duplicated, and shows the held one unsettled with its age', async () => {
    const pairs = await heldAndFreePairs(
      `ActiveMQ ${component.className}`,
      (hold) => {
        const name = unique(hold ? 'held' : 'free');
        return {
          start: () => kit.start(component, { Name: name, Mode: 'daemon', XAMode: '1', ...source(name) }),
          publish: (messages) => publish(ACTIVEMQ, address(name), messages),
          publishFirst,
        };
      },
      () => kit.cleanup(),
    );
    expect(heldRunVerdict(pairs)).toEqual(HELD_RUN_PASSES);
  });
});
