/**
 * config/examples/evaluate-route.json on the real RabbitMQ: AmqpReceiver -> CollectNode -> MessageEvaluator
 * (bounce back) -> AmqpPersister to out or failed. Most tests load the example and rename its three queues
 * to unique ones; the last runs it exactly as shipped, on the xroute.example.* queues, which it deletes
 * before and after (nothing else uses them).
 */
import * as path from 'path';
import * as amqp from 'amqplib';
import { buildTopology } from '../../../src/config/topology';
import { readJsonFile } from '../../../src/config/json-file';
import { Flow } from '../../../src/runtime/flow';
import { defaultRegistry } from '../../../actors';
import { Admin, uniqueName } from './amqp-kit';
import { sleep } from '../../support/wait';

const EXAMPLE = path.resolve(__dirname, '../../../config/examples/evaluate-route.json');
const SHIPPED = { in: 'xroute.example.in', out: 'xroute.example.out', failed: 'xroute.example.failed' };
type Queues = typeof SHIPPED;

jest.setTimeout(60_000);

const ORDERS = 40;
const NOTES = 25;
const UNMARKED = 15;

/** The example, with its three queue names replaced. */
function exampleFlow(queues: Queues): Flow {
  const json = readJsonFile(EXAMPLE) as Record<string, Record<string, unknown>>;
  json.rcvr_in.QueueName = queues.in;
  json.pstr_out.QueueName = queues.out;
  json.pstr_failed.QueueName = queues.failed;
  return Flow.start(buildTopology(json, EXAMPLE, defaultRegistry()), { registry: defaultRegistry() });
}

async function publishMix(admin: Admin, queue: string): Promise<void> {
  await admin.ch.assertQueue(queue, { durable: true });
  for (let i = 0; i < ORDERS; i++) admin.ch.sendToQueue(queue, Buffer.from(`o${i}`), { headers: { kind: 'order' }, persistent: true });
  for (let i = 0; i < NOTES; i++) admin.ch.sendToQueue(queue, Buffer.from(`n${i}`), { headers: { kind: 'note' }, persistent: true });
  for (let i = 0; i < UNMARKED; i++) admin.ch.sendToQueue(queue, Buffer.from(`u${i}`), { persistent: true });
  await admin.ch.waitForConfirms();
}

/** Ready messages of a queue, or -1 while it does not exist (a failed check closes its channel: use a throwaway). */
async function readyCount(admin: Admin, queue: string): Promise<number> {
  const ch = await admin.conn.createChannel();
  ch.on('error', () => undefined);
  try {
    return (await ch.checkQueue(queue)).messageCount;
  } catch {
    return -1;
  } finally {
    await ch.close().catch(() => undefined);
  }
}

