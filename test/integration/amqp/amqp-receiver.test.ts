/**
 * AmqpReceiver against the real RabbitMQ: declaration and passive checks, every exchange type, routing
 * key lists, the mapping and overrides on received messages, XAMode ack timing read from the broker,
 * the nack policy and bad configurations.
 */
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, harnessesStoppedAfterEach, waitFor } from '../../support/component-harness';
import { runAmqpReceiver } from '../../support/amqp-receiver-harness';
import { adminForFile, TestConsumer, queueCounts, uniqueName, waitForCounts } from './amqp-kit';
import { execFileSync } from 'child_process';
import { sleep } from '../../support/wait';
import { TcpProxy } from '../../support/tcp-proxy';

jest.setTimeout(60_000);

const admin = adminForFile();
const harnesses = harnessesStoppedAfterEach();

function start(config: Record<string, unknown>, capacity = 100): { h: Harness; out: XQueue<Message>; consumer: TestConsumer } {
  const { h, out } = runAmqpReceiver(config, { capacity });
  harnesses.push(h);
  return { h, out, consumer: new TestConsumer(out) };
}

const bodies = (c: TestConsumer) => c.seen.map((m) => m.bodyText()).sort();

describe('declaration and passive checks', () => {
  it('consumes an existing queue with IsPassive true without declaring it', async () => {
    const q = await admin().queue(uniqueName('passive'), { durable: false });
    await admin().publish('', q, ['a', 'b']);
    // IsDurable "true" would be an inequivalent declare: it works because nothing is declared.
    const { consumer, h } = start({ QueueName: q, IsPassive: 'true', IsDurable: 'true' });
    await waitFor(() => consumer.seen.length === 2, 'two messages');
    expect(bodies(consumer)).toEqual(['a', 'b']);
    expect(h.status.get().status).toBe('RUNNING');
  });

  it('declares the exchange and queue with IsDurable and AutoDelete when IsPassive is false', async () => {
    const q = admin().track('queue', uniqueName('declared'));
    const x = admin().track('exchange', uniqueName('declared-x'));
    const { h } = start({ QueueName: q, ExchangeName: x, ExchangeType: 'topic', RoutingKey: 'a.#', IsPassive: 'false', IsDurable: 'true', AutoDelete: 'true' });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    const queues = execFileSync('rabbitmqctl', ['list_queues', '-q', '--no-table-headers', 'name', 'durable', 'auto_delete']).toString();
    expect(queues).toMatch(new RegExp(`^${q.replace(/\./g, '\\.')}\\s+true\\s+true$`, 'm'));
    const exchanges = execFileSync('rabbitmqctl', ['list_exchanges', '-q', '--no-table-headers', 'name', 'type', 'durable', 'auto_delete']).toString();
    expect(exchanges).toMatch(new RegExp(`^${x.replace(/\./g, '\\.')}\\s+topic\\s+true\\s+true$`, 'm'));
  });

  it('fails with a configuration error naming the component when a passive check finds no queue', async () => {
    const q = uniqueName('missing');
    const { h } = start({ QueueName: q });
    await waitFor(() => h.status.get().status === 'FAILED', 'FAILED');
    const detail = h.status.get().detail ?? '';
    expect(detail).toContain('rcvr_test');
    expect(detail).toContain(`check of queue "${q}"`);
    expect(detail).toContain('IsPassive');
  });

  it('fails with a configuration error when a passive check finds no exchange', async () => {
    const q = await admin().queue(uniqueName('q'));
    const x = uniqueName('nox');
    const { h } = start({ QueueName: q, ExchangeName: x, RoutingKey: 'k' });
    await waitFor(() => h.status.get().status === 'FAILED', 'FAILED');
    expect(h.status.get().detail).toContain(`check of exchange "${x}"`);
  });
});

