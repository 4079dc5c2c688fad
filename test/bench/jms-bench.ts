/**
 * Benchmark of the JMSSubscriber (issue 5) on RabbitMQ's AMQP 1.0, backlog mode (pure receive ceiling):
 *   xroute: topic → durable subscription queue → JMSSubscriber → XQueue → a consumer that removes at once →
 *           accept (XAMode 1), credit = Capacity (100);
 *   raw:    the same backlog consumed by raw rhea with manual accept and the same credit (100, re-granted
 *           one by one after each accept).
 * The two run interleaved in rounds in one process (alternating which goes first); each round pre-publishes
 * `messages` non-persistent 1 KB messages to its subscription queue, then times first delivery → last accept.
 * ratio = median over rounds of xroute rate / raw rate. Target >= 0.9.
 * Plus the cost of evaluating a JMS selector on an AMQP message, on its own (ns per message).
 */
import rhea = require('rhea');
import * as amqplib from 'amqplib';
import { randomUUID } from 'crypto';
import { JMS_SUBSCRIBER } from '../../actors/receivers/jms-subscriber';
import { runComponent, waitFor } from '../support/component-harness';
import { XQueue } from '../../src/xqueue/xqueue';
import { Message } from '../../src/message/message';
import { JmsSelector } from '../../src/jms/selector';
import { amqpSelectorSource } from '../../src/transports/amqp10-mapping';
import { splitObjects } from '../../src/transports/amqp10-dialect';
import { closeRheaConnection } from '../support/amqp10-test-client';
import { ensureRabbitMQ } from '../support/broker';
import type { BenchRow } from './bench-types';
import { compareRates, median } from './interleaved';
import { messageCountOrExit } from './script-args';

const ROUNDS = 4;
const CREDIT = 100;
const HOST = process.env.XROUTE_RABBITMQ_HOST ?? '127.0.0.1';
const PORT = Number(process.env.XROUTE_RABBITMQ_PORT ?? 5672);
const PAYLOAD = Buffer.alloc(1024, 'x');
/** Deliveries beyond the credit (RabbitMQ overshoot) per xroute round: taken into a free cell, or released. */
const overshoots: { overshoot: number; released: number }[] = [];

async function withChannel<T>(work: (ch: amqplib.ConfirmChannel) => Promise<T>): Promise<T> {
  const conn = await amqplib.connect(`amqp://guest:guest@${HOST}:${PORT}`);
  conn.on('error', () => undefined);
  try {
    return await work(await conn.createConfirmChannel());
  } finally {
    await conn.close().catch(() => undefined);
  }
}

async function fill(queue: string, key: string, n: number): Promise<void> {
  await withChannel(async (ch) => {
    await ch.assertQueue(queue, { durable: true });
    await ch.bindQueue(queue, 'amq.topic', key);
    for (let i = 0; i < n; i++) {
      if (!ch.publish('amq.topic', key, PAYLOAD, { headers: { n: i } })) await new Promise((r) => ch.once('drain', r));
    }
    await ch.waitForConfirms();
  });
}

async function dropQueue(queue: string): Promise<void> {
  await withChannel(async (ch) => {
    await ch.deleteQueue(queue);
  }).catch(() => undefined);
}

/** The subscription queue with the side queue and exchanges of its split (src/transports/amqp10-dialect.ts). */
async function dropSubscription(queue: string): Promise<void> {
  const { queues, exchanges } = splitObjects(queue);
  await withChannel(async (ch) => {
    for (const name of queues) await ch.deleteQueue(name);
    for (const name of exchanges) await ch.deleteExchange(name);
  }).catch(() => undefined);
}

/** xroute: messages/s from first take to last removal (= accept sent). */
async function runXroute(n: number): Promise<number> {
  const key = `bench.x.${randomUUID().slice(0, 8)}`;
  const clientId = `bench-${randomUUID().slice(0, 8)}`;
  const queue = `${clientId}.bench`;
  await fill(queue, key, n);
  const out = new XQueue<Message>('bench-out', CREDIT);
  const h = runComponent(JMS_SUBSCRIBER, {
    config: {
      Name: 'bench',
      URI: `amqp://${HOST}:${PORT}`,
      Username: 'guest',
      Password: 'guest',
      TopicName: key,
      ClientID: clientId,
      SubscriptionID: 'bench',
      Mode: 'daemon',
      XAMode: '1',
      Dialect: 'rabbitmq',
    },
    output: out,
  });
  let first = 0;
  let last = 0;
  let count = 0;
  const handle = out.attach('bench-consumer', () => setImmediate(pull));
  function pull(): void {
    for (let t = out.take(handle); t; t = out.take(handle)) {
      if (count === 0) first = performance.now();
      out.remove(t);
      if (++count === n) last = performance.now();
    }
  }
  try {
    await waitFor(() => count === n, `${n} messages through xroute`, 300_000);
    await waitFor(() => (h.status.get().counters.acked ?? 0) === n, 'every accept', 30_000);
    const c = h.status.get().counters;
    overshoots.push({ overshoot: c.overshoot ?? 0, released: c.released ?? 0 });
  } finally {
    out.detach(handle);
    await h.stop();
    await dropSubscription(queue);
  }
  return (n - 1) / ((last - first) / 1000);
}

