/**
 * Benchmark of the JMS side on a real ActiveMQ (ACTIVEMQ_URL, default amqp://127.0.0.1:5673), each against raw rhea
 * doing the same work at the same credit, interleaved in rounds in one process (alternating which goes first):
 *  - backlog receive: `messages` non-persistent 1 KB messages stored for an offline durable subscription, drained by
 *    a JMSSubscriber (XAMode 1, XQueue of CREDIT cells = credit CREDIT, a consumer removing at once) vs raw rhea
 *    (manual accept, credit_window 0, CREDIT credits re-granted one per accept, reading each message's id, time,
 *    body and properties into a plain object first, as any application does); first delivery → last accept;
 *  - send: `messages` non-persistent 1 KB text messages to a queue by a JMSPersister (MaxInFlight CREDIT, a message
 *    leaves its input XQueue when the broker accepted it) vs raw rhea keeping CREDIT unsettled sends in flight,
 *    each carrying what the JMSPersister's carry (a message id, a creation time, the destination, the text as an
 *    amqp-value string, x-opt-jms-msg-type, one property): first send → last accept. Each round's queue is drained
 *    afterwards, so the broker does not fill up.
 * ratio = median over rounds of xroute rate / raw rate. Target >= 0.9. Each comparison also reports the CPU time
 * the process spent per message on each side (process.cpuUsage over the same span): on a loaded machine the rates
 * swing with the scheduler, the CPU cost much less.
 * Run alone: node dist/test/bench/jms-activemq-bench.js [messages] (prints the load average with the rows)
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
import { compareRates, median, RateComparison } from './interleaved';
import { messageCountOrExit } from './script-args';
import { loadavg } from 'os';

import { activemqUrl, hostPort, probeAmqp10 } from '../support/activemq-broker';

// Single rounds on this shared 2-core machine range over 0.7-1.3x: the median needs more than a handful.
const ROUNDS = 8;
const WARM_UP = 3;
const CREDIT = 100;
const URL_ = activemqUrl();
const { host: HOST, port: PORT } = hostPort(URL_);
const LOGIN = { username: process.env.ACTIVEMQ_USER ?? 'xroute', password: process.env.ACTIVEMQ_PASSWORD ?? 'xroute' };
const PAYLOAD = Buffer.alloc(1024, 'x');
const TEXT = 'x'.repeat(1024);

/** A measured run: its rate and the CPU time this process spent per message (user + system) meanwhile. */
export interface Measured {
  readonly rate: number;
  readonly cpuUsPerMsg: number;
}

/** Wall clock and this process's CPU time from the first message to the last; n messages in between. */
class Span {
  private t0 = 0;
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };
  private result?: Measured;

  begin(): void {
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
  }

  end(n: number): void {
    const cpu = process.cpuUsage(this.cpu0);
    this.result = { rate: n / ((performance.now() - this.t0) / 1000), cpuUsPerMsg: (cpu.user + cpu.system) / n };
  }

  get measured(): Measured {
    if (!this.result) throw new Error('the span was not ended');
    return this.result;
  }
}

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

