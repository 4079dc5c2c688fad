/**
 * AmqpReceiver's redelivery policy on the real RabbitMQ: a failing message is attempted again after a
 * back-off that doubles, is published to DeadLetterExchange after MaxAttempts (and only then acked), stays
 * parked when there is nowhere to dead-letter it, and is never lost. Also: acks stay correct when
 * downstream finishes in a random order, and a channel the broker closes over an error is logged at error
 * level and counted, not reported as an outage.
 */
import { AMQP_PERSISTER } from '../../../actors/persisters/amqp-persister';
import { ComponentConfig } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { Harness, harnessesStoppedAfterEach, runComponent, waitFor } from '../../support/component-harness';
import { RABBITMQ_CONNECTION, runAmqpReceiver } from '../../support/amqp-receiver-harness';
import { adminForFile, queueCounts, uniqueName, waitForCounts } from './amqp-kit';
import { sleep } from '../../support/wait';

jest.setTimeout(90_000);

const admin = adminForFile();
const harnesses = harnessesStoppedAfterEach();

function startReceiver(config: Record<string, unknown>, capacity = 50): { h: Harness; out: XQueue<Message> } {
  const started = runAmqpReceiver(config, { capacity });
  harnesses.push(started.h);
  return started;
}

/** A downstream that decides per message (done, failed with a reason) and records when it saw each attempt. */
function downstream(out: XQueue<Message>, decide: (m: Message, attempt: number) => { outcome: 'done' | 'failed'; delayMs?: number }) {
  const seen = new Map<string, number[]>();
  const handle = out.attach('downstream', () => setImmediate(pull));
  function pull(): void {
    for (let t = out.take(handle); t; t = out.take(handle)) {
      const taken: Taken<Message> = t;
      const id = taken.item.headers.JMSMessageID ?? '?';
      const times = seen.get(id) ?? [];
      times.push(Date.now());
      seen.set(id, times);
      const { outcome, delayMs = 0 } = decide(taken.item, times.length);
      const finish = () => out.remove(taken, outcome, outcome === 'failed' ? 'test downstream refused it' : undefined);
      if (delayMs > 0) setTimeout(finish, delayMs);
      else finish();
    }
  }
  return { seen, attempts: () => [...seen.values()].reduce((n, t) => n + t.length, 0) };
}

