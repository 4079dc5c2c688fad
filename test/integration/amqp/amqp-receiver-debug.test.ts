/**
 * AmqpReceiver at `--log-level debug` on the real RabbitMQ: the decisions an operator reads to understand what
 * happened to a message: the retry it scheduled after a failure (attempt, delay), the ack it sent once downstream
 * was done, the nack (no requeue) of a message its FailurePolicy gives up on. At info level none is built.
 */
import { LogEntry, memoryLogger } from '../../../src/logging/logger';
import { harnessesStoppedAfterEach, waitFor } from '../../support/component-harness';
import { runAmqpReceiver } from '../../support/amqp-receiver-harness';
import { adminForFile, uniqueName, waitForCounts } from './amqp-kit';

jest.setTimeout(60_000);

const admin = adminForFile();
const harnesses = harnessesStoppedAfterEach();

/** A receiver on `queue` whose downstream fails each message `failures` times, then finishes it. */
function receive(queue: string, config: Record<string, string>, failures: number, debug: boolean): LogEntry[] {
  const entries: LogEntry[] = [];
  const { h, out } = runAmqpReceiver({ Name: 'rcvr_debug', QueueName: queue, ...config }, { capacity: 8, logger: memoryLogger(entries, {}, { debug }) });
  harnesses.push(h);
  const attempts = new Map<string, number>();
  const handle = out.attach('downstream', () => setImmediate(pull));
  function pull(): void {
    for (let t = out.take(handle); t; t = out.take(handle)) {
      const id = t.item.headers.JMSMessageID ?? '?';
      const n = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, n);
      out.remove(t, n <= failures ? 'failed' : 'done', n <= failures ? 'test downstream refused it' : undefined);
    }
  }
  return entries;
}

const decisions = (entries: LogEntry[]) =>
  entries.filter((e) => e.level === 'debug' && /^(ack sent|nack sent|retry scheduled)/.test(e.message)).map((e) => ({ message: e.message, ...e.meta }));

describe('AmqpReceiver debug lines', () => {
  it('logs the retry it scheduled after a failure, then the ack it sent', async () => {
    const q = await admin().queue(uniqueName('debug.retry'));
    await admin().publish('', q, ['once refused'], { messageId: 'd1' });
    const entries = receive(q, { RedeliveryDelay: '50,50' }, 1, true);
    await waitFor(() => decisions(entries).some((d) => d.message === 'ack sent'), 'the ack', 20_000);
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'the queue emptied');
    expect(decisions(entries)).toEqual([
      { message: 'retry scheduled', component: 'rcvr_debug', queue: q, messageId: 'd1', attempts: 1, delayMs: 50 },
      { message: 'ack sent', component: 'rcvr_debug', queue: q, messageId: 'd1', deliveryTag: expect.any(Number) },
    ]);
  });

  it('logs the nack without requeue of a message its FailurePolicy gives up on', async () => {
    const q = await admin().queue(uniqueName('debug.nack'));
    await admin().publish('', q, ['refused'], { messageId: 'd2' });
    const entries = receive(q, { FailurePolicy: 'dead-letter' }, 1, true);
    await waitFor(() => decisions(entries).length > 0, 'the nack', 20_000);
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'the message gone from the queue');
    expect(decisions(entries)).toEqual([
      { message: 'nack sent (no requeue)', component: 'rcvr_debug', queue: q, messageId: 'd2', deliveryTag: expect.any(Number) },
    ]);
  });

  it('builds none of them when the log does not write debug lines', async () => {
    const q = await admin().queue(uniqueName('debug.off'));
    await admin().publish('', q, ['once refused'], { messageId: 'd3' });
    const entries = receive(q, { RedeliveryDelay: '50,50' }, 1, false);
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'the queue emptied', 20_000);
    expect(decisions(entries)).toEqual([]);
  });
});
