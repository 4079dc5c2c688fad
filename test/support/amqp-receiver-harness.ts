/** An AmqpReceiver on the tests' RabbitMQ (127.0.0.1:5672, guest), run as one component by the component harness. */
import { AMQP_RECEIVER } from '../../actors/receivers/amqp-receiver';
import { ComponentConfig } from '../../src/runtime/component';
import { Logger } from '../../src/logging/logger';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { Harness, runComponent } from './component-harness';

/** How an AMQP 0-9-1 component of a test reaches the tests' RabbitMQ. */
export const RABBITMQ_CONNECTION = { URI: 'amqp://127.0.0.1/', Username: 'guest', Password: 'guest' };

export interface AmqpReceiverOptions {
  /** The output XQueue's capacity (default 100). */
  readonly capacity?: number;
  readonly logger?: Logger;
}

/** The receiver on `config` (over a name, class name and the connection), writing to a fresh XQueue "root". */
export function runAmqpReceiver(config: Record<string, unknown>, options: AmqpReceiverOptions = {}): { h: Harness; out: XQueue<Message> } {
  const out = new XQueue<Message>('root', options.capacity ?? 100);
  const h = runComponent(AMQP_RECEIVER, {
    config: { Name: 'rcvr_test', ClassName: 'org.qbroker.receiver.RMQReceiver', ...RABBITMQ_CONNECTION, ...config } as ComponentConfig,
    output: out,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  return { h, out };
}