describe('redelivery policy', () => {
  it('waits the back-off delay, doubling, between attempts of a failing message, and keeps it unacked meanwhile', async () => {
    const q = await admin().queue(uniqueName('backoff'));
    await admin().publish('', q, ['poison'], { messageId: 'p1' });
    const { out } = startReceiver({ QueueName: q, RedeliveryDelay: '300,1200' });
    const d = downstream(out, () => ({ outcome: 'failed' }));
    await waitFor(() => (d.seen.get('p1')?.length ?? 0) >= 4, 'four attempts', 20_000);
    const t = d.seen.get('p1') as number[];
    const gaps = t.slice(1).map((x, i) => x - t[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(290);
    expect(gaps[1]).toBeGreaterThanOrEqual(590);
    expect(gaps[2]).toBeGreaterThanOrEqual(1190);
    expect(gaps[0]).toBeLessThan(gaps[1]);
    // Held by the receiver, not returned to the queue and not dropped.
    expect(await queueCounts(q)).toMatchObject({ ready: 0, unacked: 1 });
  });

  it('marks the attempts after the first as redelivered', async () => {
    const q = await admin().queue(uniqueName('flag'));
    await admin().publish('', q, ['x'], { messageId: 'f1' });
    const { out } = startReceiver({ QueueName: q, RedeliveryDelay: '50,50' });
    const flags: boolean[] = [];
    downstream(out, (m, attempt) => {
      flags.push(m.headers.JMSRedelivered === true);
      return { outcome: attempt < 2 ? 'failed' : 'done' };
    });
    await waitFor(() => flags.length === 2, 'two attempts');
    expect(flags).toEqual([false, true]);
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'acked after the successful attempt');
  });

  it('publishes a message to DeadLetterExchange after MaxAttempts and acks it only then, with the reason in its headers', async () => {
    const dlx = await admin().exchange(uniqueName('dlx'), 'fanout');
    const dlq = await admin().queue(uniqueName('dlq'));
    await admin().ch.bindQueue(dlq, dlx, '');
    const q = await admin().queue(uniqueName('maxatt'));
    await admin().publish('', q, ['bad'], { messageId: 'm1', headers: { Region: 'eu' } });
    const { h, out } = startReceiver({ QueueName: q, RedeliveryDelay: '100,200', MaxAttempts: '3', DeadLetterExchange: dlx });
    const d = downstream(out, () => ({ outcome: 'failed' }));
    await waitForCounts(dlq, (c) => c.ready === 1, 'the dead-lettered message');
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'the original acked');
    expect(d.seen.get('m1')).toHaveLength(3);
    const [dead] = await admin().drain(dlq);
    expect(dead.content.toString()).toBe('bad');
    expect(dead.properties.messageId).toBe('m1');
    expect(dead.properties.headers).toMatchObject({
      Region: 'eu',
      'x-xroute-failure': 'test downstream refused it',
      'x-xroute-attempts': 3,
      'x-xroute-queue': q,
    });
    expect(h.status.get().counters).toMatchObject({ deadLettered: 1, failed: 1, failedAttempts: 3, attempts: 3 });
  });

  it('parks a message in its ParkingQueue after MaxAttempts when no DeadLetterExchange is configured, with its origin and failure, and acks it only then', async () => {
    const q = await admin().queue(uniqueName('parked'));
    const parking = admin().track('queue', uniqueName('parking'));
    await admin().publish('', q, ['stuck'], { messageId: 's1', headers: { Region: 'eu' }, contentType: 'text/plain' });
    const { out } = startReceiver({ QueueName: q, RedeliveryDelay: '20,40', MaxAttempts: '2', ParkingQueue: parking });
    const d = downstream(out, () => ({ outcome: 'failed' }));
    await waitForCounts(parking, (c) => c.ready === 1, 'the parked message');
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'the original acked');
    expect(d.seen.get('s1')).toHaveLength(2);
    const [parked] = await admin().drain(parking);
    expect({ body: parked.content.toString(), messageId: parked.properties.messageId, contentType: parked.properties.contentType }).toEqual({
      body: 'stuck',
      messageId: 's1',
      contentType: 'text/plain',
    });
    expect(parked.properties.headers).toMatchObject({
      Region: 'eu',
      'x-xroute-queue': q,
      'x-xroute-exchange': '',
      'x-xroute-routing-key': q,
      'x-xroute-receiver': 'rcvr_test',
      'x-xroute-failure': 'test downstream refused it',
      'x-xroute-attempts': 2,
    });
    expect(parked.properties.headers?.['x-xroute-parked-at']).toBeGreaterThan(Date.now() - 60_000);
    // Persistent in the durable parking queue (a broker restart keeps it); the original mode is kept for a retry.
    expect({ mode: parked.properties.deliveryMode, original: parked.properties.headers?.['x-xroute-delivery-mode'] }).toEqual({ mode: 2, original: 1 });
  });

  it('counts a parked message once as failed and parked, and each hand-over as an attempt', async () => {
    const q = await admin().queue(uniqueName('counted'));
    const parking = admin().track('queue', uniqueName('parking'));
    await admin().publishNumbered(q, 2, 'c', Buffer.from('x'));
    const { h, out } = startReceiver({ QueueName: q, RedeliveryDelay: '10,20', MaxAttempts: '3', ParkingQueue: parking });
    downstream(out, (m) => ({ outcome: m.headers.JMSMessageID === 'c0' ? 'failed' : 'done' }));
    await waitForCounts(parking, (c) => c.ready === 1, 'the parked message');
    await waitFor(() => h.status.parked() === 1, 'the status counts it parked');
    expect({ counters: h.status.get().counters, totals: { in: h.status.totals.in, done: h.status.totals.done, failed: h.status.totals.failed } }).toMatchObject(
      {
        counters: { received: 2, attempts: 4, failedAttempts: 3, failed: 1, parked: 1, acked: 2 },
        totals: { in: 2, done: 1, failed: 1 },
      },
    );
  });

  it('declares its default parking queue, named after the receiver, when MaxAttempts is set without a DeadLetterExchange', async () => {
    const q = await admin().queue(uniqueName('default-parking'));
    admin().track('queue', 'xroute.parked.rcvr_test');
    const { h } = startReceiver({ QueueName: q, MaxAttempts: '3' });
    await waitFor(() => h.status.status === 'RUNNING', 'running');
    expect(await queueCounts('xroute.parked.rcvr_test')).toMatchObject({ ready: 0 });
  });

  it('loses nothing: with random failures every message ends acked exactly once or dead-lettered', async () => {
    const dlx = await admin().exchange(uniqueName('dlx-all'), 'fanout');
    const dlq = await admin().queue(uniqueName('dlq-all'));
    await admin().ch.bindQueue(dlq, dlx, '');
    const q = await admin().queue(uniqueName('mixed'));
    const N = 60;
    await admin().publishNumbered(q, N, 'n', Buffer.from('x'));
    const { out } = startReceiver({ QueueName: q, RedeliveryDelay: '20,80', MaxAttempts: '3', DeadLetterExchange: dlx }, 16);
    const doomed = new Set(Array.from({ length: N }, (_, i) => `n${i}`).filter(() => Math.random() < 0.2));
    const done = new Set<string>();
    downstream(out, (m, attempt) => {
      const id = m.headers.JMSMessageID as string;
      const fail = doomed.has(id) || (attempt === 1 && Math.random() < 0.3);
      if (!fail) done.add(id);
      return { outcome: fail ? 'failed' : 'done', delayMs: Math.floor(Math.random() * 10) };
    });
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'every message settled', 30_000);
    const dead = (await admin().drain(dlq)).map((m) => m.properties.messageId as string);
    expect(new Set(dead)).toEqual(doomed);
    expect(dead).toHaveLength(doomed.size);
    expect(done.size + doomed.size).toBe(N);
  });
});

