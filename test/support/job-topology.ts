/**
 * Pieces of the JobNode topologies the integration suites run: the receiver of a durable queue of the tests'
 * RabbitMQ, the JobPersister workers that run a shell script per job, and the files JobNode's notice and bypass
 * links are written to.
 */
import * as path from 'node:path';

/** An AmqpReceiver of the durable `queue` on the tests' RabbitMQ; the caller adds its Operation, LinkName and modes. */
export function rabbitQueueReceiver(queue: string): Record<string, string> {
  return {
    ClassName: 'org.qbroker.receiver.RMQReceiver',
    URI: 'amqp://127.0.0.1:5672/',
    Username: 'guest',
    Password: 'guest',
    QueueName: queue,
    IsDurable: 'true',
  };
}

/** JobPersister `n` on the link "worker<n>": runs `/bin/sh -c script` per job with $1 the job (its body), then `args`. */
export function jobWorker(n: number, script: string, args: readonly string[], killGrace = '0'): Record<string, unknown> {
  return {
    ClassName: 'org.qbroker.persister.JobPersister',
    Operation: 'execute',
    LinkName: `worker${n}`,
    Script: ['/bin/sh', '-c', script, 'worker', '##body##', ...args],
    KillGrace: killGrace,
  };
}

/** The persisters pstr_notice and pstr_bypass: each message of the links notice and bypass as a line of DIR/notice.log, DIR/bypass.log. */
export function noticeAndBypassFiles(dir: string): Record<'pstr_notice' | 'pstr_bypass', Record<string, string>> {
  const lines = (link: string) => ({
    ClassName: 'org.qbroker.persister.StreamPersister',
    URI: `file://${path.join(dir, `${link}.log`)}`,
    Operation: 'write',
    LinkName: link,
    Template: '##body##\n',
  });
  return { pstr_notice: lines('notice'), pstr_bypass: lines('bypass') };
}
