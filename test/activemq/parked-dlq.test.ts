/**
 * `xroute parked --broker activemq` on ActiveMQ's DLQ (ActiveMQ.DLQ) over AMQP 1.0: a message rejected by its
 * consumer is dead-lettered by the broker; the list names its origin (the `to` a JMS client sets, which ActiveMQ
 * keeps) without consuming anything, and retry sends the selected ones home. The DLQ is shared: the test selects
 * its own messages by id.
 */
import rhea = require('rhea');
import type { ParkedCommandOptions } from '../../src/cli/parked-command';
import { CliRun, runParked } from '../support/parked-cli';
import type { ParkedMessageJson, Receipt } from '../../src/parking/parked-store';
import { closeRheaConnection } from '../support/amqp10-test-client';
import { ACTIVEMQ, Kit, publish, unique } from './activemq-kit';
import { JMS_RECEIVER } from '../../actors/receivers/jms-receiver';
import { waitFor } from '../support/component-harness';

jest.setTimeout(60_000);

const URL_WITH_LOGIN = `amqp://${ACTIVEMQ.username}:${ACTIVEMQ.password}@${ACTIVEMQ.host}:${ACTIVEMQ.port}`;

async function parked(action: ParkedCommandOptions['action'], more: Partial<ParkedCommandOptions> = {}): Promise<CliRun> {
  return runParked({ action, url: URL_WITH_LOGIN, queue: 'ActiveMQ.DLQ', broker: 'activemq', limit: 100_000, ...more });
}

/** Takes `n` messages from `queue`, settling each with `settle`; resolves with their ids. */
async function take(queue: string, n: number, settle: 'reject' | 'accept'): Promise<string[]> {
  const conn = rhea
    .create_container()
    .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const ids: string[] = [];
      const timer = setTimeout(() => reject(new Error(`only ${ids.length} of ${n} messages from ${queue}`)), 20_000);
      const receiver = conn.open_receiver({ source: { address: `queue://${queue}` }, autoaccept: false, credit_window: 10 });
      receiver.on('message', (ctx) => {
        ids.push(String(ctx.message?.message_id));
        if (settle === 'reject') ctx.delivery?.reject({ condition: 'xroute:test', description: 'poison' });
        else ctx.delivery?.accept();
        if (ids.length === n) {
          clearTimeout(timer);
          resolve(ids);
        }
      });
    });
  } finally {
    await closeRheaConnection(conn);
  }
}

async function dlqIds(ours: readonly string[]): Promise<ParkedMessageJson[]> {
  const r = await parked('list');
  expect(r.code).toBe(0);
  return (JSON.parse(r.out) as ParkedMessageJson[]).filter((m) => ours.includes(m.id));
}

it('lists dead-lettered messages with their origin, without consuming them, and retry sends the selected ones home', async () => {
  const origin = unique('xroute.parked.origin');
  const ids = [0, 1, 2].map((i) => `${origin}#${i}`);
  // As a JMS client sends: persistent (ActiveMQ dead-letters only those by default), `to` naming the destination.
  await publish(
    ACTIVEMQ,
    `queue://${origin}`,
    ids.map((id) => ({ message_id: id, durable: true, to: `queue://${origin}`, body: `order ${id}`, application_properties: { Region: 'eu' } })),
  );
  expect(await take(origin, 3, 'reject')).toEqual(ids);

  const listed = await dlqIds(ids);
  expect(listed.map((m) => ({ id: m.id, origin: m.origin.queue, by: m.origin.by, body: m.body, region: m.headers.Region }))).toEqual(
    ids.map((id) => ({ id, origin: `queue://${origin}`, by: 'activemq', body: `order ${id}`, region: 'eu' })),
  );
  expect((await dlqIds(ids)).length).toBe(3); // browsing took nothing

  const r = await parked('retry', { ids: [ids[0], ids[2]] });
  expect({ code: r.code, receipt: JSON.parse(r.out) as Receipt }).toMatchObject({
    code: 0,
    receipt: { selected: 2, delivered: 2, leftParked: 0, notFound: [] },
  });
  expect(await take(origin, 2, 'accept')).toEqual([ids[0], ids[2]]);
  expect((await dlqIds(ids)).map((m) => m.id)).toEqual([ids[1]]);

  const dropped = await parked('drop', { ids: [ids[1]] });
  expect(JSON.parse(dropped.out)).toMatchObject({ dropped: 1, notFound: [] });
  expect(await dlqIds(ids)).toEqual([]);
});

describe('a JMSReceiver with MaxAttempts (FailedOutcome release) on ActiveMQ', () => {
  const kit = new Kit();
  afterEach(() => kit.cleanup());

  it('parks each message that failed MaxAttempts times in its ParkingQueue, once, and retry sends them home', async () => {
    const source = unique('xroute.parking.src');
    const parking = unique('xroute.parking');
    const ids = [0, 1, 2, 3, 4].map((i) => `${source}#${i}`);
    await publish(
      ACTIVEMQ,
      `queue://${source}`,
      ids.map((id) => ({ message_id: id, durable: true, body: `order ${id}` })),
    );
    const { h, q } = kit.start(JMS_RECEIVER, {
      Name: 'rcvr_parking',
      Mode: 'daemon',
      XAMode: '1',
      QueueName: source,
      FailedOutcome: 'release',
      RedeliveryDelay: '10,20',
      MaxAttempts: '3',
      ParkingQueue: parking,
    });
    const attempts = new Map<string, number>();
    const consumer = q.attach('failing', () =>
      setImmediate(() => {
        for (let t = q.take(consumer); t; t = q.take(consumer)) {
          const id = String(t.item.headers.JMSMessageID);
          attempts.set(id, (attempts.get(id) ?? 0) + 1);
          q.remove(t, 'failed', 'test downstream refused it');
        }
      }),
    );
    // The counter moves as each message is parked; the parked count is read from the broker a little later.
    await waitFor(() => h.status.get().counters.parked === ids.length && h.status.parked() === ids.length, `${ids.length} parked`, 30_000);
    expect({ attempts: [...attempts.values()], parked: h.status.parked() }).toEqual({ attempts: ids.map(() => 3), parked: ids.length });
    await kit.stop(h);

    const listed = JSON.parse((await runParked({ action: 'list', broker: 'activemq', url: URL_WITH_LOGIN, queue: parking })).out) as ParkedMessageJson[];
    expect(
      listed.map((m) => ({
        messageId: m.properties.message_id,
        origin: m.origin.queue,
        receiver: m.origin.receiver,
        attempts: m.origin.attempts,
        reason: m.origin.reason,
      })),
    ).toEqual(ids.map((id) => ({ messageId: id, origin: `queue://${source}`, receiver: 'rcvr_parking', attempts: 3, reason: 'test downstream refused it' })));
    const r = await runParked({ action: 'retry', broker: 'activemq', url: URL_WITH_LOGIN, queue: parking, all: true });
    expect(JSON.parse(r.out)).toMatchObject({ selected: ids.length, delivered: ids.length, leftParked: 0 });
    expect(await take(source, ids.length, 'accept')).toEqual(ids);
  });
});
