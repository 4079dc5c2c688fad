/**
 * Benchmark of the JMS side on a real ActiveMQ (ACTIVEMQ_URL, default amqp://127.0.0.1:5673), each against raw rhea
 * doing the same work at the same credit, interleaved in rounds in one process (alternating which goes first):
 *  - backlog receive: `messages` non-persistent 1 KB messages stored for an offline durable subscription, drained by
 *    a JMSSubscriber (XAMode 1, XQueue of CREDIT cells = credit CREDIT, a consumer removing at once) vs raw rhea
 *    (manual accept, credit_window 0, CREDIT credits re-granted one per accept); first delivery → last accept;
 *  - send: `messages` non-persistent 1 KB text messages to a queue by a JMSPersister (MaxInFlight CREDIT, a message
 *    leaves its input XQueue when the broker accepted it) vs raw rhea keeping CREDIT unsettled sends in flight;
 *    first send → last accept. Each round's queue is drained afterwards, so the broker does not fill up.
 * ratio = median over rounds of xroute rate / raw rate. Target >= 0.9.
 */
import rhea = require('rhea');
import { randomUUID } from 'crypto';
import { JMS_SUBSCRIBER } from '../../actors/receivers/jms-subscriber';
import { JMS_PERSISTER } from '../../actors/persisters/jms-persister';
import { runComponent, waitFor } from '../support/component-harness';
import { XQueue } from '../../src/xqueue/xqueue';
import { Message } from '../../src/message/message';
import { closeRheaConnection } from '../support/amqp10-test-client';
import type { BenchRow } from './bench-types';
import { compareRates } from './interleaved';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { activemqUrl, hostPort, probeAmqp10 } = require('../support/activemq-broker') as {
  activemqUrl(): string;
  hostPort(url: string): { host: string; port: number };
  probeAmqp10(host: string, port: number): Promise<boolean>;
};

const ROUNDS = 4;
const CREDIT = 100;
const URL_ = activemqUrl();
const { host: HOST, port: PORT } = hostPort(URL_);
const LOGIN = { username: process.env.ACTIVEMQ_USER ?? 'xroute', password: process.env.ACTIVEMQ_PASSWORD ?? 'xroute' };
const PAYLOAD = Buffer.alloc(1024, 'x');
const TEXT = 'x'.repeat(1024);

function connect(containerId?: string): rhea.Connection {
  return rhea.create_container(containerId ? { id: containerId } : {}).connect({ host: HOST, port: PORT, ...LOGIN, reconnect: false });
}

/** Runs `work` on a fresh connection, failing on any connection error. */
async function withConnection<T>(containerId: string | undefined, work: (conn: rhea.Connection, fail: (e: Error) => void) => Promise<T>): Promise<T> {
  const conn = connect(containerId);
  try {
    return await new Promise<T>((resolve, reject) => {
      conn.on('connection_error', (ctx) => reject(new Error(`connection error: ${String(ctx.connection.error)}`)));
      conn.on('disconnected', (ctx) => reject(new Error(`disconnected: ${String(ctx.error ?? 'closed')}`)));
      work(conn, reject).then(resolve, reject);
    });
  } finally {
    await closeRheaConnection(conn);
  }
}

function opened(link: rhea.Receiver | rhea.Sender): Promise<void> {
  return new Promise((resolve) => link.once(link.is_receiver() ? 'receiver_open' : 'sender_open', () => resolve()));
}

/** Creates the durable subscription (and detaches) so that it keeps what is published next. */
async function createSubscription(clientId: string, name: string, topic: string): Promise<void> {
  await withConnection(clientId, async (conn) => {
    const r = conn.open_receiver({ name, source: { address: `topic://${topic}`, durable: 2, expiry_policy: 'never' }, credit_window: 0, autoaccept: false });
    await opened(r);
    await new Promise<void>((resolve) => {
      r.once('receiver_close', () => resolve());
      r.detach();
    });
  });
}

async function removeSubscription(clientId: string, name: string): Promise<void> {
  await withConnection(clientId, async (conn) => {
    const r = conn.open_receiver({ name, source: null as never, credit_window: 0, autoaccept: false });
    await opened(r);
    await new Promise<void>((resolve) => {
      r.once('receiver_close', () => resolve());
      r.close();
    });
  }).catch(() => undefined);
}

/** Sends n 1 KB messages (non-persistent) to `address`, waiting for every accept. */
async function fill(address: string, n: number): Promise<void> {
  await withConnection(undefined, async (conn) => {
    const s = conn.open_sender({ target: { address } });
    await new Promise<void>((resolve) => {
      let sent = 0;
      let accepted = 0;
      const pump = () => {
        while (sent < n && s.sendable()) {
          s.send({ body: rhea.message.data_section(PAYLOAD), durable: false, application_properties: { n: sent++ } });
        }
      };
      s.on('sendable', pump);
      s.on('accepted', () => {
        if (++accepted === n) resolve();
      });
    });
  });
}

/** Consumes and accepts n messages from a queue (to empty it after a send round). */
async function empty(queue: string, n: number): Promise<void> {
  await withConnection(undefined, async (conn) => {
    const r = conn.open_receiver({ source: { address: `queue://${queue}` }, credit_window: 500 });
    let got = 0;
    await new Promise<void>((resolve) => r.on('message', () => ++got === n && resolve()));
  });
}

// ------------------------------------------------------------------------------------ backlog receive

