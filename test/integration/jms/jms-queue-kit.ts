/**
 * Running JMSPersister / JMSPublisher / JMSReceiver against RabbitMQ's AMQP 1.0 in tests: start a component
 * with the test broker's login, feed a persister's input XQueue, and clean up afterwards.
 */
import { randomUUID } from 'crypto';
import { AnyComponentDefinition, ComponentConfig } from '../../../src/runtime/component';
import { DEFAULT_POLICY, SupervisionPolicy } from '../../../src/runtime/supervision-policy';
import { XQueue, Outcome } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';
import { Logger } from '../../../src/logging/logger';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { Drain, deleteQueue, drain, RABBIT_URI } from '../../support/amqp10-test-client';

export function unique(prefix: string): string {
  return `${prefix}.${randomUUID().slice(0, 8)}`;
}

export class Kit {
  private readonly running: Harness[] = [];
  private readonly drains: Drain[] = [];
  readonly queues: string[] = [];

  /** Starts a component; a persister gets an input XQueue, a receiver an output XQueue. */
  start(
    def: AnyComponentDefinition,
    config: ComponentConfig,
    options: { capacity?: number; policy?: SupervisionPolicy; logger?: Logger } = {},
  ): { h: Harness; q: XQueue<Message> } {
    const q = new XQueue<Message>(`q-${String(config.Name)}`, options.capacity ?? 64);
    const role = def.role === 'receiver' ? { output: q } : { input: q };
    const h = runComponent(def, {
      config: { URI: RABBIT_URI, Username: 'guest', Password: 'guest', ...config },
      ...role,
      policy: options.policy ?? DEFAULT_POLICY,
      logger: options.logger,
    });
    this.running.push(h);
    return { h, q };
  }

  collect(out: XQueue<Message>, options: Parameters<typeof drain>[1] = {}): Drain {
    const d = drain(out, options);
    this.drains.push(d);
    return d;
  }

  async stop(h: Harness): Promise<void> {
    const i = this.running.indexOf(h);
    if (i >= 0) this.running.splice(i, 1);
    await h.stop();
  }

  async cleanup(): Promise<void> {
    for (const d of this.drains.splice(0)) d.detach();
    await Promise.all(this.running.splice(0).map((h) => h.stop()));
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