describe('acknowledgement in any completion order', () => {
  it('acks messages that finish in a random order without a channel error or a redelivery', async () => {
    const q = await admin().queue(uniqueName('ooo'));
    const N = 500;
    await admin().publishNumbered(q, N, 'o', Buffer.from('x'));
    const { h, out } = startReceiver({ QueueName: q }, 32);
    let redelivered = 0;
    const d = downstream(out, (m) => {
      if (m.headers.JMSRedelivered) redelivered++;
      return { outcome: 'done', delayMs: Math.floor(Math.random() * 20) };
    });
    await waitForCounts(q, (c) => c.ready === 0 && c.unacked === 0, 'all acked', 60_000);
    await sleep(300);
    expect(d.seen.size).toBe(N);
    expect(d.attempts()).toBe(N);
    expect(redelivered).toBe(0);
    const counters = h.status.get().counters;
    expect(counters).toMatchObject({ received: N, acked: N, connects: 1 });
    expect(counters.channelErrors).toBeUndefined();
    expect(h.logs.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });
});

describe('channel errors', () => {
  it('logs a channel the broker closed at error level with its reason and counts it, without reporting an outage (AmqpPersister)', async () => {
    const ex = uniqueName('vanishing');
    admin().track('exchange', ex);
    const q = await admin().queue(uniqueName('vanishing-q'));
    const input = new XQueue<Message>('in', 10);
    const h = runComponent(AMQP_PERSISTER, {
      config: {
        Name: 'pstr_test',
        ClassName: 'org.qbroker.persister.RMQPersister',
        ...RABBITMQ_CONNECTION,
        ExchangeName: ex,
        ExchangeType: 'fanout',
        IsPassive: 'false',
        RoutingKey: 'k',
        ReturnPolicy: 'retry',
        RetryDelay: '200',
      } as ComponentConfig,
      input,
    });
    harnesses.push(h);
    await waitFor(() => h.status.status === 'RUNNING', 'running');
    await admin().ch.deleteExchange(ex);
    // A publish to the deleted exchange: the broker closes the channel with 404 NOT_FOUND.
    const outcomes: string[] = [];
    await input.put(Message.text('after the delete'), (_m, outcome) => outcomes.push(outcome));
    await waitFor(() => (h.status.get().counters.channelErrors ?? 0) === 1, 'the channel error counted');
    const errors = h.logs.filter((l) => l.level === 'error' && /closed the channel/.test(l.message));
    expect(errors).toHaveLength(1);
    expect(errors[0].meta).toMatchObject({ replyCode: 404, reason: expect.stringContaining('NOT_FOUND') });
    expect(h.logs.some((l) => /connection lost/.test(l.message))).toBe(false);
    // Re-opened at once (the exchange is declared again) and the message is published again: nothing lost.
    await waitFor(() => h.status.get().counters.connects === 2, 'the channel re-opened');
    expect(h.status.status).toBe('RUNNING');
    await admin().ch.bindQueue(q, ex, '');
    await waitFor(() => outcomes.length === 1, 'the message confirmed after the re-open');
    expect(outcomes).toEqual(['done']);
    expect((await admin().drain(q)).map((m) => m.content.toString())).toEqual(['after the delete']);
  });

  it('logs and counts a channel error of the receiver (its dead-letter exchange deleted) and loses no message', async () => {
    const dlx = await admin().exchange(uniqueName('dlx-gone'), 'fanout');
    const q = await admin().queue(uniqueName('dlx-gone-src'));
    const { h, out } = startReceiver({ QueueName: q, DeadLetterExchange: dlx, FailurePolicy: 'dead-letter' });
    downstream(out, () => ({ outcome: 'failed' }));
    await waitFor(() => h.status.status === 'RUNNING', 'running');
    await admin().ch.deleteExchange(dlx);
    await admin().publish('', q, ['bad'], { messageId: 'g1' });
    await waitFor(() => (h.status.get().counters.channelErrors ?? 0) === 1, 'the channel error counted', 20_000);
    expect(h.logs.filter((l) => l.level === 'error' && /closed the channel/.test(l.message))[0].meta).toMatchObject({ replyCode: 404 });
    expect(h.logs.some((l) => /connection lost/.test(l.message))).toBe(false);
    // Re-opening finds the DeadLetterExchange missing: a configuration error, not an outage; the message is back in its queue.
    await waitFor(() => h.status.status === 'FAILED', 'FAILED for the missing DeadLetterExchange', 20_000);
    // The re-opened channel refused during set-up is a failed attempt, not a second channel error.
    expect(h.status.get().counters.channelErrors).toBe(1);
    expect(h.status.get().detail).toMatch(/DeadLetterExchange/);
    await waitForCounts(q, (c) => c.ready === 1 && c.unacked === 0, 'the message back in its queue');
  });
});