/** raw rhea: manual accept, credit_window 0, CREDIT credits re-granted one per accept. */
async function runRaw(n: number): Promise<number> {
  const key = `bench.r.${randomUUID().slice(0, 8)}`;
  const queue = `bench-raw-${randomUUID().slice(0, 8)}`;
  await fill(queue, key, n);
  const container = rhea.create_container();
  const conn = container.connect({ host: HOST, port: PORT, username: 'guest', password: 'guest', reconnect: false });
  let first = 0;
  let last = 0;
  let count = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const receiver = conn.open_receiver({ source: { address: `/amq/queue/${queue}` }, autoaccept: false, credit_window: 0 });
      receiver.on('receiver_open', () => receiver.add_credit(CREDIT));
      receiver.on('message', (ctx) => {
        if (count === 0) first = performance.now();
        ctx.delivery!.accept();
        receiver.add_credit(1);
        if (++count === n) {
          last = performance.now();
          resolve();
        }
      });
      conn.on('connection_error', () => reject(new Error('raw connection error')));
      receiver.on('receiver_error', () => reject(new Error('raw receiver error')));
    });
  } finally {
    await closeRheaConnection(conn);
    await dropQueue(queue);
  }
  return (n - 1) / ((last - first) / 1000);
}

function selectorCost(): BenchRow {
  const selector = JmsSelector.compile("(colour = 'red' AND qty > 2) OR (JMSPriority BETWEEN 5 AND 9 AND region LIKE 'eu-%') OR code IN ('A', 'B', 'C')");
  const messages = Array.from({ length: 1000 }, (_, i) => ({
    priority: i % 10,
    application_properties: { colour: i % 3 ? 'red' : 'blue', qty: i % 7, region: i % 2 ? 'eu-west' : 'us-east', code: 'Z' },
  }));
  let selected = 0;
  const iterations = 200;
  for (const m of messages) if (selector.matches(amqpSelectorSource(m))) selected++; // warm-up
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < iterations; k++) for (const m of messages) if (selector.matches(amqpSelectorSource(m))) selected++;
  const ns = Number(process.hrtime.bigint() - t0) / (iterations * messages.length);
  return {
    name: `jms selector evaluation (5 comparisons, LIKE, IN, BETWEEN; ${selected > 0 ? 'some' : 'none'} selected)`,
    unit: 'ns/message',
    value: Math.round(ns),
  };
}

export async function benchJms(opts: { messages: number }): Promise<BenchRow[]> {
  await ensureRabbitMQ();
  const n = opts.messages;
  // one discarded warm-up of each
  await runRaw(Math.min(n, 2000));
  await runXroute(Math.min(n, 2000));
  const c = await compareRates(
    ROUNDS,
    () => runXroute(n),
    () => runRaw(n),
  );
  return [
    {
      name: `JMSSubscriber backlog receive, RabbitMQ AMQP 1.0, credit ${CREDIT}, XAMode 1 (median of ${ROUNDS} interleaved rounds of ${n})`,
      unit: 'msg/s',
      value: Math.round(c.subject),
      baseline: Math.round(c.baseline),
      ratio: Number(c.ratio.toFixed(3)),
      target: '>= 0.9',
    },
    {
      name: 'JMSSubscriber: deliveries RabbitMQ sent beyond the credit (kept in the overflow list; released)',
      unit: 'messages/round',
      value: Math.round(median(overshoots.map((o) => o.overshoot))),
      baseline: Math.round(median(overshoots.map((o) => o.released))),
    },
    selectorCost(),
  ];
}

if (require.main === module) {
  benchJms({ messages: messageCountOrExit(20_000, 'jms-bench') }).then((rows) => {
    console.log(JSON.stringify(rows, null, 2));
  });
}
