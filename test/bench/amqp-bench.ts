/**
 * Benchmark of AmqpReceiver and AmqpPersister (issue 4) against RabbitMQ, 1 KB non-persistent messages.
 *
 * Receive: RabbitMQ -> AmqpReceiver -> XQueue (Capacity = prefetch) -> a consumer actor that removes at once
 * -> ack (XAMode 1), against raw amqplib consume + ack per message at the same prefetch (100 and 1000).
 * Each run pre-fills its own queue with `messages` messages and times first delivery -> last ack.
 * Publish: an XQueue fed as fast as it takes -> AmqpPersister (confirms, MaxInFlight 1000) -> queue, against
 * raw amqplib ConfirmChannel streaming publishes with per-message confirm callbacks (honouring 'drain').
 * Times first publish -> last confirm (= last removal from the XQueue for xroute).
 * Raw and xroute runs are interleaved in rounds (alternating which goes first); ratio = median over rounds
 * of xroute rate / raw rate. Target >= 0.9.
 */
import * as amqplib from 'amqplib';
import { randomUUID } from 'crypto';
import { AMQP_RECEIVER } from '../../actors/receivers/amqp-receiver';
import { AMQP_PERSISTER } from '../../actors/persisters/amqp-persister';
import { ActorRuntime } from '../../src/runtime/actor';
import { ComponentConfig } from '../../src/runtime/component';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { runComponent, waitFor } from '../support/component-harness';
import type { BenchRow } from './bench-types';
import { compareRates } from './interleaved';
import { messageCountOrExit } from './script-args';

// Even, so each side runs first equally often.
const ROUNDS = 4;
const HOST = process.env.XROUTE_RABBITMQ_HOST ?? '127.0.0.1';
const PORT = Number(process.env.XROUTE_RABBITMQ_PORT ?? 5672);
export const BROKER = `amqp://guest:guest@${HOST}:${PORT}`;
const PAYLOAD = Buffer.alloc(1024, 'x');

