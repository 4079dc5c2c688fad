/**
 * JMSReceiver at `--log-level debug` on RabbitMQ's AMQP 1.0: the settlement it sent for each message (accepted once
 * downstream was done, rejected when downstream gave up and FailedOutcome is reject) and the redelivery it scheduled
 * (FailedOutcome release, after a delay).
 */
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { LogEntry, memoryLogger } from '../../../src/logging/logger';
import { Message } from '../../../src/message/message';
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { waitFor } from '../../support/component-harness';
import { publishAmqp10 } from '../../support/amqp10-test-client';
import { Kit, unique } from './jms-queue-kit';

jest.setTimeout(60_000);

const kit = new Kit();
afterEach(() => kit.cleanup());

/** Fails each message `failures` times, then finishes it. */
function downstream(out: XQueue<Message>, failures: number): void {
  let attempts = 0;
  const handle = out.attach('downstream', () => setImmediate(pull));
  function pull(): void {
    for (let t: Taken<Message> | undefined = out.take(handle); t; t = out.take(handle)) {
      attempts++;
      out.remove(t, attempts <= failures ? 'failed' : 'done', attempts <= failures ? 'test downstream refused it' : undefined);
    }
  }
}

const decisions = (entries: LogEntry[]) =>
  entries.filter((e) => e.level === 'debug' && /^(ack sent|nack sent|retry scheduled)/.test(e.message)).map((e) => e.message.split(':')[0]);

async function receive(failedOutcome: string, failures: number): Promise<LogEntry[]> {
  const queue = unique('jms-debug');
  kit.queues.push(queue);
  const entries: LogEntry[] = [];
  const { q } = kit.start(
    JMS_RECEIVER,
    { Name: 'get-debug', QueueName: queue, Mode: 'daemon', FailedOutcome: failedOutcome, RedeliveryDelay: '50,50' },
    { capacity: 8, logger: memoryLogger(entries, {}, { debug: true }) },
  );
  downstream(q, failures);
  // the harness's own log is this logger here, so the subscription is awaited in it
  await waitFor(() => entries.some((e) => e.message === 'subscribed'), 'get-debug subscribed', 15_000);
  await publishAmqp10(`/amq/queue/${queue}`, [{ body: 'once refused' }]);
  return entries;
}

it('logs the redelivery it scheduled after a failure, then the accept it sent', async () => {
  const entries = await receive('release', 1);
  await waitFor(() => decisions(entries).includes('ack sent (accepted)'), 'the accept', 20_000);
  expect(decisions(entries)).toEqual(['retry scheduled', 'ack sent (accepted)']);
});

it('logs the reject it sent for a message downstream gave up on', async () => {
  const entries = await receive('reject', 1);
  await waitFor(() => decisions(entries).length > 0, 'the reject', 20_000);
  expect(decisions(entries)).toEqual(['nack sent (rejected)']);
});