async function backlog(n: number): Promise<{ topic: string; clientId: string }> {
  const topic = `bench.amq.${randomUUID().slice(0, 8)}`;
  const clientId = `bench-${randomUUID().slice(0, 8)}`;
  await createSubscription(clientId, 'bench', topic);
  await fill(`topic://${topic}`, n);
  return { topic, clientId };
}

async function receiveXroute(n: number): Promise<number> {
  const { topic, clientId } = await backlog(n);
  const out = new XQueue<Message>('bench-out', CREDIT);
  const h = runComponent(JMS_SUBSCRIBER, { config: { Name: 'bench', URI: URL_, Username: LOGIN.username, Password: LOGIN.password, TopicName: topic, ClientID: clientId, SubscriptionID: 'bench', Mode: 'daemon', XAMode: '1' }, output: out });
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
  } finally {
    out.detach(handle);
    await h.stop();
    await removeSubscription(clientId, 'bench');
  }
  return (n - 1) / ((last - first) / 1000);
}

async function receiveRaw(n: number): Promise<number> {
  const { topic, clientId } = await backlog(n);
  let first = 0;
  let last = 0;
  try {
    await withConnection(clientId, async (conn) => {
      const r = conn.open_receiver({ name: 'bench', source: { address: `topic://${topic}`, durable: 2, expiry_policy: 'never' }, autoaccept: false, credit_window: 0 });
      let count = 0;
      r.on('receiver_open', () => r.add_credit(CREDIT));
      await new Promise<void>((resolve) => {
        r.on('message', (ctx) => {
          if (count === 0) first = performance.now();
          ctx.delivery!.accept();
          r.add_credit(1);
          if (++count === n) {
            last = performance.now();
            resolve();
          }
        });
      });
      await new Promise((res) => setTimeout(res, 50)); // let the last accepts leave before the detach
      r.detach();
    });
  } finally {
    await removeSubscription(clientId, 'bench');
  }
  return (n - 1) / ((last - first) / 1000);
}

// ---------------------------------------------------------------------------------------------- send

async function sendXroute(n: number): Promise<number> {
  const queue = `bench-put-${randomUUID().slice(0, 8)}`;
  const input = new XQueue<Message>('bench-in', 1024);
  const h = runComponent(JMS_PERSISTER, { config: { Name: 'bench-put', URI: URL_, Username: LOGIN.username, Password: LOGIN.password, QueueName: queue, Persistence: '1', MaxInFlight: String(CREDIT) }, input });
  let done = 0;
  try {
    await waitFor(() => h.logs.some((l) => l.message === 'attached'), 'the persister attached', 30_000);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await input.put(Message.text(TEXT, { n: String(i) }), () => void done++);
    await waitFor(() => done === n, `${n} sends accepted`, 300_000);
    const rate = n / ((performance.now() - t0) / 1000);
    await empty(queue, n);
    return rate;
  } finally {
    await h.stop();
  }
}

async function sendRaw(n: number): Promise<number> {
  const queue = `bench-raw-${randomUUID().slice(0, 8)}`;
  let rate = 0;
  await withConnection(undefined, async (conn) => {
    const s = conn.open_sender({ target: { address: `queue://${queue}` }, autosettle: true });
    await opened(s);
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let sent = 0;
      let settled = 0;
      const pump = () => {
        while (sent < n && sent - settled < CREDIT && s.sendable()) {
          s.send({ body: TEXT, durable: false, application_properties: { n: String(sent++) }, message_annotations: { 'x-opt-jms-msg-type': 5 } });
        }
      };
      s.on('sendable', pump);
      s.on('accepted', () => {
        if (++settled === n) resolve();
        else pump();
      });
      pump();
    });
    rate = n / ((performance.now() - t0) / 1000);
  });
  await empty(queue, n);
  return rate;
}

export async function benchJmsActiveMQ(opts: { messages: number }): Promise<BenchRow[]> {
  if (!(await probeAmqp10(HOST, PORT))) throw new Error(`ActiveMQ is not reachable: nothing answers AMQP 1.0 at ${URL_} (ACTIVEMQ_URL); start ../shared/brokers/activemq/start-activemq.sh`);
  const n = opts.messages;
  const warm = Math.min(n, 2000);
  await receiveRaw(warm);
  await receiveXroute(warm);
  const receive = await compareRates(ROUNDS, () => receiveXroute(n), () => receiveRaw(n));
  await sendRaw(warm);
  await sendXroute(warm);
  const send = await compareRates(ROUNDS, () => sendXroute(n), () => sendRaw(n));
  return [
    { name: `JMSSubscriber backlog receive, ActiveMQ 5.17 AMQP 1.0, credit ${CREDIT}, XAMode 1 (median of ${ROUNDS} interleaved rounds of ${n})`, unit: 'msg/s', value: Math.round(receive.subject), baseline: Math.round(receive.baseline), ratio: Number(receive.ratio.toFixed(3)), target: '>= 0.9' },
    { name: `JMSPersister send, ActiveMQ 5.17 AMQP 1.0, ${CREDIT} in flight, non-persistent (median of ${ROUNDS} interleaved rounds of ${n})`, unit: 'msg/s', value: Math.round(send.subject), baseline: Math.round(send.baseline), ratio: Number(send.ratio.toFixed(3)), target: '>= 0.9' },
  ];
}

if (require.main === module) {
  benchJmsActiveMQ({ messages: Number(process.argv[2] ?? 20_000) }).then((rows) => {
    // eslint-disable-next-line no-console
    console.log(JSON.stringify(rows, null, 2));
  });
}