async function waitForReady(admin: Admin, queue: string, n: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < deadline) {
    last = await readyCount(admin, queue);
    if (last >= n) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${n} messages on ${queue}; last count ${last}`);
}

function uniqueQueues(): Queues {
  return { in: uniqueName('evalroute.in'), out: uniqueName('evalroute.out'), failed: uniqueName('evalroute.failed') };
}

describe('evaluate-and-route example on RabbitMQ', () => {
  let admin: Admin;
  let flow: Flow | undefined;

  beforeEach(async () => {
    admin = await Admin.open();
  });

  afterEach(async () => {
    await flow?.stop({ drainMs: 2000 });
    flow = undefined;
    await admin.cleanup();
  });

  /** Publishes the mix, runs the flow until both targets have everything, stops it and reads the targets. */
  async function runMix(queues: Queues, start: () => Flow): Promise<{ out: string[]; failed: string[]; inputLeft: number }> {
    await publishMix(admin, queues.in);
    flow = start();
    await waitForReady(admin, queues.out, ORDERS);
    await waitForReady(admin, queues.failed, NOTES + UNMARKED);
    await flow.stop({ drainMs: 5000 });
    flow = undefined;
    const bodies = async (q: string) => (await admin.drain(q)).map((m: amqp.ConsumeMessage) => m.content.toString()).sort();
    return { out: await bodies(queues.out), failed: await bodies(queues.failed), inputLeft: await readyCount(admin, queues.in) };
  }

  const expectedOut = Array.from({ length: ORDERS }, (_, i) => `ORDER:o${i}`).sort();
  const expectedFailed = [...Array.from({ length: NOTES }, (_, i) => `n${i}`), ...Array.from({ length: UNMARKED }, (_, i) => `u${i}`)].sort();

  it('publishes every order, transformed to ORDER:<body>, to out and every other message untouched to failed, and acks all input', async () => {
    const q = uniqueQueues();
    Object.values(q).forEach((n) => admin.track('queue', n));
    const r = await runMix(q, () => exampleFlow(q));
    expect([r.out.length, r.failed.length, r.inputLeft]).toEqual([ORDERS, NOTES + UNMARKED, 0]);
    expect(r.out).toEqual(expectedOut);
    expect(r.failed).toEqual(expectedFailed);
  });

  it('carries the return code on failed messages (1: no rule hit) and none on published orders', async () => {
    const q = uniqueQueues();
    Object.values(q).forEach((n) => admin.track('queue', n));
    await admin.ch.assertQueue(q.in, { durable: true });
    admin.ch.sendToQueue(q.in, Buffer.from('a'), { headers: { kind: 'order' } });
    admin.ch.sendToQueue(q.in, Buffer.from('b'), { headers: { kind: 'note' } });
    await admin.ch.waitForConfirms();
    flow = exampleFlow(q);
    await waitForReady(admin, q.out, 1);
    await waitForReady(admin, q.failed, 1);
    const [order] = await admin.drain(q.out);
    const [note] = await admin.drain(q.failed);
    expect(order.properties.headers?.ReturnCode).toBeUndefined();
    expect(order.properties.headers?.kind).toBe('order');
    expect(String(note.properties.headers?.ReturnCode)).toBe('1');
  });

  it('declares every queue it uses durable and without arguments', async () => {
    const q = uniqueQueues();
    Object.values(q).forEach((n) => admin.track('queue', n));
    flow = exampleFlow(q);
    const ch = await admin.conn.createChannel();
    for (const name of Object.values(q)) {
      const deadline = Date.now() + 15_000;
      while ((await readyCount(admin, name)) < 0 && Date.now() < deadline) await sleep(100);
      // A redeclaration with other attributes or any arguments fails with PRECONDITION_FAILED.
      await expect(ch.assertQueue(name, { durable: true, autoDelete: false, exclusive: false })).resolves.toMatchObject({ queue: name });
    }
    await ch.close();
  });

  it('acks a message on the input queue only after its target queue has it (XAMode 1): unfinished messages return to the input', async () => {
    const q = uniqueQueues();
    Object.values(q).forEach((n) => admin.track('queue', n));
    await admin.ch.assertQueue(q.in, { durable: true });
    flow = exampleFlow(q);
    flow.link('out').pause(); // the out persister gets nothing: orders wait in the CollectNode
    await waitForReady(admin, q.failed, 0); // the flow is connected and has declared its queues
    for (let i = 0; i < 10; i++) admin.ch.sendToQueue(q.in, Buffer.from(`o${i}`), { headers: { kind: 'order' } });
    await admin.ch.waitForConfirms();
    const node = flow.component('node_collect')!;
    const deadline = Date.now() + 15_000;
    while ((node.status.get().counters.collected ?? 0) < 10 && Date.now() < deadline) await sleep(50);
    expect(node.status.get().counters.collected).toBe(10);
    expect(await readyCount(admin, q.in)).toBe(0); // delivered, not acked
    expect(await readyCount(admin, q.out)).toBe(0);
    await flow.stop({ drainMs: 200 });
    flow = undefined;
    await waitForReady(admin, q.in, 10);
    expect(await readyCount(admin, q.in)).toBe(10);
    expect(await readyCount(admin, q.out)).toBe(0);
  });

  it('keeps at most the link capacities in flight when the target queue is slow (back pressure reaches the broker)', async () => {
    const q = uniqueQueues();
    Object.values(q).forEach((n) => admin.track('queue', n));
    await admin.ch.assertQueue(q.in, { durable: true });
    for (let i = 0; i < 200; i++) admin.ch.sendToQueue(q.in, Buffer.from(`o${i}`), { headers: { kind: 'order' } });
    await admin.ch.waitForConfirms();
    flow = exampleFlow(q);
    flow.link('out').pause();
    await sleep(1500);
    const incoming = flow.link('incoming').stats();
    // The receiver's prefetch equals the incoming link's 64 cells: the rest stays ready on the broker.
    expect(incoming.size + incoming.reserved).toBeLessThanOrEqual(64);
    expect(await readyCount(admin, q.in)).toBe(200 - 64);
    flow.link('out').resume();
    await waitForReady(admin, q.out, 200);
    expect(await readyCount(admin, q.out)).toBe(200);
  });

  it('runs as shipped on xroute.example.in, xroute.example.out and xroute.example.failed', async () => {
    const reset = async () => {
      const ch = await admin.conn.createChannel();
      for (const name of Object.values(SHIPPED)) await ch.deleteQueue(name);
      await ch.close();
    };
    await reset();
    Object.values(SHIPPED).forEach((n) => admin.track('queue', n));
    const r = await runMix(SHIPPED, () => Flow.start(buildTopology(readJsonFile(EXAMPLE), EXAMPLE, defaultRegistry()), { registry: defaultRegistry() }));
    expect([r.out.length, r.failed.length, r.inputLeft]).toEqual([ORDERS, NOTES + UNMARKED, 0]);
    expect(r.out).toEqual(expectedOut);
    expect(r.failed).toEqual(expectedFailed);
  });
});
