/**
 * SIGKILL of a real `xroute run` in the middle of a reload (docs/operations.md#changing-a-running-flow), on the
 * system RabbitMQ: a queue moved to another queue with XAMode 1 (acknowledged only after the output confirmed) while
 * SIGHUP reloads a topology whose receiver changed (its StringProperty), so that each reload drains the receiver
 * and starts a new one. The process is killed once the log says a reload is applying and before its receipt. A
 * second process on the same file then finishes the input. Counted by message id: every message arrived (0 lost),
 * and the duplicates are at most one prefetch window (the link's Capacity: what the killed process held unacked).
 * Run with: npx jest --selectProjects fault --runInBand test/fault/reload-kill.test.ts (after npm run build)
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Admin, BROKER_URL, uniqueName, waitForCounts } from '../integration/amqp/amqp-kit';
import { Instance, startInstance } from '../integration/scaleout/instances';
import { waitFor } from '../support/wait';

jest.setTimeout(120_000);

const MESSAGES = 6_000;
const WINDOW = 64;

function topology(inQueue: string, outQueue: string, hostname: string) {
  const common = { URI: `${BROKER_URL}/`, IsPassive: 'true', MaxRetry: '0', DisplayMask: '0' };
  return {
    Name: 'reload-kill',
    Capacity: String(WINDOW),
    XAMode: '1',
    Receiver: ['rcvr_in'],
    Persister: ['pstr_out'],
    rcvr_in: {
      ClassName: 'org.qbroker.receiver.RMQReceiver',
      ...common,
      Operation: 'get',
      QueueName: inQueue,
      LinkName: 'moving',
      Mode: 'daemon',
      XAMode: '1',
      TextMode: '1',
      FailurePolicy: 'requeue',
      Tolerance: '0',
      StringProperty: { Hostname: hostname },
    },
    pstr_out: {
      ClassName: 'org.qbroker.persister.RMQPersister',
      ...common,
      Operation: 'pub',
      QueueName: outQueue,
      LinkName: 'moving',
      MaxInFlight: String(WINDOW),
      NackPolicy: 'retry',
    },
  };
}

let admin: Admin;
let dir: string;
const running: Instance[] = [];

beforeAll(async () => {
  admin = await Admin.open();
  dir = mkdtempSync(path.join(tmpdir(), 'xroute-reload-kill-'));
});
afterAll(async () => {
  await Promise.all(running.map((i) => i.stop()));
  await admin.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

it('loses nothing when killed in the middle of a reload; duplicates stay within one prefetch window', async () => {
  const inQueue = await admin.queue(uniqueName('reload-kill-in'), { durable: true });
  const outQueue = await admin.queue(uniqueName('reload-kill-out'), { durable: true });
  await admin.publishNumbered(inQueue, MESSAGES, 'm', Buffer.from('order'), { persistent: true });
  const file = path.join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(topology(inQueue, outQueue, 'broker1')));

  const first = startInstance(file, 'info', ['--keep-running']);
  running.push(first);
  await waitFor(async () => (await admin.ch.checkQueue(outQueue)).messageCount >= 200, 'the first messages moved', 30_000);
  // Reload after reload (each changes the receiver) until one is caught applying: killed the moment its log line
  // arrives, before its receipt.
  const receipts = () => first.lines.filter((l) => /reload (applied|rolled-back)/.test(l)).length;
  let reloads = 0;
  let killed = false;
  first.child.stderr?.on('data', (chunk: Buffer) => {
    const text = String(chunk);
    const applying = text.lastIndexOf('reload: applying');
    // A chunk that holds the receipt after the line came too late: that reload is over, try the next one.
    if (!killed && applying >= 0 && !/reload (applied|rolled-back)/.test(text.slice(applying))) {
      killed = true;
      first.child.kill('SIGKILL');
    }
  });
  while (!killed && reloads < 20) {
    reloads++;
    writeFileSync(file, JSON.stringify(topology(inQueue, outQueue, `broker${reloads + 1}`)));
    first.child.kill('SIGHUP');
    await waitFor(() => killed || receipts() >= reloads, 'the reload to apply, or the kill', 10_000);
  }
  await first.exited;
  const receiptAfterKill = receipts() >= reloads;
  const leftAtKill = (await admin.ch.checkQueue(inQueue)).messageCount;

  const second = startInstance(file, 'warn', ['--keep-running']);
  running.push(second);
  await waitForCounts(inQueue, (c) => c.ready === 0 && c.unacked === 0, 'the input drained by the second process', 60_000);
  await second.stop();
  const moved = await admin.drain(outQueue);
  const seen = new Map<string, number>();
  for (const m of moved) seen.set(m.properties.messageId ?? '?', (seen.get(m.properties.messageId ?? '?') ?? 0) + 1);
  const duplicates = moved.length - seen.size;
  console.log(
    `SIGKILL during reload ${reloads} (receiver replaced), ${leftAtKill} messages still queued: ${seen.size}/${MESSAGES} distinct, ${duplicates} duplicates (window ${WINDOW})`,
  );
  expect({ killedMidReload: killed && !receiptAfterKill, leftAtKill: leftAtKill > 0, distinct: seen.size, withinWindow: duplicates <= WINDOW }).toEqual({
    killedMidReload: true,
    leftAtKill: true,
    distinct: MESSAGES,
    withinWindow: true,
  });
});
