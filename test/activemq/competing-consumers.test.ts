/**
 * Competing consumers on a JMS queue: three xroute processes (the built CLI, as an operator runs it) with the
 * same topology — a JMSReceiver on one ActiveMQ queue, XAMode 1, into a JMSPersister to an output queue — so a
 * message is accepted on the input only after the output queue accepted its copy. Nothing fails: every
 * message arrives exactly once. kill -9 of one process mid-run: nothing is lost, the other two go on, and
 * the duplicates are at most the killed process's credit window (its link Capacity: the receiver grants
 * credit only for free cells, so it never holds more unaccepted messages than that).
 *
 * The three topology files differ only in the StringProperty `Instance` the receiver stamps on each message
 * (p0, p1, p2), so the output tells which process moved which message.
 */
import rhea = require('rhea');
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { closeRheaConnection } from '../support/amqp10-test-client';
import { Instance, startInstance } from '../integration/scaleout/instances';
import { waitFor } from '../support/wait';
import { ACTIVEMQ, jmsMoveTopology, publish, unique } from './activemq-kit';

jest.setTimeout(120_000);

const MESSAGES = 6_000;
const CREDIT = 32;
/** How long the output must stay quiet before its count is final (a late duplicate would arrive within it). */
const QUIET_MS = 1_500;

let instances: Instance[] = [];
const outputs: Output[] = [];

afterEach(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  instances = [];
  await Promise.all(outputs.splice(0).map((o) => o.close()));
});

/** Everything that reaches the output queue, by message id and by the process that moved it. */
class Output {
  readonly times = new Map<string, number>();
  readonly byInstance = new Map<string, number>();
  deliveries = 0;
  lastAt = Date.now();
  private readonly conn: rhea.Connection;

  constructor(queue: string) {
    this.conn = rhea
      .create_container()
      .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
    const r = this.conn.open_receiver({ source: { address: `queue://${queue}` }, credit_window: 500 });
    r.on('message', (ctx) => {
      const id = String(ctx.message?.message_id);
      const by = String(ctx.message?.application_properties?.Instance);
      this.deliveries++;
      this.lastAt = Date.now();
      this.times.set(id, (this.times.get(id) ?? 0) + 1);
      this.byInstance.set(by, (this.byInstance.get(by) ?? 0) + 1);
    });
  }

  get distinct(): number {
    return this.times.size;
  }

  get duplicates(): number {
    return this.deliveries - this.distinct;
  }

  /** Resolves once every one of `n` messages arrived and nothing more came for QUIET_MS. */
  async settled(n: number, timeoutMs: number): Promise<void> {
    await waitFor(() => this.distinct >= n && Date.now() - this.lastAt >= QUIET_MS, `${n} distinct messages on the output, then quiet`, timeoutMs, 50);
  }

  close(): Promise<void> {
    return closeRheaConnection(this.conn);
  }
}

/** Messages still on `queue` (each is consumed, so call this only when the consumers are gone). */
async function leftOn(queue: string): Promise<number> {
  const conn = rhea
    .create_container()
    .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
  try {
    let got = 0;
    conn.open_receiver({ source: { address: `queue://${queue}` }, credit_window: 500 }).on('message', () => got++);
    await new Promise((r) => setTimeout(r, 1000));
    return got;
  } finally {
    await closeRheaConnection(conn);
  }
}

/** Starts the three processes, then publishes; `published` resolves when the broker has every message. */
async function setUp(): Promise<{ inQueue: string; out: Output; published: Promise<void> }> {
  const inQueue = unique('compete-in');
  const outQueue = unique('compete-out');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-jms-compete-'));
  const out = new Output(outQueue);
  outputs.push(out);
  instances = ['p0', 'p1', 'p2'].map((name) => {
    const file = path.join(dir, `jms-move-${name}.json`);
    writeFileSync(file, JSON.stringify(jmsMoveTopology(inQueue, outQueue, name, CREDIT)));
    return startInstance(file, 'info');
  });
  // All three consume before the first message exists, so that none finds the queue already drained.
  await waitFor(() => instances.every((i) => i.lines.some((l) => l.includes('"subscribed"'))), 'the three receivers subscribed', 60_000, 50);
  const published = publish(
    ACTIVEMQ,
    `queue://${inQueue}`,
    Array.from({ length: MESSAGES }, (_, i) => ({ body: `order ${i}`, message_id: `m${i}`, durable: true })),
  );
  return { inQueue, out, published };
}

function counts(out: Output, extra: Record<string, unknown> = {}): string {
  const lost = MESSAGES - out.distinct;
  return JSON.stringify({ sent: MESSAGES, processed: out.distinct, lost, duplicated: out.duplicates, byProcess: Object.fromEntries(out.byInstance), ...extra });
}

it('processes every message of a JMS queue exactly once with three processes consuming it', async () => {
  const { inQueue, out, published } = await setUp();
  await published;
  await out.settled(MESSAGES, 90_000);
  await Promise.all(instances.map((i) => i.stop()));
  const left = await leftOn(inQueue);
  console.log(`JMS competing consumers, 3 processes, nothing fails: ${counts(out, { leftOnInput: left })}`);
  expect({
    distinct: out.distinct,
    duplicates: out.duplicates,
    left,
    idle: [...out.byInstance.values()].filter((n) => n === 0).length,
    processes: out.byInstance.size,
  }).toEqual({
    distinct: MESSAGES,
    duplicates: 0,
    left: 0,
    idle: 0,
    processes: 3,
  });
});

it('loses nothing when one of three processes is killed mid-run; duplicates stay within its credit window', async () => {
  const { inQueue, out, published } = await setUp();
  // The processes move messages while they are being published: kill one early in the run.
  await waitFor(() => out.distinct >= MESSAGES / 10, 'the first tenth moved', 60_000, 50);
  const victim = instances[0];
  victim.child.kill('SIGKILL');
  await victim.exited;
  const atKill = { processed: out.distinct, byProcess: new Map(out.byInstance) };
  await published;
  await out.settled(MESSAGES, 90_000);
  await Promise.all(instances.map((i) => i.stop()));
  const left = await leftOn(inQueue);
  const afterKill = (p: string) => (out.byInstance.get(p) ?? 0) - (atKill.byProcess.get(p) ?? 0);
  console.log(
    `JMS competing consumers, kill -9 of 1 of 3 processes after ${atKill.processed} of ${MESSAGES}: ${counts(out, { leftOnInput: left, creditWindow: CREDIT, movedAfterKill: { p1: afterKill('p1'), p2: afterKill('p2') } })}`,
  );
  expect(out.distinct).toBe(MESSAGES);
  expect(left).toBe(0);
  expect(out.duplicates).toBeLessThanOrEqual(CREDIT);
  expect(atKill.processed).toBeLessThan(MESSAGES);
  expect(Math.min(afterKill('p1'), afterKill('p2'))).toBeGreaterThan(0);
});
