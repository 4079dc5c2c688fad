/**
 * A JMSReceiver -> JMSPersister move (AMQP 1.0, XAMode 1) run by a real `xroute run` process that is restarted
 * (SIGTERM, then started again) 3 times while it moves 8,000 messages between two queues of the AMQP 1.0 test
 * node. The drain at each stop (docs/operations.md#stopping) keeps the receiver's link until every message it
 * handed to the persister is sent and accepted, so no message is lost and none is moved twice: counted by id in
 * the target queue.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { publishAmqp10, queueInfo, RABBIT_URI, withRabbitChannel } from '../../support/amqp10-test-client';
import { uniqueName } from '../amqp/amqp-kit';
import { Instance, startInstance } from '../scaleout/instances';
import { waitFor } from '../../support/wait';

jest.setTimeout(240_000);

const TOTAL = 8_000;
const RESTARTS = 3;

let running: Instance | undefined;
const queues: string[] = [];

afterAll(async () => {
  await running?.stop();
  await withRabbitChannel(async (ch) => {
    for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  });
});

function topology(source: string, target: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-jms-move-'));
  const login = { URI: RABBIT_URI, Username: 'guest', Password: 'guest' };
  const file = path.join(dir, 'topology.json');
  writeFileSync(
    file,
    JSON.stringify({
      Name: 'jms-move',
      Capacity: '64',
      Receiver: ['rcvr_source'],
      Persister: ['pstr_target'],
      rcvr_source: {
        ClassName: 'org.qbroker.receiver.JMSReceiver',
        Operation: 'get',
        ...login,
        QueueName: source,
        LinkName: 'move',
        Mode: 'daemon',
        XAMode: '1',
      },
      pstr_target: { ClassName: 'org.qbroker.persister.JMSPersister', Operation: 'put', ...login, QueueName: target, LinkName: 'move' },
    }),
  );
  return file;
}

const messageCount = async (queue: string) => (await queueInfo(queue))?.messageCount ?? 0;

/** Reads the whole queue (AMQP 0-9-1, no ack) and counts each id: the bodies are `m-<n>` in AMQP 1.0 sections. */
async function idsIn(queue: string, expected: number): Promise<Map<string, number>> {
  return withRabbitChannel(async (ch) => {
    const ids = new Map<string, number>();
    let seen = 0;
    await ch.prefetch(500);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${seen} of ${expected} messages of ${queue}`)), 60_000);
      void ch.consume(
        queue,
        (m) => {
          if (m === null) return;
          const id = /m-\d+/.exec(m.content.toString('latin1'))?.[0] ?? '?';
          ids.set(id, (ids.get(id) ?? 0) + 1);
          if (++seen === expected) {
            clearTimeout(timer);
            resolve();
          }
        },
        { noAck: true },
      );
    });
    return ids;
  });
}

it(`moves ${TOTAL} messages JMSReceiver -> JMSPersister through ${RESTARTS} SIGTERM restarts of xroute with 0 lost and 0 duplicated`, async () => {
  const source = uniqueName('jms-move-src');
  const target = uniqueName('jms-move-dst');
  queues.push(source, target);
  await withRabbitChannel(async (ch) => {
    await ch.assertQueue(source, { durable: true });
    await ch.assertQueue(target, { durable: true });
  });
  await publishAmqp10(
    `/amq/queue/${source}`,
    Array.from({ length: TOTAL }, (_, i) => ({ body: `m-${i}`, durable: true })),
  );
  const file = topology(source, target);

  const drains: string[] = [];
  const leftAtSignal: number[] = [];
  running = startInstance(file, 'info');
  for (let r = 1; r <= RESTARTS; r++) {
    const threshold = Math.round((TOTAL * r) / (RESTARTS + 2));
    await waitFor(async () => (await messageCount(target)) >= threshold, `${threshold} messages moved before restart ${r}`, 60_000, 50);
    leftAtSignal.push(await messageCount(source));
    const stopping = running;
    stopping.child.kill('SIGTERM');
    expect(await stopping.exited).toBe(0);
    drains.push(stopping.lines.find((l) => l.includes('"drain: '))?.replace(/.*"(drain: [^"]*)".*/, '$1') ?? 'no drain line');
    running = startInstance(file, 'info');
  }
  await waitFor(async () => (await messageCount(source)) === 0 && (await messageCount(target)) >= TOTAL, 'every message moved', 120_000, 50);
  await running.stop();
  running = undefined;

  const moved = await messageCount(target);
  const ids = await idsIn(target, moved);
  const lost = Array.from({ length: TOTAL }, (_, i) => `m-${i}`).filter((id) => !ids.has(id)).length;
  const duplicated = [...ids.values()].reduce((n, c) => n + (c - 1), 0);
  console.log(
    `JMS move, ${RESTARTS} SIGTERM restarts: ${TOTAL} sent, ${moved} in the target, ${lost} lost, ${duplicated} duplicated; left in the source at each signal: ${leftAtSignal.join(', ')}; ${drains.join('; ')}`,
  );
  expect({ lost, duplicated, moved, unknown: ids.get('?') ?? 0 }).toEqual({ lost: 0, duplicated: 0, moved: TOTAL, unknown: 0 });
  expect(leftAtSignal.every((n) => n > 0)).toBe(true);
});