async function withChannel<T>(work: (ch: amqplib.ConfirmChannel) => Promise<T>): Promise<T> {
  const conn = await amqplib.connect(BROKER);
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createConfirmChannel();
    ch.on('error', () => undefined);
    return await work(ch);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** A queue of `n` messages of PAYLOAD, each with `headers` (application properties) when given. */
export async function freshQueue(n: number, headers?: Record<string, string>): Promise<string> {
  const queue = `xroute.test.bench.${randomUUID().slice(0, 8)}`;
  await withChannel(async (ch) => {
    await ch.assertQueue(queue, { durable: false });
    for (let i = 0; i < n; i++) {
      if (!ch.sendToQueue(queue, PAYLOAD, { messageId: String(i), headers })) await new Promise((r) => ch.once('drain', r));
    }
    await ch.waitForConfirms();
  });
  return queue;
}

export async function dropQueue(queue: string): Promise<void> {
  await withChannel((ch) => ch.deleteQueue(queue)).catch(() => undefined);
}

/** Raw amqplib: consume + ack per message. */
export async function rawConsume(queue: string, n: number, prefetch: number): Promise<number> {
  const conn = await amqplib.connect(BROKER);
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createChannel();
    await ch.prefetch(prefetch);
    let count = 0;
    let first = 0;
    let last = 0;
    await new Promise<void>((resolve) => {
      void ch.consume(queue, (m) => {
        if (!m) return;
        if (count === 0) first = performance.now();
        ch.ack(m);
        if (++count === n) {
          last = performance.now();
          resolve();
        }
      });
    });
    return n / ((last - first) / 1000);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** xroute: AmqpReceiver -> XQueue -> consumer actor removing at once (ack happens on removal). */
export async function xrouteConsume(queue: string, n: number, prefetch: number): Promise<number> {
  const link = new XQueue<Message>('root', prefetch);
  const runtime = new ActorRuntime('bench');
  let count = 0;
  let first = 0;
  let last = 0;
  runtime.spawn<never>('consumer', () => ({
    start(ctx) {
      ctx.consume(link, (taken, q) => {
        if (count === 0) first = performance.now();
        q.remove(taken);
        if (++count === n) last = performance.now();
      });
    },
  }));
  const h = runComponent(AMQP_RECEIVER, { config: { Name: 'rcvr_bench', URI: BROKER, QueueName: queue, XAMode: '1' } as ComponentConfig, output: link });
  try {
    await waitFor(() => count >= n && (h.status.get().counters.acked ?? 0) >= n, 'all messages acked', 300_000);
    return n / ((last - first) / 1000);
  } finally {
    await h.stop();
    await runtime.stop();
  }
}

/** Raw amqplib ConfirmChannel: streamed publishes with per-message confirm callbacks. */
export async function rawPublish(queue: string, n: number): Promise<number> {
  return withChannel(async (ch) => {
    let confirmed = 0;
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      const ok = ch.publish('', queue, PAYLOAD, { messageId: String(i), mandatory: true }, (err) => {
        if (!err && ++confirmed === n) done();
      });
      if (!ok) await new Promise((r) => ch.once('drain', r));
    }
    await all;
    return n / ((performance.now() - start) / 1000);
  });
}

/** xroute: a producer filling an XQueue -> AmqpPersister -> confirms -> removal. */
export async function xroutePublish(queue: string, n: number, window = Number(process.env.XROUTE_BENCH_WINDOW ?? 1000)): Promise<number> {
  const link = new XQueue<Message>('root', window);
  const messages = Array.from({ length: n }, (_, i) => Message.bytes(PAYLOAD, {}, { JMSMessageID: String(i) }));
  const h = runComponent(AMQP_PERSISTER, {
    config: { Name: 'pstr_bench', URI: BROKER, RoutingKey: queue, MaxInFlight: String(window) } as ComponentConfig,
    input: link,
  });
  try {
    await waitFor(() => h.status.get().status === 'RUNNING', 'persister connected', 30_000);
    let removed = 0;
    let last = 0;
    // The time of the last removal is taken in the callback, as the raw side takes its last confirm.
    const onDone = () => {
      if (++removed === n) last = performance.now();
    };
    const start = performance.now();
    // Fed the way a receiver feeds a link: a free cell at once when there is one, else wait for one.
    for (const m of messages) if (link.offer(m, onDone) < 0) await link.put(m, onDone);
    await waitFor(() => removed === n, 'all confirmed', 300_000);
    return n / ((last - start) / 1000);
  } finally {
    await h.stop();
  }
}

async function compare(
  name: string,
  n: number,
  raw: (q: string) => Promise<number>,
  ours: (q: string) => Promise<number>,
  prefill: boolean,
): Promise<BenchRow> {
  // Each run gets a fresh queue (pre-filled with n messages for the receive rows), dropped afterwards.
  const onFreshQueue = (run: (q: string) => Promise<number>) => async () => {
    const q = await freshQueue(prefill ? n : 0);
    try {
      return await run(q);
    } finally {
      await dropQueue(q);
    }
  };
  const c = await compareRates(ROUNDS, onFreshQueue(ours), onFreshQueue(raw));
  return {
    name,
    unit: 'msg/s',
    value: Math.round(c.subject),
    baseline: Math.round(c.baseline),
    ratio: Number(c.ratio.toFixed(3)),
    target: '>= 0.9x raw amqplib',
  };
}

export async function benchAmqp(opts: { messages: number }): Promise<BenchRow[]> {
  const n = opts.messages;
  const rows: BenchRow[] = [];
  // Warm-up (JIT, broker): one short run of each, discarded.
  const warm = await freshQueue(2000);
  await xrouteConsume(warm, 2000, 100);
  await dropQueue(warm);
  for (const prefetch of [100, 1000]) {
    rows.push(
      await compare(
        `AmqpReceiver consume+ack XAMode 1, prefetch ${prefetch}, 1 KB`,
        n,
        (q) => rawConsume(q, n, prefetch),
        (q) => xrouteConsume(q, n, prefetch),
        true,
      ),
    );
  }
  rows.push(
    await compare(
      'AmqpPersister confirmed publish, MaxInFlight 1000, 1 KB',
      n,
      (q) => rawPublish(q, n),
      (q) => xroutePublish(q, n),
      false,
    ),
  );
  return rows;
}

if (require.main === module) {
  const n = messageCountOrExit(50_000, 'amqp-bench');
  benchAmqp({ messages: n }).then(
    (rows) => {
      console.table(rows);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
