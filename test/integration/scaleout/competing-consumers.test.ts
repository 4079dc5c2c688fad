/**
 * Competing consumers: three xroute processes run the same topology (config/amqp-move.json: a RabbitMQ
 * queue moved to an exchange, acked only after the publish is confirmed) on one queue. Nothing fails:
 * every message arrives exactly once. kill -9 of one process mid-run: nothing is lost, the others go on,
 * and the duplicates are at most the killed process's prefetch window (its link Capacity).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { uniqueName, waitForCounts } from '../amqp/amqp-kit';
import { Instance, scaleOutFixture } from './instances';
import { waitFor } from '../../support/wait';

jest.setTimeout(60_000);

const root = path.resolve(__dirname, '../../..');
const MESSAGES = 10_000;
const PREFETCH = 32;

const fixture = scaleOutFixture();
let instances: Instance[] = [];

async function setUp(): Promise<{ inQueue: string; outQueue: string }> {
  const config = JSON.parse(readFileSync(path.join(root, 'config/amqp-move.json'), 'utf8'));
  const inQueue = await fixture.admin().queue(uniqueName('compete-in'), { durable: true });
  const outExchange = await fixture.admin().exchange(uniqueName('compete-out'), 'topic', { durable: true });
  const outQueue = await fixture.admin().queue(uniqueName('compete-eu'));
  await fixture.admin().ch.bindQueue(outQueue, outExchange, 'orders.eu');
  config.Capacity = String(PREFETCH);
  config.rcvr_in.QueueName = inQueue;
  config.pstr_out.ExchangeName = outExchange;
  config.pstr_out.MaxInFlight = String(PREFETCH);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xroute-compete-')), 'amqp-move.json');
  writeFileSync(file, JSON.stringify(config));
  await fixture.admin().publishNumbered(inQueue, MESSAGES, 'm', Buffer.from('order'), { headers: { Region: 'eu' }, persistent: true });
  instances = [fixture.start(file), fixture.start(file), fixture.start(file)];
  return { inQueue, outQueue };
}

/** messageId -> how many times it arrived. */
function tally(ids: (string | undefined)[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const id of ids) seen.set(id ?? '?', (seen.get(id ?? '?') ?? 0) + 1);
  return seen;
}

it('processes every message exactly once with three processes on one queue', async () => {
  const { inQueue, outQueue } = await setUp();
  await waitForCounts(inQueue, (c) => c.ready === 0 && c.unacked === 0, 'the input drained', 45_000);
  const moved = await fixture.admin().drain(outQueue);
  const seen = tally(moved.map((m) => m.properties.messageId));
  expect(seen.size).toBe(MESSAGES);
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
});

it('loses nothing when one process is killed mid-run; duplicates stay within its prefetch window', async () => {
  const { inQueue, outQueue } = await setUp();
  // A passive declare answers at once (rabbitmqctl takes a second or more): kill early in the run.
  await waitFor(async () => (await fixture.admin().ch.checkQueue(outQueue)).messageCount >= MESSAGES / 20, 'the first messages moved', 30_000, 50);
  const victim = instances[0];
  victim.child.kill('SIGKILL');
  await victim.exited;
  const atKill = { ready: (await fixture.admin().ch.checkQueue(inQueue)).messageCount };
  await waitForCounts(inQueue, (c) => c.ready === 0 && c.unacked === 0, 'the input drained by the survivors', 45_000);
  const moved = await fixture.admin().drain(outQueue);
  const seen = tally(moved.map((m) => m.properties.messageId));
  const duplicates = moved.length - seen.size;
  console.log(
    `competing consumers, kill -9 of 1 of 3 processes with ${atKill.ready} messages still queued: ${seen.size}/${MESSAGES} distinct, ${duplicates} duplicates (prefetch window ${PREFETCH})`,
  );
  expect(seen.size).toBe(MESSAGES);
  expect(duplicates).toBeLessThanOrEqual(PREFETCH);
  expect(atKill.ready).toBeGreaterThan(0);
});
