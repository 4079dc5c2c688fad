/**
 * Liveness of an AMQP 1.0 connection on RabbitMQ's AMQP 1.0 (docs/operations.md#liveness-of-broker-connections):
 * the broker sends empty frames within the IdleTimeout xroute announces, so a receiver and a persister with
 * nothing to do are never declared dead.
 */
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { quietWatch } from '../../support/partition-kit';
import { Kit, unique } from './jms-queue-kit';

jest.setTimeout(30_000);

const kit = new Kit();
afterEach(() => kit.cleanup());

it.each([
  ['receiver', JMS_RECEIVER, { Mode: 'daemon' }],
  ['persister', JMS_PERSISTER, {}],
] as const)('keeps a quiet %s connected for three times its IdleTimeout: the broker empty frames count as traffic', async (role, def, extra) => {
  const queue = unique('quiet');
  kit.queues.push(queue);
  const { h } = kit.start(def, { Name: `quiet-${role}`, QueueName: queue, IdleTimeout: '1000', ...extra });
  expect(await quietWatch(h.status, 3_000)).toEqual({ statuses: ['RUNNING'], reconnects: 0 });
});