describe('exchange types and bindings', () => {
  it('binds a direct exchange once per routing key of a list', async () => {
    const x = await admin().exchange(uniqueName('direct'), 'direct');
    const q = admin().track('queue', uniqueName('direct-q'));
    const { consumer, h } = start({ ExchangeName: x, ExchangeType: 'direct', QueueName: q, RoutingKey: ['red', 'green'], IsPassive: 'false' });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await admin().publish(x, 'red', ['r']);
    await admin().publish(x, 'blue', ['b']);
    await admin().publish(x, 'green', ['g']);
    await waitFor(() => consumer.seen.length === 2, 'two messages');
    await sleep(200);
    expect(bodies(consumer)).toEqual(['g', 'r']);
  });

  it('binds a topic exchange with every pattern of a list', async () => {
    const x = await admin().exchange(uniqueName('topic'), 'topic');
    const q = admin().track('queue', uniqueName('topic-q'));
    const { consumer, h } = start({ ExchangeName: x, ExchangeType: 'topic', QueueName: q, RoutingKey: ['orders.*.eu', 'audit.#'], IsPassive: 'false' });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await admin().publish(x, 'orders.new.eu', ['o1']);
    await admin().publish(x, 'orders.new.us', ['o2']);
    await admin().publish(x, 'audit.x.y', ['a1']);
    await waitFor(() => consumer.seen.length === 2, 'two messages');
    await sleep(200);
    expect(bodies(consumer)).toEqual(['a1', 'o1']);
    expect(consumer.seen.find((m) => m.bodyText() === 'o1')?.getProperty('RMQ_RoutingKey')).toBe('orders.new.eu');
  });

  it('binds a fanout exchange to a server-named queue', async () => {
    const x = await admin().exchange(uniqueName('fanout'), 'fanout');
    const { consumer, h } = start({ ExchangeName: x, ExchangeType: 'fanout', IsPassive: 'true' });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await admin().publish(x, 'anything', ['f1', 'f2']);
    await waitFor(() => consumer.seen.length === 2, 'two messages');
    expect(consumer.seen[0].headers.JMSDestination).toMatch(/^amq\.gen-/);
    expect(consumer.seen[0].getProperty('RMQ_Exchange')).toBe(x);
  });

  it('binds a headers exchange with the match arguments from BindingArguments', async () => {
    const x = await admin().exchange(uniqueName('headers'), 'headers');
    const q = admin().track('queue', uniqueName('headers-q'));
    const { consumer, h } = start({
      ExchangeName: x,
      ExchangeType: 'headers',
      QueueName: q,
      IsPassive: 'false',
      BindingArguments: { 'x-match': 'all', format: 'pdf', type: 'report' },
    });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await admin().publish(x, '', ['match'], { headers: { format: 'pdf', type: 'report' } });
    await admin().publish(x, '', ['half'], { headers: { format: 'pdf', type: 'log' } });
    await waitFor(() => consumer.seen.length === 1, 'one message');
    await sleep(200);
    expect(bodies(consumer)).toEqual(['match']);
    expect(consumer.seen[0].getProperty('format')).toBe('pdf');
  });
});

describe('the messages it produces', () => {
  it('maps AMQP properties and headers onto the message model', async () => {
    const q = await admin().queue(uniqueName('map'));
    await admin().publish('', q, ['héllo'], {
      messageId: 'id-1',
      correlationId: 'corr-1',
      type: 'order',
      priority: 7,
      deliveryMode: 2,
      timestamp: 1_700_000_000,
      expiration: '60000',
      replyTo: 'replies',
      contentType: 'text/plain',
      appId: 'app',
      headers: { Region: 'eu', count: 3, flag: true },
    });
    const { consumer } = start({ QueueName: q });
    await waitFor(() => consumer.seen.length === 1, 'one message');
    const m = consumer.seen[0];
    expect(m.headers).toMatchObject({
      JMSMessageID: 'id-1',
      JMSCorrelationID: 'corr-1',
      JMSType: 'order',
      JMSPriority: 7,
      JMSDeliveryMode: 2,
      JMSTimestamp: 1_700_000_000_000,
      JMSExpiration: 1_700_000_060_000,
      JMSReplyTo: 'replies',
      JMSDestination: q,
      JMSRedelivered: false,
    });
    expect(m.body).toEqual({ kind: 'text', text: 'héllo' });
    expect(Object.fromEntries(m.properties)).toMatchObject({
      Region: 'eu',
      count: '3',
      flag: 'true',
      RMQ_ContentType: 'text/plain',
      RMQ_AppId: 'app',
      RMQ_RoutingKey: q,
    });
  });

  it('applies Priority, Persistence, Expiry and StringProperty to every message', async () => {
    const q = await admin().queue(uniqueName('override'));
    await admin().publish('', q, ['x'], { priority: 1, deliveryMode: 1, timestamp: 1_700_000_000, expiration: '1000' });
    await admin().publish('', q, ['never'], { priority: 1 });
    const { consumer } = start({
      QueueName: q,
      Priority: '9',
      Persistence: '2',
      Expiry: '5000',
      StringProperty: { Hostname: 'broker1', Cell: 'c${CellID}' },
      CellID: '3',
    });
    await waitFor(() => consumer.seen.length === 2, 'two messages');
    const [m, never] = consumer.seen;
    expect(m.headers.JMSPriority).toBe(9);
    expect(m.headers.JMSDeliveryMode).toBe(2);
    // Spec: Expiry is added to the message's expiration (1 700 000 001 000), not to its timestamp.
    expect(m.headers.JMSExpiration).toBe(1_700_000_001_000 + 5000);
    expect(m.getProperty('Hostname')).toBe('broker1');
    expect(m.getProperty('Cell')).toBe('c3');
    expect(never.headers.JMSExpiration).toBeUndefined();
    expect(never.headers.JMSPriority).toBe(9);
  });

  it('delivers a bytes body in TextMode 0', async () => {
    const q = await admin().queue(uniqueName('bytes'));
    await admin().publish('', q, [Buffer.from([0, 1, 2, 255])]);
    const { consumer } = start({ QueueName: q, TextMode: '0' });
    await waitFor(() => consumer.seen.length === 1, 'one message');
    expect(consumer.seen[0].body).toEqual({ kind: 'bytes', bytes: Buffer.from([0, 1, 2, 255]) });
  });
});

