/**
 * Components a test runs on one broker, each with the broker's login and an XQueue of its own (an input for a
 * persister, an output for a receiver), and the drains that collect what they receive; cleanup() ends them all.
 * The JMS kit of the RabbitMQ suites (test/integration/jms/jms-queue-kit.ts) extends it with its broker.
 */
import { AnyComponentDefinition, ComponentConfig } from '../../src/runtime/component';
import { DEFAULT_POLICY, SupervisionPolicy } from '../../src/runtime/supervision-policy';
import { XQueue } from '../../src/xqueue/xqueue';
import { Message } from '../../src/message/message';
import { Logger } from '../../src/logging/logger';
import { Harness, runComponent } from './component-harness';
import { Drain, drain } from './amqp10-test-client';

export class ComponentKit {
  private readonly running: Harness[] = [];
  private readonly drains: Drain[] = [];

  /** `login`: the broker's URI, user and password (and any other property every component gets). */
  constructor(private readonly login: () => ComponentConfig) {}

  /** Starts a component; a persister gets an input XQueue, a receiver an output XQueue. */
  start(
    def: AnyComponentDefinition,
    config: ComponentConfig,
    options: { capacity?: number; policy?: SupervisionPolicy; logger?: Logger } = {},
  ): { h: Harness; q: XQueue<Message> } {
    const q = new XQueue<Message>(`q-${String(config.Name)}`, options.capacity ?? 64);
    const role = def.role === 'receiver' ? { output: q } : { input: q };
    const h = runComponent(def, { config: { ...this.login(), ...config }, ...role, policy: options.policy ?? DEFAULT_POLICY, logger: options.logger });
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
  }
}
