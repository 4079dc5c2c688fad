/**
 * The header relay of the RabbitMQ JMS dialect (src/transports/rabbit-header-relay.ts) stopped while its
 * connections are still being opened: once they come up it closes both, leaving no consumer on the side queue.
 * A TcpProxy of this test holds the connect until after the stop.
 */
import { RabbitHeaderRelay } from '../../../src/transports/rabbit-header-relay';
import { silentLogger } from '../../../src/logging/logger';
import { waitFor } from '../../support/component-harness';
import { TcpProxy } from '../../support/tcp-proxy';
import { RABBIT, deleteQueue, queueInfo, withRabbitChannel } from '../../support/amqp10-test-client';
import { unique } from './jms-queue-kit';

jest.setTimeout(60_000);

const queues: string[] = [];
let proxy: TcpProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  for (const q of queues.splice(0)) await deleteQueue(q);
});

it('closes both connections that come up after it was stopped while connecting, leaving no consumer on the side queue', async () => {
  const from = unique('relay-side');
  const to = unique('relay-sub');
  queues.push(from, to);
  await withRabbitChannel(async (ch) => {
    await ch.assertQueue(from, { durable: false });
    await ch.assertQueue(to, { durable: false });
  });
  const p = await TcpProxy.start({ host: RABBIT.host, port: RABBIT.port });
  proxy = p;
  const relay = new RabbitHeaderRelay({
    name: 'late-relay',
    endpoint: { host: '127.0.0.1', port: p.port, tls: false, username: 'guest', password: 'guest' },
    route: { from, to },
    reconnect: { backoff: { minMs: 100, maxMs: 1000 }, tolerance: 0, maxRetry: 0 },
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as NodeJS.Timeout) },
    guard: (fn) => fn,
    logger: silentLogger,
    status: { count: () => undefined },
  });
  p.cut(); // the relay's first connection (AMQP 0-9-1) waits at the proxy: its connect is in flight
  relay.start();
  await waitFor(() => p.heldBytes > 0, 'the relay connecting (its protocol header held at the proxy)');
  await relay.stop();
  p.resume();
  // Its AMQP 0-9-1 connection, then its AMQP 1.0 one, and the consumer on the side queue.
  await waitFor(() => p.relayed === 2, 'both connections of the relay relayed to the broker');
  await waitFor(() => p.open === 0, 'both connections opened after the stop to be closed');
  expect((await queueInfo(from))?.consumerCount).toBe(0);
});