describe('acknowledgement', () => {
  it('XAMode 1 acks a delivery only when downstream removes it', async () => {
    const q = await admin().queue(uniqueName('xa1'));
    await admin().publish('', q, ['1', '2', '3']);
    const { consumer, h } = start({ QueueName: q, XAMode: '1' });
    await waitFor(() => consumer.held.length === 3, 'three held messages');
    expect(await queueCounts(q)).toMatchObject({ ready: 0, unacked: 3 });
    consumer.remove(2);
    await waitForCounts(q, (c) => c.unacked === 1, 'one unacked');
    consumer.remove();
    await waitForCounts(q, (c) => c.unacked === 0 && c.ready === 0, 'all acked');
    expect(h.status.get().counters.acked).toBe(3);
  });

  it('XAMode 0 acks a delivery as soon as it is in the XQueue', async () => {
    const q = await admin().queue(uniqueName('xa0'));
    await admin().publish('', q, ['1', '2', '3']);
    const { consumer } = start({ QueueName: q, XAMode: '0' });
    await waitFor(() => consumer.held.length === 3, 'three held messages');
    await waitForCounts(q, (c) => c.unacked === 0 && c.ready === 0, 'acked while still held downstream');
    expect(consumer.held).toHaveLength(3);
  });

  it('requeues a message whose downstream processing failed (FailurePolicy requeue) and flags the redelivery', async () => {
    const q = await admin().queue(uniqueName('requeue'));
    await admin().publish('', q, ['poison'], { messageId: 'p1' });
    const { consumer } = start({ QueueName: q, FailurePolicy: 'requeue' });
    await waitFor(() => consumer.held.length === 1, 'first delivery');
    expect(consumer.held[0].item.headers.JMSRedelivered).toBe(false);
    consumer.remove(1, 'failed');
    await waitFor(() => consumer.held.length === 1, 'redelivery');
    expect(consumer.held[0].item.headers.JMSRedelivered).toBe(true);
    expect(consumer.held[0].item.headers.JMSMessageID).toBe('p1');
  });

  it("dead-letters a failed message (FailurePolicy dead-letter) to the queue's dead-letter exchange", async () => {
    const dlx = await admin().exchange(uniqueName('dlx'), 'fanout');
    const dlq = await admin().queue(uniqueName('dlq'));
    await admin().ch.bindQueue(dlq, dlx, '');
    const q = await admin().queue(uniqueName('dl-src'), { durable: false, deadLetterExchange: dlx });
    await admin().publish('', q, ['bad'], { messageId: 'd1' });
    const { consumer, h } = start({ QueueName: q, FailurePolicy: 'dead-letter' });
    await waitFor(() => consumer.held.length === 1, 'delivery');
    consumer.remove(1, 'failed');
    await waitForCounts(dlq, (c) => c.ready === 1, 'dead-lettered message');
    expect(await queueCounts(q)).toMatchObject({ ready: 0, unacked: 0 });
    expect(h.status.get().counters.deadLettered).toBe(1);
    expect(h.logs.some((l) => l.level === 'error' && /dead-letter/.test(l.message))).toBe(true);
  });

  it('requeues a first failure and dead-letters a failed redelivery (FailurePolicy requeue-once)', async () => {
    const dlx = await admin().exchange(uniqueName('dlx1'), 'fanout');
    const dlq = await admin().queue(uniqueName('dlq1'));
    await admin().ch.bindQueue(dlq, dlx, '');
    const q = await admin().queue(uniqueName('once'), { durable: false, deadLetterExchange: dlx });
    await admin().publish('', q, ['bad']);
    const { consumer } = start({ QueueName: q, FailurePolicy: 'requeue-once' });
    await waitFor(() => consumer.held.length === 1, 'delivery');
    consumer.remove(1, 'failed');
    await waitFor(() => consumer.held.length === 1, 'redelivery');
    consumer.remove(1, 'failed');
    await waitForCounts(dlq, (c) => c.ready === 1, 'dead-lettered after the second failure');
  });
});

