/**
 * Reload on the real ActiveMQ that changes a JMSReceiver (issue 27, docs/operations.md#changing-a-running-flow):
 * JMSReceiver -> JMSPersister in XAMode 1 under a steady load, and a reload that changes the receiver's
 * StringProperty. The replaced receiver grants no new credit, hands what the broker already sent downstream and
 * accepts it once the persister is done, and only then closes: nothing is released for the broker to redeliver.
 * 0 lost, 0 duplicated (counted by message id), receipt redelivered 0. Runs about 10 s. The receipt's redelivered
 * figure is real: a delivery ActiveMQ flags redelivered (delivery-count > 0) is counted by the receiver.
 */
import rhea = require('rhea');
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadTopology } from '../../src/config/topology';
import { Flow } from '../../src/runtime/flow';
import { defaultRegistry } from '../../actors';
import { waitFor } from '../support/component-harness';
import { closeRheaConnection } from '../support/amqp10-test-client';
import { JMS_RECEIVER } from '../../actors/receivers/jms-receiver';
import { REDELIVERED_COUNTER } from '../../src/runtime/reload-receipt';
import { ACTIVEMQ, jmsMoveTopology, Kit, publish, Tally, unique } from './activemq-kit';

jest.setTimeout(60_000);

const RATE = 500;
const CAPACITY = 32;

function topologyFile(dir: string, inQueue: string, outQueue: string, instance: string): string {
  const file = path.join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(jmsMoveTopology(inQueue, outQueue, instance, CAPACITY)));
  return file;
}

/** Sends numbered messages (message_id m<n>) to `queue` at a steady rate over one connection until stopped. */
class SteadySender {
  sent = 0;
  private accepted = 0;
  private readonly conn: rhea.Connection;
  private readonly timer: NodeJS.Timeout;

  constructor(queue: string) {
    this.conn = rhea
      .create_container()
      .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
    const sender = this.conn.open_sender({ target: { address: `queue://${queue}` } });
    sender.on('accepted', () => this.accepted++);
    const started = Date.now();
    this.timer = setInterval(() => {
      const due = Math.floor(((Date.now() - started) * RATE) / 1000);
      while (this.sent < due && sender.sendable()) sender.send({ message_id: `m${this.sent++}`, body: 'order', durable: true });
    }, 10);
  }

  /** Stops sending; resolves once the broker accepted every message sent. */
  async stop(): Promise<number> {
    clearInterval(this.timer);
    await waitFor(
      () => this.accepted >= this.sent,
      () => `the broker accepted all ${this.sent} messages (${this.accepted})`,
      10_000,
    );
    await closeRheaConnection(this.conn);
    return this.sent;
  }
}

/** How long the output must stay quiet before its count is final (a late duplicate would arrive within it). */
const QUIET_MS = 1_000;

/** Counts what reaches `queue` by message id. */
function countOutput(queue: string): { tally: Tally; conn: rhea.Connection; quiet: () => boolean } {
  const tally = new Tally();
  let lastAt = Date.now();
  const conn = rhea
    .create_container()
    .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
  conn.open_receiver({ source: { address: `queue://${queue}` }, credit_window: 500 }).on('message', (ctx) => {
    tally.add(String(ctx.message?.message_id));
    lastAt = Date.now();
  });
  return { tally, conn, quiet: () => Date.now() - lastAt >= QUIET_MS };
}

let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  cleanup = [];
});

it('replaces a JMSReceiver under load without releasing what it took: none lost or duplicated, none redelivered', async () => {
  const inQueue = unique('reload-in');
  const outQueue = unique('reload-out');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-jms-reload-'));
  const registry = defaultRegistry();
  const flow = Flow.start(loadTopology(topologyFile(dir, inQueue, outQueue, 'first'), registry), { registry });
  cleanup.push(() => flow.stop({ drainMs: 5_000 }));
  await waitFor(() => flow.status().ready, 'the flow ready', 20_000);
  const out = countOutput(outQueue);
  cleanup.push(() => closeRheaConnection(out.conn));
  const sender = new SteadySender(inQueue);
  cleanup.push(() => sender.stop().then(() => undefined));

  await waitFor(() => sender.sent >= 2 * RATE && out.tally.distinct > RATE, '2 s of messages sent and moving', 20_000);
  const receipt = await flow.reload(topologyFile(dir, inQueue, outQueue, 'second'));
  await waitFor(() => sender.sent >= 4 * RATE, '4 s of messages sent', 20_000);
  const sent = await sender.stop();
  await waitFor(
    () => out.tally.distinct >= sent && out.quiet(),
    () => `all ${sent} messages at the output, then quiet (${out.tally.distinct})`,
    20_000,
  );

  const ids = Array.from({ length: sent }, (_, i) => `m${i}`);
  const { lost, duplicated } = out.tally.counts(sent, ids);
  const counters = flow.component('rcvr_in')!.status.get().counters;
  console.log(
    `activemq reload of a JMSReceiver at ${RATE} msg/s: ${JSON.stringify({ sent, lost, duplicated, swapMs: receipt.swapMs, redelivered: receipt.redelivered, counters })}`,
  );
  expect(receipt).toMatchObject({ outcome: 'applied', redelivered: 0 });
  expect(receipt.components.filter((c) => c.action !== 'kept').map((c) => [c.name, c.action])).toEqual([['rcvr_in', 'replaced']]);
  expect(receipt.components.find((c) => c.name === 'rcvr_in')?.drained?.returned).toBe(0);
  expect({ released: counters.released ?? 0, returned: counters.returned ?? 0 }).toEqual({ released: 0, returned: 0 });
  expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
});

/** Takes one message from `queue` with a raw client and gives it back as failed (ActiveMQ raises its delivery-count). */
async function failOnce(queue: string): Promise<void> {
  const conn = rhea
    .create_container()
    .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
  try {
    await new Promise<void>((resolve) => {
      conn.open_receiver({ source: { address: `queue://${queue}` }, credit_window: 1, autoaccept: false }).once('message', (ctx) => {
        ctx.delivery?.modified({ delivery_failed: true });
        resolve();
      });
    });
  } finally {
    await closeRheaConnection(conn);
  }
}

it('counts a delivery its broker flags redelivered, which a reload receipt reports', async () => {
  const queue = unique('reload-redelivered');
  await publish(ACTIVEMQ, `queue://${queue}`, [{ message_id: 'again', body: 'order', durable: true }]);
  await failOnce(queue);
  const kit = new Kit();
  cleanup.push(() => kit.cleanup());
  const { h, q } = kit.start(JMS_RECEIVER, { Name: 'rcvr_again', Operation: 'get', QueueName: queue, Mode: 'daemon', XAMode: '1' });
  const taken = kit.collect(q);
  await waitFor(() => taken.received.length === 1, 'the message received again', 20_000);
  expect(taken.received[0].headers.JMSRedelivered).toBe(true);
  expect(h.status.get().counters[REDELIVERED_COUNTER]).toBe(1);
});
