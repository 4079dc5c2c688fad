/**
 * Running JMSPersister / JMSPublisher / JMSReceiver against RabbitMQ's AMQP 1.0 in tests: start a component
 * with the test broker's login, feed a persister's input XQueue, and clean up afterwards.
 */
import { randomUUID } from 'crypto';
import { XQueue, Outcome } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';
import { Harness, waitFor } from '../../support/component-harness';
import { ComponentKit } from '../../support/component-kit';
import { deleteQueue, RABBIT_URI } from '../../support/amqp10-test-client';

export function unique(prefix: string): string {
  return `${prefix}.${randomUUID().slice(0, 8)}`;
}

/** Components on the test RabbitMQ; cleanup() also deletes the queues a test put in `queues`. */
export class Kit extends ComponentKit {
  readonly queues: string[] = [];

  constructor() {
    super(() => ({ URI: RABBIT_URI, Username: 'guest', Password: 'guest' }));
  }

  override async cleanup(): Promise<void> {
    await super.cleanup();
    for (const q of this.queues.splice(0)) await deleteQueue(q);
  }
}

/**
 * Puts messages into a persister's input XQueue; `outcomes` fills with each message's outcome as it is removed.
 * `done`: every message is in the queue. `settled`: every outcome is recorded — a receiver may see a message
 * before its persister hears the broker's accept, so a test that reads the outcomes awaits this one.
 */
export function feed(input: XQueue<Message>, messages: readonly Message[]): { outcomes: Outcome[]; done: Promise<void>; settled: Promise<Outcome[]> } {
  const outcomes: Outcome[] = [];
  let allSettled: (o: Outcome[]) => void = () => undefined;
  const settled = new Promise<Outcome[]>((resolve) => (allSettled = resolve));
  const record = (outcome: Outcome) => {
    outcomes.push(outcome);
    if (outcomes.length === messages.length) allSettled(outcomes);
  };
  if (messages.length === 0) allSettled(outcomes);
  const done = (async () => {
    for (const m of messages) await input.put(m, (_m, outcome) => record(outcome));
  })();
  return { outcomes, done, settled };
}

export async function attached(h: Harness, event = 'attached'): Promise<void> {
  await waitFor(() => h.logs.some((l) => l.message === event), `${h.env.name} ${event} (status ${JSON.stringify(h.status.get())})`, 15_000);
}
