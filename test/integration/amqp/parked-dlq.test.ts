/**
 * `xroute parked` on a RabbitMQ dead-letter queue that RabbitMQ itself fed (x-death): each message's origin is
 * named from its x-death header, and retry sends them home, at-least-once, without the dead-lettering headers.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { waitForOutput } from '../../support/process-output';
import type { ParkedCommandOptions } from '../../../src/cli/parked-command';
import { CliRun, runParked } from '../../support/parked-cli';
import type { ParkedMessageJson, Receipt } from '../../../src/parking/parked-store';
import { Admin, BROKER_URL, queueCounts, uniqueName, waitForCounts } from './amqp-kit';

jest.setTimeout(60_000);

const MAIN = path.resolve(__dirname, '../../../dist/src/cli/main.js');

let admin: Admin;
beforeAll(async () => {
  admin = await Admin.open();
});
afterAll(async () => {
  await admin.cleanup();
});

async function parked(action: ParkedCommandOptions['action'], queue: string, more: Partial<ParkedCommandOptions> = {}): Promise<CliRun> {
  return runParked({ action, url: BROKER_URL, queue, broker: 'rabbitmq', ...more });
}

/** A source queue whose rejected messages RabbitMQ dead-letters into a DLQ; `n` messages rejected there. */
async function deadLettered(n: number): Promise<{ origin: string; dlq: string; ids: string[] }> {
  const dlq = await admin.queue(uniqueName('dlq'));
  const origin = await admin.queue(uniqueName('dlq.origin'), { durable: false, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': dlq } });
  const ids = Array.from({ length: n }, (_, i) => `${origin}#${i}`);
  for (const id of ids) await admin.publish('', origin, ['bad order'], { messageId: id, headers: { Region: 'eu' } });
  const ch = await admin.conn.createChannel();
  let rejected = 0;
  await ch.consume(origin, (m) => {
    if (m) {
      ch.nack(m, false, false);
      rejected++;
    }
  });
  await waitForCounts(dlq, (c) => c.ready === n, `${n} dead-lettered`);
  await ch.close();
  expect(rejected).toBe(n);
  return { origin, dlq, ids };
}

it("names each dead-lettered message's origin queue, exchange and reason from its x-death header", async () => {
  const { origin, dlq, ids } = await deadLettered(4);
  const r = await parked('list', dlq);
  const listed = JSON.parse(r.out) as ParkedMessageJson[];
  expect(listed.map((m) => m.id)).toEqual(ids);
  for (const m of listed)
    expect(m.origin).toMatchObject({ by: 'rabbitmq', queue: origin, exchange: '', routingKeys: [origin], reason: 'rejected', attempts: 1 });
  // Listing consumed nothing.
  expect(await queueCounts(dlq)).toMatchObject({ ready: 4, unacked: 0 });
});

it('sends dead-lettered messages home with retry, without their x-death header, and leaves the others', async () => {
  const { origin, dlq, ids } = await deadLettered(5);
  const r = await parked('retry', dlq, { ids: [ids[1], ids[3]] });
  expect({ code: r.code, receipt: JSON.parse(r.out) as Receipt }).toMatchObject({
    code: 0,
    receipt: { selected: 2, delivered: 2, leftParked: 0, notFound: [] },
  });
  const home = await admin.drain(origin);
  expect(home.map((m) => m.properties.messageId)).toEqual([ids[1], ids[3]]);
  expect(home.map((m) => ({ body: m.content.toString(), region: m.properties.headers?.Region, death: m.properties.headers?.['x-death'] }))).toEqual([
    { body: 'bad order', region: 'eu', death: undefined },
    { body: 'bad order', region: 'eu', death: undefined },
  ]);
  expect((JSON.parse((await parked('list', dlq)).out) as ParkedMessageJson[]).map((m) => m.id)).toEqual([ids[0], ids[2], ids[4]]);
});

it('leaves a message parked and says why when its origin queue is gone, and --to sends it elsewhere', async () => {
  const { origin, dlq, ids } = await deadLettered(1);
  await admin.ch.deleteQueue(origin);
  const failed = await parked('retry', dlq, { all: true });
  expect({ code: failed.code, receipt: JSON.parse(failed.out) as Receipt }).toMatchObject({
    code: 1,
    receipt: { selected: 1, delivered: 0, leftParked: 1, problems: { 'unroutable (no such queue?)': 1 } },
  });
  await waitForCounts(dlq, (c) => c.ready === 1 && c.unacked === 0, 'the message still parked');
  const elsewhere = await admin.queue(uniqueName('elsewhere'));
  const moved = await parked('retry', dlq, { all: true, to: elsewhere });
  expect(JSON.parse(moved.out)).toMatchObject({ delivered: 1 });
  expect((await admin.drain(elsewhere)).map((m) => m.properties.messageId)).toEqual(ids);
});

it('drops only the selected messages and reports ids it did not find', async () => {
  const { dlq, ids } = await deadLettered(3);
  const r = await parked('drop', dlq, { ids: [ids[0], 'no-such-id'] });
  expect({ code: r.code, receipt: JSON.parse(r.out) as Receipt }).toMatchObject({ code: 1, receipt: { dropped: 1, notFound: ['no-such-id'] } });
  expect((JSON.parse((await parked('list', dlq)).out) as ParkedMessageJson[]).map((m) => m.id)).toEqual([ids[1], ids[2]]);
});

it('sends a parked message home with the delivery mode it had before it was parked persistent', async () => {
  const parking = await admin.queue(uniqueName('parking'));
  const origin = await admin.queue(uniqueName('parking.origin'));
  await admin.publish('', parking, ['x'], {
    messageId: 'm1',
    deliveryMode: 2,
    headers: { 'x-xroute-queue': origin, 'x-xroute-delivery-mode': 1, 'x-xroute-attempts': 3, Region: 'eu' },
  });
  expect(JSON.parse((await parked('retry', parking, { all: true })).out)).toMatchObject({ delivered: 1 });
  const [home] = await admin.drain(origin);
  expect({ mode: home.properties.deliveryMode, headers: home.properties.headers }).toEqual({
    mode: 1,
    headers: { Region: 'eu', 'x-xroute-retry-id': expect.any(String) },
  });
});

it('stops a retry on SIGINT after the window in progress, prints its receipt, and leaves every other message parked', async () => {
  const parking = await admin.queue(uniqueName('parking.sigint'));
  const origin = await admin.queue(uniqueName('parking.sigint.origin'));
  const ids = Array.from({ length: 20 }, (_, i) => `s${i}`);
  for (const id of ids) await admin.publish('', parking, ['x'], { messageId: id, headers: { 'x-xroute-queue': origin } });
  const child = spawn(process.execPath, [MAIN, 'parked', 'retry', '--all', '--url', BROKER_URL, '--queue', parking, '--window', '2', '--rate', '20'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  await waitForOutput(child, /delivered [2-9] of/);
  child.kill('SIGINT');
  expect(await exited).toBe(1);
  const receipt = /delivered (\d+), left parked 0\n {2}stopped \(SIGINT\): the messages not reached are still parked/.exec(out);
  expect(receipt).not.toBeNull();
  await waitForCounts(parking, (c) => c.unacked === 0, 'the rest back in place');
  const delivered = (await admin.drain(origin)).map((m) => m.properties.messageId as string);
  const stillParked = (await admin.drain(parking)).map((m) => m.properties.messageId as string);
  expect({ delivered: delivered.length, accounted: [...delivered, ...stillParked].sort() }).toEqual({
    delivered: Number(receipt![1]),
    accounted: [...ids].sort(),
  });
});
