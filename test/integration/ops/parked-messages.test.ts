/**
 * Issue 28 item 3 against RabbitMQ, as an operator meets it: a real `xroute run --admin` whose AmqpPersister
 * refuses every message (unroutable, ReturnPolicy fail) behind an AmqpReceiver with MaxAttempts 3. Each of 100
 * poison messages is parked once in the receiver's ParkingQueue (100, not 300), and /status, /metrics, /readyz,
 * `xroute status` and `xroute parked list` say so; the parked messages outlive an xroute restart; once the route is
 * fixed, `xroute parked retry` of 50 of them delivers exactly those 50 through the flow, and a retry killed with
 * SIGKILL halfway loses none of the other 50 (each parked or delivered, at most one window twice).
 */
import { ChildProcess, spawn } from 'child_process';
import { waitForOutput } from '../../support/process-output';
import { XROUTE_MAIN as MAIN, metric, runXroute, scratchDir, startXrouteRun, terminate, writeFlowFile } from '../../support/xroute-cli';
import { waitFor } from '../../support/component-harness';
import type { FlowStatus } from '../../../src/runtime/flow';
import type { ParkedMessageJson, Receipt } from '../../../src/parking/parked-store';
import { Admin, BROKER_URL, queueCounts, uniqueName, waitForCounts } from '../amqp/amqp-kit';

jest.setTimeout(180_000);

const POISON = 100;
const WINDOW = 5;
/** The admin token of the flow under test: retry and drop through its admin endpoint change state and need it. */
const ADMIN_ENV = { ...process.env, XROUTE_ADMIN_TOKEN: 'parked-messages-admin-token' };

const xroute = (...args: string[]) => runXroute(args, { maxBuffer: 1 << 26, env: ADMIN_ENV });