export async function receiveXroute(n: number): Promise<Measured> {
  const { topic, clientId } = await backlog(n);
  const out = new XQueue<Message>('bench-out', CREDIT);
  const h = runComponent(JMS_SUBSCRIBER, {
    config: {
      Name: 'bench',
      URI: URL_,
      Username: LOGIN.username,
      Password: LOGIN.password,
      TopicName: topic,
      ClientID: clientId,
      SubscriptionID: 'bench',
      Mode: 'daemon',
      XAMode: '1',
    },
    output: out,
  });
  const span = new Span();
  let count = 0;
  const handle = out.attach('bench-consumer', () => setImmediate(pull));
  function pull(): void {
    for (let t = out.take(handle); t; t = out.take(handle)) {
      if (count === 0) span.begin();
      out.remove(t);
      if (++count === n) span.end(n - 1);
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
  return span.measured;
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written, never read: a sink the optimiser cannot drop, so the raw consumer's reads happen
let handedOver = 0;

/**
 * What any consumer does with a message before it acknowledges it, as the JMSSubscriber does when it puts the
 * message on its link: reads its id, time, body and properties into the application's own form.
 */
function handOver(m: rhea.Message): void {
  const props: Record<string, unknown> = {};
  const ap = m.application_properties as Record<string, unknown> | undefined;
  if (ap) for (const k in ap) props[k] = ap[k];
  const body = m.body as { content?: Buffer } | string | undefined;
  handedOver +=
    (typeof body === 'string' ? body.length : (body?.content?.length ?? 0)) +
    (m.message_id === undefined ? 0 : 1) +
    (m.creation_time === undefined ? 0 : 1) +
    (props.n === undefined ? 0 : 1);
}

export async function receiveRaw(n: number): Promise<Measured> {
  const { topic, clientId } = await backlog(n);
  const span = new Span();
  try {
    await withConnection(clientId, async (conn) => {
      const r = conn.open_receiver({
        name: 'bench',
        source: { address: `topic://${topic}`, durable: 2, expiry_policy: 'never' },
        autoaccept: false,
        credit_window: 0,
      });
      let count = 0;
      r.on('receiver_open', () => r.add_credit(CREDIT));
      await new Promise<void>((resolve) => {
        r.on('message', (ctx) => {
          if (count === 0) span.begin();
          handOver(ctx.message!);
          ctx.delivery!.accept();
          r.add_credit(1);
          if (++count === n) {
            span.end(n - 1);
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
  return span.measured;
}

// ---------------------------------------------------------------------------------------------- send

export async function sendXroute(n: number): Promise<Measured> {
  const queue = `bench-put-${randomUUID().slice(0, 8)}`;
  const input = new XQueue<Message>('bench-in', 1024);
  const h = runComponent(JMS_PERSISTER, {
    config: {
      Name: 'bench-put',
      URI: URL_,
      Username: LOGIN.username,
      Password: LOGIN.password,
      QueueName: queue,
      Persistence: '1',
      MaxInFlight: String(CREDIT),
    },
    input,
  });
  let done = 0;
  const span = new Span();
  try {
    await waitFor(() => h.logs.some((l) => l.message === 'attached'), 'the persister attached', 30_000);
    span.begin();
    const onDone = () => {
      if (++done === n) span.end(n); // at the last accept, not at the next poll of waitFor
    };
    // As an upstream component feeds a link: at once while a cell is free, waiting only when the link is full.
    for (let i = 0; i < n; i++) {
      const msg = Message.text(TEXT, { n: String(i) });
      if (input.offer(msg, onDone) < 0) await input.put(msg, onDone);
    }
    await waitFor(() => done === n, `${n} sends accepted`, 300_000);
    await empty(queue, n);
    return span.measured;
  } finally {
    await h.stop();
  }
}

/**
 * What a JMS producer puts on the wire for the same message, as the JMSPersister does: a message id, a
 * creation time and the destination (a JMS send() sets JMSMessageID, JMSTimestamp and JMSDestination), the
 * text as an amqp-value string with x-opt-jms-msg-type 5, non-persistent, one string property.
 */
function rawText(i: number, to: string): rhea.Message {
  return {
    message_id: `ID:raw-${randomUUID()}`,
    creation_time: new Date(),
    to,
    durable: false,
    body: TEXT,
    application_properties: { n: String(i) },
    message_annotations: { 'x-opt-jms-msg-type': 5 },
  } as rhea.Message;
}

export async function sendRaw(n: number): Promise<Measured> {
  const queue = `bench-raw-${randomUUID().slice(0, 8)}`;
  const span = new Span();
  await withConnection(undefined, async (conn) => {
    const address = `queue://${queue}`;
    const s = conn.open_sender({ target: { address }, autosettle: true });
    await opened(s);
    span.begin();
    await new Promise<void>((resolve) => {
      let sent = 0;
      let settled = 0;
      const pump = () => {
        while (sent < n && sent - settled < CREDIT && s.sendable()) s.send(rawText(sent++, address));
      };
      s.on('sendable', pump);
      s.on('accepted', () => {
        if (++settled === n) resolve();
        else pump();
      });
      pump();
    });
    span.end(n);
  });
  await empty(queue, n);
  return span.measured;
}

/** Interleaved rounds (alternating which side goes first): the median rate ratio and the median CPU per message of each side. */
async function compareMeasured(
  rounds: number,
  subject: () => Promise<Measured>,
  baseline: () => Promise<Measured>,
): Promise<{ rate: RateComparison; cpuUs: { subject: number; baseline: number } }> {
  const cpuS: number[] = [];
  const cpuB: number[] = [];
  const rate = await compareRates(
    rounds,
    async () => {
      const m = await subject();
      cpuS.push(m.cpuUsPerMsg);
      return m.rate;
    },
    async () => {
      const m = await baseline();
      cpuB.push(m.cpuUsPerMsg);
      return m.rate;
    },
  );
  return { rate, cpuUs: { subject: median(cpuS), baseline: median(cpuB) } };
}

export async function benchJmsActiveMQ(opts: { messages: number; rounds?: number }): Promise<BenchRow[]> {
  if (!(await probeAmqp10(HOST, PORT)))
    throw new Error(`ActiveMQ is not reachable: nothing answers AMQP 1.0 at ${URL_} (ACTIVEMQ_URL); start ../shared/brokers/activemq/start-activemq.sh`);
  const n = opts.messages;
  const rounds = opts.rounds ?? ROUNDS;
  // Both sides and the broker (a JVM) speed up over the first runs of a process by 1.5-2x: measured rounds
  // start only once both have run WARM_UP times at full size.
  for (let i = 0; i < WARM_UP; i++) {
    await receiveRaw(n);
    await receiveXroute(n);
  }
  const receive = await compareMeasured(
    rounds,
    () => receiveXroute(n),
    () => receiveRaw(n),
  );
  for (let i = 0; i < WARM_UP; i++) {
    await sendRaw(n);
    await sendXroute(n);
  }
  const send = await compareMeasured(
    rounds,
    () => sendXroute(n),
    () => sendRaw(n),
  );
  const of = `median of ${rounds} interleaved rounds of ${n}`;
  const rateRow = (name: string, r: RateComparison): BenchRow => ({
    name: `${name} (${of})`,
    unit: 'msg/s',
    value: Math.round(r.subject),
    baseline: Math.round(r.baseline),
    ratio: Number(r.ratio.toFixed(3)),
    target: '>= 0.9',
  });
  // CPU per message of the whole process (xroute vs raw rhea): steadier than rates on a loaded machine. No target.
  const cpuRow = (name: string, c: { subject: number; baseline: number }): BenchRow => ({
    name: `${name}: CPU per message, xroute / raw (${of})`,
    unit: 'µs/msg',
    value: Number(c.subject.toFixed(1)),
    baseline: Number(c.baseline.toFixed(1)),
    ratio: Number((c.subject / c.baseline).toFixed(3)),
  });
  const receiveName = `JMSSubscriber backlog receive, ActiveMQ 5.17 AMQP 1.0, credit ${CREDIT}, XAMode 1`;
  const sendName = `JMSPersister send, ActiveMQ 5.17 AMQP 1.0, ${CREDIT} in flight, non-persistent`;
  return [rateRow(receiveName, receive.rate), cpuRow(receiveName, receive.cpuUs), rateRow(sendName, send.rate), cpuRow(sendName, send.cpuUs)];
}

if (require.main === module) {
  benchJmsActiveMQ({ messages: messageCountOrExit(20_000, 'jms-activemq-bench') }).then((rows) => {
    console.log(JSON.stringify({ loadAverage: loadavg().map((x) => Number(x.toFixed(2))), rows }, null, 2));
  });
}
