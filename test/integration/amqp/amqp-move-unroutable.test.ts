/**
 * The shipped config/amqp-move.json run as the README says, with nothing bound to its output exchange:
 * every publish is unroutable. The flow must back off instead of spinning (the log stays quiet: the first
 * failure, then a summary per 10 s) and lose nothing: once a queue is bound, every held message goes
 * through at its next attempt. Runs the built CLI (npm test builds dist first) on a copy of the
 * configuration with unique queue and exchange names.
 */
import { spawn } from 'child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Admin, uniqueName, waitForCounts } from './amqp-kit';
import { sleep } from '../../support/wait';
import { stopProcess } from '../../support/xroute-cli';

jest.setTimeout(90_000);

const root = path.resolve(__dirname, '../../..');
const MESSAGES = 100;

let admin: Admin;
beforeAll(async () => {
  admin = await Admin.open();
});
afterAll(async () => {
  await admin.cleanup();
});

it('backs off instead of spinning while nothing is bound to the output, and delivers everything once a queue is bound', async () => {
  const config = JSON.parse(readFileSync(path.join(root, 'config/amqp-move.json'), 'utf8'));
  const inQueue = admin.track('queue', uniqueName('move-in'));
  const outExchange = admin.track('exchange', uniqueName('move-out'));
  config.rcvr_in.QueueName = inQueue;
  config.pstr_out.ExchangeName = outExchange;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xroute-move-')), 'amqp-move.json');
  writeFileSync(file, JSON.stringify(config));
  await admin.queue(inQueue, { durable: true });
  for (let i = 0; i < MESSAGES; i++) admin.ch.sendToQueue(inQueue, Buffer.from(`m${i}`), { messageId: `m${i}`, headers: { Region: 'eu' } });
  await admin.ch.waitForConfirms();

  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'run', file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const collect = (d: Buffer) => lines.push(...String(d).split('\n').filter(Boolean));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  try {
    await waitForCounts(inQueue, (c) => c.unacked === MESSAGES, 'every message held by the receiver', 20_000);
    const before = lines.length;
    await sleep(5_000);
    const perSecond = (lines.length - before) / 5;
    console.log(`amqp-move with nothing bound: ${perSecond} log lines per second`);
    expect(perSecond).toBeLessThan(2);
    expect(lines.some((l) => /unroutable on exchange/.test(l))).toBe(true);

    // Bind a queue as the README says: the held messages go through at their next attempt.
    const outQueue = await admin.queue(uniqueName('move-eu'));
    await admin.ch.bindQueue(outQueue, outExchange, 'orders.eu');
    await waitForCounts(outQueue, (c) => c.ready === MESSAGES, 'every message moved', 30_000);
    await waitForCounts(inQueue, (c) => c.ready === 0 && c.unacked === 0, 'the input drained');
    const moved = await admin.drain(outQueue);
    expect(new Set(moved.map((m) => m.properties.messageId)).size).toBe(MESSAGES);
  } finally {
    expect(await stopProcess(child, 'SIGINT', undefined, () => lines.join('\n'))).toBe(0);
  }
});
