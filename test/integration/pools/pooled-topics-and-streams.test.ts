/**
 * Pools driven only through the documented API (PoolClient, PoolHandle):
 *  - a ReceiverPool hands out a JMSSubscriber and a PersisterPool a JMSPublisher for amqp:// with
 *    ConnectionFactoryName and TopicName (RabbitMQ's AMQP 1.0 plugin on the system broker);
 *  - a ReceiverPool hands out StreamReceivers for tcp:// peers: MaxNumberReceiver is enforced, a receiver
 *    that reached the end of its stream is checked in by the heartbeat, and an idle one is retired after
 *    MaxIdleTime.
 */
import net from 'node:net';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { defaultRegistry } from '../../../actors/index';
import { PERSISTER_POOL } from '../../../actors/pools/persister-pool';
import { RECEIVER_POOL } from '../../../actors/pools/receiver-pool';
import { PoolClient } from '../../../actors/pools/pool-client';
import { PoolRequestError, POOL_RC } from '../../../actors/pools/pool-request';
import { drain, RABBIT } from '../../support/amqp10-test-client';
import { unique } from '../jms/jms-queue-kit';

jest.setTimeout(30_000);

interface Pool {
  h: Harness;
  client: PoolClient;
  active(): number;
}

const pools: Pool[] = [];
const servers: net.Server[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.h.stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

function pool(kind: 'persister' | 'receiver', config: Record<string, string> = {}): Pool {
  const input = new XQueue<Message>(`${kind}_pool`, 16);
  const h = runComponent(kind === 'persister' ? PERSISTER_POOL : RECEIVER_POOL, {
    config: { Name: `${kind}_pool`, ...config },
    input,
    registry: defaultRegistry(),
  });
  const p = { h, client: new PoolClient(input), active: () => h.status.get().counters.active ?? 0 };
  pools.push(p);
  return p;
}

/** A TCP peer that writes `lines` to every connection and then either closes it or keeps it open. */
async function linePeer(lines: string[], close: boolean): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write(lines.map((l) => `${l}\n`).join(''));
    if (close) socket.end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `tcp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('pooled JMSSubscriber and JMSPublisher (RabbitMQ AMQP 1.0)', () => {
  it('publishes through a pooled JMSPublisher what a pooled JMSSubscriber receives, in order', async () => {
    const topic = unique('pooled-topic');
    const base = `amqp://guest:guest@${RABBIT.host}:${RABBIT.port}/?ConnectionFactoryName=local&TopicName=${topic}`;
    const receivers = pool('receiver');
    const persisters = pool('persister');
    const sub = await receivers.client.request({ URI: `${base}&Mode=daemon` });
    const got = drain(sub.transmit);
    await waitFor(() => receivers.h.logs.some((l) => l.message === 'subscribed'), 'the pooled subscriber to subscribe', 15_000);
    const pub = await persisters.client.request({ URI: base });
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) await pub.transmit.put(Message.text(`t${i}`, { n: String(i) }), (_m, o) => outcomes.push(o));
    await waitFor(() => got.received.length === 10 && outcomes.length === 10, 'ten messages published and received', 15_000);
    got.detach();
    expect({
      subscriber: sub.className,
      publisher: pub.className,
      bodies: got.received.map((m) => m.bodyText()),
      n: got.received.map((m) => m.getProperty('n')),
      outcomes: [...new Set(outcomes)],
    }).toEqual({
      subscriber: 'receiver.JMSSubscriber',
      publisher: 'persister.JMSPublisher',
      bodies: Array.from({ length: 10 }, (_, i) => `t${i}`),
      n: Array.from({ length: 10 }, (_, i) => String(i)),
      outcomes: ['done'],
    });
    expect([sub.status().state, pub.status().state]).toEqual(['running', 'running']);
  });
});

describe('StreamReceiver through a ReceiverPool', () => {
  it('refuses a request beyond MaxNumberReceiver with RC 4 and accepts one again after a check-in', async () => {
    const uri = await linePeer([], false);
    const receivers = pool('receiver', { MaxNumberReceiver: '2', Heartbeat: '0.2' });
    const a = await receivers.client.request({ URI: `${uri}?Mode=daemon` });
    await receivers.client.request({ URI: `${uri}?Mode=daemon` });
    const refused = await receivers.client.request({ URI: `${uri}?Mode=daemon` }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(PoolRequestError);
    expect((refused as PoolRequestError).rc).toBe(POOL_RC.REJECTED);
    await a.release();
    const again = await receivers.client.request({ URI: `${uri}?Mode=daemon` });
    expect(again.className).toBe('receiver.StreamReceiver');
  });

  it('reads a stream to its end and is checked in by the heartbeat, every message left in its transmit queue', async () => {
    const uri = await linePeer(['one', 'two', 'three'], true);
    const receivers = pool('receiver', { Heartbeat: '0.2' });
    const handle = await receivers.client.request({ URI: uri });
    expect(receivers.active()).toBe(1);
    await handle.closed();
    expect(handle.status().state).toBe('closed');
    expect(receivers.active()).toBe(0);
    const got = drain(handle.transmit);
    await waitFor(() => got.received.length === 3, 'three lines');
    got.detach();
    expect(got.received.map((m) => m.bodyText())).toEqual(['one', 'two', 'three']);
  });

  it('retires a receiver idle for MaxIdleTime: closed, checked in, its transmit queue stopped', async () => {
    const uri = await linePeer(['only'], false);
    const receivers = pool('receiver', { Heartbeat: '0.2' });
    const handle = await receivers.client.request({ URI: `${uri}?Mode=daemon&MaxIdleTime=0.5` });
    const got = drain(handle.transmit);
    await waitFor(() => got.received.length === 1, 'the one line');
    const started = Date.now();
    await handle.closed();
    got.detach();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(handle.status().state).toBe('closed');
    await waitFor(() => handle.transmit.state === 'stopped', 'the transmit queue to stop after the check-in', 2_000);
    expect(receivers.active()).toBe(0);
  });
});