describe('100 poison messages through a flow with MaxAttempts 3 (RabbitMQ, real xroute run --admin)', () => {
  let admin: Admin;
  let child: ChildProcess | undefined;
  let file: string;
  let source: string;
  let parking: string;
  let exchange: string;
  let target: string;
  let url: string;
  const status = async (): Promise<FlowStatus> => (await (await fetch(`${url}/status`)).json()) as FlowStatus;
  const rcvr = async () => (await status()).components.find((c) => c.name === 'rcvr')!;
  const list = async (): Promise<ParkedMessageJson[]> => {
    const r = await xroute('parked', 'list', '--url', BROKER_URL, '--queue', parking, '--limit', '1000', '--json');
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as ParkedMessageJson[];
  };

  async function startXroute(): Promise<void> {
    ({ child, url } = await startXrouteRun(file, [], ADMIN_ENV));
  }

  const stopXroute = (): Promise<void> => terminate(child);

  beforeAll(async () => {
    admin = await Admin.open();
    source = await admin.queue(uniqueName('poison.src'));
    parking = admin.track('queue', uniqueName('poison.parking'));
    exchange = await admin.exchange(uniqueName('poison.route'), 'direct');
    target = await admin.queue(uniqueName('poison.dst'));
    await admin.publishNumbered(source, POISON, 'p', Buffer.from('poison'));
    file = writeFlowFile(
      {
        Name: 'parked',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: {
          ClassName: 'receiver.AmqpReceiver',
          URI: 'amqp://guest:guest@127.0.0.1:5672/',
          QueueName: source,
          MaxAttempts: '3',
          RedeliveryDelay: '5,20',
          ParkingQueue: parking,
          LinkName: 'in',
        },
        // No queue is bound for key "k" until the fix: every publish is returned, so every message fails.
        pstr: {
          ClassName: 'persister.AmqpPersister',
          URI: 'amqp://guest:guest@127.0.0.1:5672/',
          ExchangeName: exchange,
          RoutingKey: 'k',
          IsPassive: 'true',
          LinkName: 'in',
          Capacity: '16',
        },
      },
      scratchDir('xroute-parked-'),
    );
    await startXroute();
    await waitFor(async () => (await rcvr()).parked === POISON, `${POISON} messages parked`, 60_000);
  });

  afterAll(async () => {
    await stopXroute();
    await admin.cleanup();
  });

  it('parks each poison message once: 100 in the parking queue, none left in the source, 300 attempts counted apart', async () => {
    expect(await queueCounts(parking)).toMatchObject({ ready: POISON, unacked: 0 });
    await waitForCounts(source, (c) => c.ready === 0 && c.unacked === 0, 'the source emptied');
    const r = await rcvr();
    expect({
      parked: r.parked,
      messages: r.messages,
      counters: { attempts: r.counters.attempts, failed: r.counters.failed, parkedCount: r.counters.parked },
    }).toEqual({
      parked: POISON,
      messages: { in: POISON, done: 0, failed: POISON },
      counters: { attempts: 3 * POISON, failed: POISON, parkedCount: POISON },
    });
  });

  it('shows the parked messages in /metrics as xroute_parked_messages', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(metric(text, 'xroute_parked_messages', 'component="rcvr"')).toBe(POISON);
  });

  it('reports the flow degraded: /readyz 200 with the parked count, xroute status exit 4 naming the receiver', async () => {
    const res = await fetch(`${url}/readyz`);
    expect({ code: res.status, body: await res.json() }).toMatchObject({
      code: 200,
      body: { ready: true, degraded: true, parked: [{ component: 'rcvr', parked: POISON }] },
    });
    const s = await xroute('status', '--admin', url);
    expect(s.code).toBe(4);
    expect(s.stdout).toMatch(/^flow parked: DEGRADED \(100 messages parked\)/);
    expect(s.stdout).toMatch(/parked messages:\n {2}rcvr: 100 \(xroute parked list --component rcvr\)/);
  });

  it('lists every parked message with its origin queue, receiver, reason and attempts (xroute parked list)', async () => {
    const listed = await list();
    expect(listed.map((m) => m.properties.messageId).sort()).toEqual(Array.from({ length: POISON }, (_, i) => `p${i}`).sort());
    expect(new Set(listed.map((m) => m.id)).size).toBe(POISON);
    for (const m of listed)
      expect(m.origin).toMatchObject({ by: 'xroute', queue: source, receiver: 'rcvr', attempts: 3, reason: expect.stringMatching(/unroutable|return/i) });
    const table = await xroute('parked', 'list', '--url', BROKER_URL, '--queue', parking, '--limit', '3');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+ORIGIN\s+REASON\s+AGE\s+ATTEMPTS$/);
    expect(table.stdout.split('\n')[1]).toContain(source);
  });

  it('lists the same through the admin endpoint, and shows one message with its body, headers and properties', async () => {
    const listed = await xroute('parked', 'list', '--admin', url, '--component', 'rcvr', '--limit', '1000', '--json');
    const viaAdmin = JSON.parse(listed.stdout) as ParkedMessageJson[];
    expect(viaAdmin).toHaveLength(POISON);
    const shown = await xroute('parked', 'show', viaAdmin[0].id, '--admin', url, '--component', 'rcvr');
    expect(JSON.parse(shown.stdout)).toMatchObject({
      id: viaAdmin[0].id,
      body: 'poison',
      bodyEncoding: 'utf8',
      properties: { messageId: viaAdmin[0].properties.messageId },
      headers: { 'x-xroute-queue': source },
    });
  });

  it('still lists every parked message after xroute restarts', async () => {
    await stopXroute();
    await startXroute();
    expect((await list()).length).toBe(POISON);
    await waitFor(async () => (await rcvr()).parked === POISON, 'the restarted receiver counts them parked', 20_000);
  });

  it('delivers exactly the 50 retried messages to their origin once the route is fixed (xroute parked retry ID...)', async () => {
    await admin.ch.bindQueue(target, exchange, 'k');
    const chosen = (await list()).filter((_, i) => i % 2 === 0);
    const r = await xroute('parked', 'retry', ...chosen.map((m) => m.id), '--url', BROKER_URL, '--queue', parking, '--json');
    expect({ code: r.code, receipt: JSON.parse(r.stdout) as Receipt }).toMatchObject({
      code: 0,
      receipt: { selected: 50, delivered: 50, leftParked: 0, notFound: [] },
    });
    await waitForCounts(target, (c) => c.ready === 50, '50 messages through the fixed route', 30_000);
    const arrived = (await admin.drain(target)).map((m) => m.properties.messageId as string).sort();
    expect(arrived).toEqual(chosen.map((m) => m.properties.messageId as string).sort());
    expect(await queueCounts(parking)).toMatchObject({ ready: 50 });
    await waitFor(async () => (await rcvr()).parked === 50, 'the status counts 50 still parked', 10_000);
  });

  it('loses none of the other 50 when a retry is killed (SIGKILL) halfway: each is parked or delivered, at most one window twice', async () => {
    const rest = (await list()).map((m) => m.properties.messageId as string).sort();
    expect(rest).toHaveLength(50);
    const retry = spawn(
      process.execPath,
      [MAIN, 'parked', 'retry', '--all', '--url', BROKER_URL, '--queue', parking, '--window', String(WINDOW), '--rate', '50'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise((r) => retry.on('exit', r));
    await waitForOutput(retry, /delivered (1\d|2\d) of/, 20_000);
    retry.kill('SIGKILL');
    await exited;
    await waitForCounts(parking, (c) => c.unacked === 0, "the killed retry's messages back in the parking queue");
    await waitForCounts(source, (c) => c.ready === 0 && c.unacked === 0, 'what was delivered went through the flow', 30_000);
    const delivered = (await admin.drain(target)).map((m) => m.properties.messageId as string);
    const stillParked = (await list()).map((m) => m.properties.messageId as string);
    const both = delivered.filter((id) => stillParked.includes(id));
    expect({
      everyOneAccounted: [...new Set([...delivered, ...stillParked])].sort(),
      halfway: delivered.length > 0 && stillParked.length > 0,
      deliveredTwice: delivered.length - new Set(delivered).size,
      atMostOneWindowTwice: both.length <= WINDOW,
    }).toEqual({ everyOneAccounted: rest, halfway: true, deliveredTwice: 0, atMostOneWindowTwice: true });
  });

  it('retries the rest through the admin endpoint, after which nothing is parked and the flow is ready again (exit 0)', async () => {
    const left = (await list()).length;
    const r = await xroute('parked', 'retry', '--all', '--admin', url, '--component', 'rcvr', '--json');
    expect({ code: r.code, receipt: JSON.parse(r.stdout) as Receipt }).toMatchObject({ code: 0, receipt: { selected: left, delivered: left, leftParked: 0 } });
    await waitForCounts(target, (c) => c.ready === left, 'the rest through the flow', 30_000);
    await waitFor(async () => (await rcvr()).parked === 0, 'nothing parked', 10_000);
    const s = await xroute('status', '--admin', url);
    expect({ code: s.code, verdict: s.stdout.split('\n')[0] }).toMatchObject({ code: 0, verdict: expect.stringMatching(/^flow parked: ready/) });
  });
});