describe('lifecycle', () => {
  it('stops by itself once the queue is idle in Mode non-daemon', async () => {
    const q = await admin().queue(uniqueName('nondaemon'));
    await admin().publish('', q, ['1', '2']);
    const { consumer, h } = start({ QueueName: q, Mode: 'non-daemon', ReceiveTime: '300' });
    consumer.setAuto('done');
    await waitFor(() => h.status.get().status === 'STOPPED', 'STOPPED', 5000);
    expect(consumer.seen).toHaveLength(2);
    await waitForCounts(q, (c) => c.consumers === 0 && c.unacked === 0, 'consumer gone');
  });

  it('keeps running on an idle queue in Mode daemon', async () => {
    const q = await admin().queue(uniqueName('daemon'));
    const { h } = start({ QueueName: q, Mode: 'daemon', ReceiveTime: '100' });
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await sleep(600);
    expect(h.status.get().status).toBe('RUNNING');
  });

  it('reconnects and resumes when the broker cancels its consumer (queue deleted and declared again)', async () => {
    const q = admin().track('queue', uniqueName('cancelled'));
    const { consumer, h } = start({ QueueName: q, IsPassive: 'false' });
    consumer.setAuto('done');
    await waitFor(() => h.status.get().status === 'RUNNING', 'RUNNING');
    await admin().ch.deleteQueue(q);
    await waitFor(() => (h.status.get().counters.connects ?? 0) >= 2, 'second connection');
    await admin().publish('', q, ['after']);
    await waitFor(() => consumer.seen.length === 1, 'message after the reconnect');
    expect(h.logs.filter((l) => l.level === 'warn' && /connection lost/.test(l.message))).toHaveLength(1);
  });

  it('closes a connection that comes up after it was stopped while connecting, and the broker gets its delivery back', async () => {
    const q = await admin().queue(uniqueName('late-connection'));
    await admin().publish('', q, ['m']);
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5672 });
    try {
      proxy.cut(); // the receiver's connection waits at the proxy: its connect is in flight
      const { h } = start({ QueueName: q, URI: `amqp://127.0.0.1:${proxy.port}/` });
      await waitFor(() => proxy.heldBytes > 0, 'the receiver connecting (its protocol header held at the proxy)');
      await h.stop();
      proxy.resume();
      await waitFor(() => proxy.relayed === 1, 'the held connection relayed to the broker');
      await waitFor(() => proxy.open === 0, 'the connection opened after the stop to be closed');
      await waitForCounts(q, (c) => c.consumers === 0 && c.unacked === 0 && c.ready === 1, 'the message back in the queue, no consumer left');
    } finally {
      await proxy.close();
    }
  });
});

describe('bad configuration', () => {
  it('reports a wrong password as FAILED, naming the component, without the password', async () => {
    const q = await admin().queue(uniqueName('auth'));
    const { h } = start({ QueueName: q, Password: 'not-the-password' });
    await waitFor(() => h.status.get().status === 'FAILED', 'FAILED');
    const detail = h.status.get().detail ?? '';
    expect(detail).toContain('rcvr_test');
    expect(detail).toMatch(/ACCESS.REFUSED/);
    expect(JSON.stringify(h.logs)).not.toContain('not-the-password');
  });

  it('keeps retrying an unreachable host (RETRYING with the reason) while other receivers keep running', async () => {
    const q = await admin().queue(uniqueName('other'));
    const bad = start({ QueueName: q, URI: 'amqp://127.0.0.1:5999/' });
    const good = start({ Name: 'rcvr_good', QueueName: q });
    await admin().publish('', q, ['still flowing']);
    await waitFor(() => good.consumer.seen.length === 1, 'the good receiver consuming');
    await waitFor(() => bad.h.status.get().status === 'RETRYING', 'RETRYING');
    expect(bad.h.status.get().detail).toMatch(/rcvr_test: connection to amqp:\/\/127\.0\.0\.1:5999\/ .*ECONNREFUSED/);
    await sleep(1000);
    expect(bad.h.status.get().status).toBe('RETRYING');
    expect(bad.h.logs.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('refuses an invalid property value with a clear error', () => {
    expect(() => AMQP_RECEIVER.settings!('r', { Name: 'r', QueueName: 'q', Priority: '12' }, '.', { pluginDirs: [] })).toThrow(
      /^r: Priority "12": expected a number from 0 to 9$/,
    );
  });
});
