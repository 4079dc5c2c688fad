/**
 * Helpers for the AMQP 0-9-1 integration, fault and bench suites: a raw amqplib admin connection for
 * set-up and checks, unique xroute.test.* names that are deleted afterwards, broker-side counts read with
 * rabbitmqctl, and a test consumer of an XQueue.
 */
import * as amqp from 'amqplib';
import { execFile } from 'child_process';
import { promisify } from 'util';
import { Message } from '../../../src/message/message';
import { Outcome, Taken, XQueue } from '../../../src/xqueue/xqueue';
import { sleep } from '../../support/wait';

const execFileP = promisify(execFile);
export const BROKER_URL = 'amqp://guest:guest@127.0.0.1:5672';

let counter = 0;
export function uniqueName(what: string): string {
  return `xroute.test.${what}.${process.pid}.${Date.now().toString(36)}.${++counter}`;
}

/** An admin connection; records the queues and exchanges it is told about and deletes them in cleanup(). */
export class Admin {
  private queues = new Set<string>();
  private exchanges = new Set<string>();
  private constructor(
    readonly conn: amqp.ChannelModel,
    public ch: amqp.ConfirmChannel,
  ) {}

  static async open(url = BROKER_URL): Promise<Admin> {
    const conn = await amqp.connect(url);
    conn.on('error', () => undefined);
    const ch = await conn.createConfirmChannel();
    ch.on('error', () => undefined);
    return new Admin(conn, ch);
  }

  /** A fresh channel (a failed passive check closes the current one). */
  async channel(): Promise<amqp.ConfirmChannel> {
    this.ch = await this.conn.createConfirmChannel();
    this.ch.on('error', () => undefined);
    return this.ch;
  }

  track(kind: 'queue' | 'exchange', name: string): string {
    (kind === 'queue' ? this.queues : this.exchanges).add(name);
    return name;
  }

  async queue(name: string, options: amqp.Options.AssertQueue = { durable: false }): Promise<string> {
    this.track('queue', name);
    await this.ch.assertQueue(name, options);
    return name;
  }

  async exchange(name: string, type: string, options: amqp.Options.AssertExchange = { durable: false }): Promise<string> {
    this.track('exchange', name);
    await this.ch.assertExchange(name, type, options);
    return name;
  }

  /** Publishes and waits for the broker's confirms. */
  async publish(exchange: string, routingKey: string, bodies: (string | Buffer)[], options: amqp.Options.Publish = {}): Promise<void> {
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      if (!this.ch.publish(exchange, routingKey, Buffer.isBuffer(b) ? b : Buffer.from(b), options)) await new Promise((r) => this.ch.once('drain', r));
    }
    await this.ch.waitForConfirms();
  }

  /** Publishes n messages with messageId `${prefix}${i}`, in batches with confirms. */
  async publishNumbered(queue: string, n: number, prefix: string, body: Buffer, options: amqp.Options.Publish = {}): Promise<void> {
    for (let i = 0; i < n; i++) {
      if (!this.ch.sendToQueue(queue, body, { ...options, messageId: `${prefix}${i}` })) await new Promise((r) => this.ch.once('drain', r));
      if (i % 5000 === 4999) await this.ch.waitForConfirms();
    }
    await this.ch.waitForConfirms();
  }

  /** Reads every message of a queue (acking them) until it stays empty for `quietMs`. */
  async drain(queue: string, quietMs = 300): Promise<amqp.ConsumeMessage[]> {
    const ch = await this.conn.createChannel();
    const got: amqp.ConsumeMessage[] = [];
    let last = Date.now();
    await ch.prefetch(1000);
    await ch.consume(queue, (m) => {
      if (m) {
        got.push(m);
        ch.ack(m);
        last = Date.now();
      }
    });
    while (Date.now() - last < quietMs) await sleep(50);
    await ch.close();
    return got;
  }

  async cleanup(): Promise<void> {
    try {
      const ch = await this.conn.createChannel();
      ch.on('error', () => undefined);
      for (const q of this.queues) await ch.deleteQueue(q).catch(() => undefined);
      for (const e of this.exchanges) await ch.deleteExchange(e).catch(() => undefined);
      await ch.close().catch(() => undefined);
    } finally {
      await this.conn.close().catch(() => undefined);
    }
  }
}

/**
 * The Admin of a test file, for its tests to call: opened before them, and what it was told about deleted after
 * them (registers beforeAll and afterAll).
 */
export function adminForFile(): () => Admin {
  let admin: Admin | undefined;
  beforeAll(async () => {
    admin = await Admin.open();
  });
  afterAll(async () => {
    await admin?.cleanup();
  });
  return () => {
    if (admin === undefined) throw new Error('the Admin of the test file is opened in beforeAll');
    return admin;
  };
}

export interface QueueCounts {
  ready: number;
  unacked: number;
  consumers: number;
}

/** rabbitmqctl of the broker to read (the system broker by default; a private node passes its own ctl). */
export type Rabbitmqctl = (...args: string[]) => Promise<string>;
const systemCtl: Rabbitmqctl = async (...args) => (await execFileP('rabbitmqctl', args, { timeout: 30_000 })).stdout;

/** Broker-side counts of a queue, from `rabbitmqctl list_queues` (read only; no management plugin needed). */
export async function queueCounts(name: string, ctl: Rabbitmqctl = systemCtl): Promise<QueueCounts> {
  const stdout = await ctl('list_queues', '-q', '--no-table-headers', 'name', 'messages_ready', 'messages_unacknowledged', 'consumers');
  for (const line of stdout.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts[0] === name) return { ready: Number(parts[1]), unacked: Number(parts[2]), consumers: Number(parts[3]) };
  }
  throw new Error(`queue ${name} not listed by rabbitmqctl`);
}

/** Polls the broker until `predicate` holds for the queue's counts. */
export async function waitForCounts(name: string, predicate: (c: QueueCounts) => boolean, what: string, timeoutMs = 15_000): Promise<QueueCounts> {
  const deadline = Date.now() + timeoutMs;
  let last: QueueCounts | undefined;
  while (Date.now() < deadline) {
    last = await queueCounts(name);
    if (predicate(last)) return last;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what} on ${name}; last counts ${JSON.stringify(last)}`);
}

/**
 * A test consumer of an XQueue: takes everything offered and holds it until the test removes it
 * (or removes at once when `auto` is set).
 */
export class TestConsumer {
  readonly held: Taken<Message>[] = [];
  readonly seen: Message[] = [];
  private handle;
  constructor(
    readonly queue: XQueue<Message>,
    private auto: Outcome | undefined = undefined,
  ) {
    this.handle = queue.attach('test-consumer', () => setImmediate(() => this.pull()));
  }

  private pull(): void {
    for (;;) {
      const t = this.queue.take(this.handle);
      if (!t) return;
      this.seen.push(t.item);
      if (this.auto) this.queue.remove(t, this.auto);
      else this.held.push(t);
    }
  }

  setAuto(outcome: Outcome | undefined): void {
    this.auto = outcome;
    for (const t of this.held.splice(0)) this.queue.remove(t, outcome ?? 'done');
    this.queue.park(this.handle);
  }

  /** Removes the `n` oldest held messages. */
  remove(n = this.held.length, outcome: Outcome = 'done'): void {
    for (const t of this.held.splice(0, n)) this.queue.remove(t, outcome);
    this.queue.park(this.handle);
  }

  detach(): void {
    this.queue.detach(this.handle);
  }
}
