/**
 * Stopping, killing and starting the local RabbitMQ for the AMQP fault tests (brokers.md). Run these tests
 * only while holding `flock /tmp/xroute-broker.lock`; `ensureBrokerUp()` belongs in every afterAll.
 */
import { execFile } from 'child_process';
import { promisify } from 'util';
// eslint-disable-next-line @typescript-eslint/no-var-requires
const broker = require('../support/broker.js') as { probeAmqp(): Promise<boolean>; waitForBroker(ms?: number): Promise<boolean>; ensureRabbitMQ(): Promise<void> };

const run = promisify(execFile);

export async function stopApp(): Promise<void> {
  await run('rabbitmqctl', ['stop_app'], { timeout: 60_000 });
}

/** Starts the app again; resolves when the AMQP port answers (the broker's return). */
export async function startApp(): Promise<void> {
  await run('rabbitmqctl', ['start_app'], { timeout: 60_000 });
  if (!(await broker.waitForBroker(60_000))) throw new Error('RabbitMQ did not come back after start_app');
}

/** SIGKILL of the Erlang VM (beam.smp), found by its own report of its OS pid. */
export async function killBroker(): Promise<number> {
  const { stdout } = await run('rabbitmqctl', ['eval', 'os:getpid().'], { timeout: 30_000 });
  const pid = Number(stdout.replace(/[^0-9]/g, ''));
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`cannot read the broker's pid from ${JSON.stringify(stdout)}`);
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await broker.probeAmqp())) await new Promise((r) => setTimeout(r, 100));
  return pid;
}

/** Starts the server after a kill; resolves when the AMQP port answers. */
export async function startServer(): Promise<void> {
  await run('rabbitmq-server', ['-detached'], { timeout: 60_000 }).catch(() => undefined);
  if (!(await broker.waitForBroker(120_000))) throw new Error('RabbitMQ did not come back after rabbitmq-server -detached');
}

/** Whatever happened, leave the broker running. */
export async function ensureBrokerUp(): Promise<void> {
  if (await broker.probeAmqp()) return;
  await run('rabbitmqctl', ['start_app'], { timeout: 60_000 }).catch(() => undefined);
  if (await broker.waitForBroker(10_000)) return;
  await broker.ensureRabbitMQ();
}
