/**
 * The ActiveMQ path of the latency suite (latency-bench.ts): ActiveMQ queue -> JMSReceiver (XAMode 1) ->
 * JMSPersister -> ActiveMQ queue, against raw rhea doing the same at-least-once work (consume with manual accept,
 * send, accept the delivery once the broker accepted the send). ActiveMQ at ACTIVEMQ_URL (default
 * amqp://127.0.0.1:5673; ../shared/brokers/activemq/start-activemq.sh); without it the path fails, it does not skip.
 * ActiveMQ creates a queue on first use; each run's queues are left empty behind it.
 */
import rhea = require('rhea');
import { closeRheaConnection } from '../support/amqp10-test-client';
import { activemqUrl, hostPort } from '../support/activemq-broker';
import type { BrokerKit, MoverSide } from './latency-kit';
import { ArrivalLog, bodyFor, runQueueNames, sequenceOf } from './latency';

const URL_ = activemqUrl();
const { host: HOST, port: PORT } = hostPort(URL_);
const LOGIN = { username: process.env.ACTIVEMQ_USER ?? 'xroute', password: process.env.ACTIVEMQ_PASSWORD ?? 'xroute' };

/** A connection that is open, or the reason it could not be. */
function open(): Promise<rhea.Connection> {
  return new Promise((resolve, reject) => {
    const conn = rhea.create_container().connect({ host: HOST, port: PORT, ...LOGIN, reconnect: false });
    conn.once('connection_open', () => resolve(conn));
    conn.once('connection_error', (ctx) => reject(new Error(`ActiveMQ at ${URL_}: ${String(ctx.connection.error)}`)));
    conn.once('disconnected', (ctx) => reject(new Error(`ActiveMQ at ${URL_}: ${String(ctx.error ?? 'disconnected')}`)));
  });
}

function textOf(body: unknown): string {
  if (typeof body === 'string') return body;
  const content = (body as { content?: Buffer } | undefined)?.content;
  return content ? content.toString('utf8') : '';
}

export const ACTIVEMQ: BrokerKit = {
  async withQueues(work) {
    const { inQueue, outQueue } = runQueueNames();
    const conn = await open();
    try {
      const sender = conn.open_sender({ target: { address: inQueue } });
      // rhea refuses sends beyond the link credit and session window: what is due waits here, in order.
      const due: number[] = [];
      let next = 0;
      const pump = () => {
        while (next < due.length && sender.sendable()) sender.send({ body: bodyFor(due[next++]), durable: false });
      };
      sender.on('sendable', pump);
      const send = (seq: number) => {
        due.push(seq);
        pump();
      };
      return await work({
        inQueue,
        outQueue,
        async fill(n) {
          let accepted = 0;
          await new Promise<void>((resolve, reject) => {
            sender.on('accepted', () => {
              if (++accepted === n) resolve();
            });
            sender.on('rejected', () => reject(new Error(`ActiveMQ rejected a message for ${inQueue}`)));
            for (let i = 0; i < n; i++) send(i);
          });
        },
        send,
        async watch(log: ArrivalLog) {
          const receiver = conn.open_receiver({ source: { address: outQueue }, credit_window: 500 });
          receiver.on('message', (ctx) => log.arrive(sequenceOf(textOf(ctx.message?.body))));
          await new Promise((r) => receiver.once('receiver_open', r));
        },
      });
    } finally {
      await closeRheaConnection(conn);
    }
  },
};

/** Raw rhea: consume (credit `window`, manual accept), send, accept the delivery when the send is accepted. */
export function rawRheaMover(window: number): MoverSide {
  return {
    label: 'raw rhea',
    async start(inQueue, outQueue, trace) {
      const conn = await open();
      const sender = conn.open_sender({ target: { address: outQueue } });
      const receiver = conn.open_receiver({ source: { address: inQueue }, autoaccept: false, credit_window: window });
      const waiting = new Map<rhea.Delivery, rhea.Delivery>();
      const seqs = new Map<rhea.Delivery, number>();
      receiver.on('message', (ctx) => {
        if (!ctx.message || !ctx.delivery) return;
        const out = sender.send({ body: ctx.message.body, durable: false });
        waiting.set(out, ctx.delivery);
        if (trace) {
          const seq = sequenceOf(textOf(ctx.message.body));
          trace.markSeq('raw: delivered', seq);
          seqs.set(out, seq);
        }
      });
      const settle = (ctx: rhea.EventContext, ok: boolean) => {
        const incoming = ctx.delivery && waiting.get(ctx.delivery);
        if (!incoming || !ctx.delivery) return;
        waiting.delete(ctx.delivery);
        if (trace) {
          trace.markSeq('raw: accepted', seqs.get(ctx.delivery) ?? -1);
          seqs.delete(ctx.delivery);
        }
        if (ok) incoming.accept();
        else incoming.release();
      };
      sender.on('accepted', (ctx) => settle(ctx, true));
      sender.on('rejected', (ctx) => settle(ctx, false));
      sender.on('released', (ctx) => settle(ctx, false));
      await new Promise((r) => receiver.once('receiver_open', r));
      return () => closeRheaConnection(conn);
    },
  };
}

/** The xroute side: JMSReceiver (XAMode 1) -> JMSPersister, `window` cells and sends in flight. */
export function jmsMoveTopology(window: number): (inQueue: string, outQueue: string) => Record<string, unknown> {
  const login = { URI: URL_, Username: LOGIN.username, Password: LOGIN.password };
  return (inQueue, outQueue) => ({
    Name: 'latency-jms-move',
    Capacity: String(window),
    XAMode: '1',
    Receiver: ['rcvr_in'],
    Persister: ['pstr_out'],
    rcvr_in: { ClassName: 'org.qbroker.receiver.JMSReceiver', Operation: 'get', ...login, QueueName: inQueue, LinkName: 'move', Mode: 'daemon', XAMode: '1' },
    pstr_out: {
      ClassName: 'org.qbroker.persister.JMSPersister',
      Operation: 'put',
      ...login,
      QueueName: outQueue,
      LinkName: 'move',
      Persistence: '1',
      MaxInFlight: String(window),
    },
  });
}
