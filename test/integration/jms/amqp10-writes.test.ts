/**
 * How sends reach the socket on a real broker (RabbitMQ's AMQP 1.0): rhea writes each frame with its own
 * socket.write, and Amqp10Connection.sendEncoded turns a tick's frames into one write.
 */
import type { Socket } from 'net';
import rhea = require('rhea');
import { Amqp10Connection } from '../../../src/transports/amqp10-connection';
import { chooseDialect } from '../../../src/transports/amqp10-dialect';
import { encodeAmqpMessage } from '../../../src/transports/amqp10-encoding';
import { deleteQueue, RABBIT } from '../../support/amqp10-test-client';
import { unique } from './jms-queue-kit';

jest.setTimeout(30_000);

const BURST = 50;

interface Writes {
  /** Calls of the socket's _write (one buffer) and _writev (several buffers at once). */
  single: number;
  batched: number;
  buffersInBatches: number;
}

/** Opens a sender to a fresh queue, sends BURST messages in one tick (through sendEncoded, or rhea's send) and counts the socket writes until all are accepted. */
async function sendBurst(throughSendEncoded: boolean): Promise<Writes> {
  const queue = unique('writes');
  const conn = await Amqp10Connection.open({ endpoint: { host: RABBIT.host, port: RABBIT.port, tls: false, username: 'guest', password: 'guest' } });
  try {
    const plan = await chooseDialect('auto', conn.remoteProperties).queueTarget(conn, queue);
    const sender = await conn.openSender({ target: plan.target as never });
    await new Promise<void>((resolve) => (sender.sendable() ? resolve() : sender.once('sendable', () => resolve())));
    const socket = (conn.raw as unknown as { socket: Socket & { _write: unknown; _writev: unknown } }).socket;
    const writes: Writes = { single: 0, batched: 0, buffersInBatches: 0 };
    const write = socket._write as (...a: unknown[]) => void;
    const writev = socket._writev as (chunks: unknown[], ...a: unknown[]) => void;
    socket._write = (...a: unknown[]) => {
      writes.single++;
      write.apply(socket, a);
    };
    socket._writev = (chunks: unknown[], ...a: unknown[]) => {
      writes.batched++;
      writes.buffersInBatches += chunks.length;
      writev.call(socket, chunks, ...a);
    };
    let accepted = 0;
    const all = new Promise<void>((resolve) => sender.on('accepted', () => ++accepted === BURST && resolve()));
    for (let i = 0; i < BURST; i++) {
      const bytes = encodeAmqpMessage({ message_id: `ID:w-${i}`, body: `message ${i}` });
      if (throughSendEncoded) conn.sendEncoded(sender, bytes);
      else sender.send(bytes, undefined, 0);
    }
    await all;
    socket._write = write;
    socket._writev = writev;
    return writes;
  } finally {
    await conn.close();
    await deleteQueue(queue);
  }
}

describe('Amqp10Connection socket writes', () => {
  it('sendEncoded sends a burst of messages sent in one tick in a single socket write', async () => {
    const writes = await sendBurst(true);
    expect({ single: writes.single, batched: writes.batched, buffersInBatches: writes.buffersInBatches }).toEqual({
      single: 0,
      batched: 1,
      buffersInBatches: BURST,
    });
  });

  it("rhea's own send writes every frame of the burst on its own", async () => {
    const writes = await sendBurst(false);
    expect(writes.single + writes.buffersInBatches).toBe(BURST);
    expect(writes.batched).toBeLessThan(BURST / 2);
    expect(writes.single).toBeGreaterThan(BURST / 2);
  });

  it('delivers what it encodes: a receiver on the queue gets each message id, property and body back', async () => {
    const queue = unique('encoded');
    const conn = await Amqp10Connection.open({ endpoint: { host: RABBIT.host, port: RABBIT.port, tls: false, username: 'guest', password: 'guest' } });
    try {
      const plan = await chooseDialect('auto', conn.remoteProperties).queueTarget(conn, queue);
      const sender = await conn.openSender({ target: plan.target as never });
      const sent = [0, 1, 2].map((i) => ({
        message_id: `ID:e-${i}`,
        durable: true,
        application_properties: { n: String(i), size: i + 2 },
        message_annotations: { 'x-opt-jms-msg-type': 5 },
        body: `é ${i} `.repeat(100),
      }));
      let accepted = 0;
      const all = new Promise<void>((resolve) => sender.on('accepted', () => ++accepted === sent.length && resolve()));
      for (const m of sent) conn.sendEncoded(sender, encodeAmqpMessage(m));
      await all;
      const receiver = await conn.openReceiver({ source: { address: plan.address } as never, credit_window: 10 });
      const got: rhea.Message[] = [];
      await new Promise<void>((resolve) => receiver.on('message', (ctx) => got.push(ctx.message as rhea.Message) === sent.length && resolve()));
      expect(got.map((m) => ({ message_id: m.message_id, durable: m.durable, application_properties: m.application_properties, body: m.body }))).toEqual(
        sent.map(({ message_annotations: _a, ...m }) => m),
      );
    } finally {
      await conn.close();
      await deleteQueue(queue);
    }
  });
});
