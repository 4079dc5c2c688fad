/**
 * A receiver whose broker refuses its login: the process stays live, the flow is not ready and names the
 * authentication error (without the password); once the user is created on the broker the receiver
 * becomes ready by itself and the queued messages move, with no process restart. Runs on a private
 * RabbitMQ node, since it adds a user.
 */
import * as amqp from 'amqplib';
import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { ComponentRegistry } from '../../../src/runtime/component';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { defaultRegistry } from '../../../actors';
import { flakyPersister } from '../../unit/runtime/flaky-component';
import { waitFor } from '../../support/component-harness';

import { startPrivateRabbitMQ } from '../../support/private-rabbitmq';

const USER = 'xroute_late_user';
const PASSWORD = 'Late-Pass-7391';
const QUEUE = 'xroute.ops.credentials';

describe('a receiver with wrong credentials heals when the user is created (private RabbitMQ node)', () => {
  let node: { port: number; url: string; ctl(...args: string[]): Promise<string>; dispose(): Promise<void> };
  let flow: Flow | undefined;
  let admin: AdminServer | undefined;

  beforeAll(async () => {
    node = await startPrivateRabbitMQ();
    const conn = await amqp.connect(node.url);
    const ch = await conn.createChannel();
    await ch.assertQueue(QUEUE, { durable: false });
    for (let i = 0; i < 5; i++) ch.sendToQueue(QUEUE, Buffer.from(`m${i}`));
    await ch.close();
    await conn.close();
  }, 120_000);

  afterAll(async () => {
    await admin?.close();
    await flow?.stop({ drainMs: 1000 });
    await node?.dispose();
  }, 60_000);

  it('is live and not ready, names the authentication error without the password, then becomes ready by itself and moves the queued messages', async () => {
    const sw = { broken: false, starts: 0 };
    const registry = new ComponentRegistry([...defaultRegistry().all(), flakyPersister(sw)]);
    const topology = buildTopology(
      {
        Name: 'late-user',
        Supervision: { FatalRetrySeconds: '1' },
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: {
          ClassName: 'org.qbroker.receiver.RMQReceiver',
          URI: `amqp://127.0.0.1:${node.port}/`,
          Username: USER,
          Password: PASSWORD,
          QueueName: QUEUE,
          IsPassive: 'true',
          LinkName: 'in',
          XAMode: '1',
        },
        pstr: { ClassName: 'persister.FlakyPersister', LinkName: 'in' },
      },
      '/t/late-user.json',
      registry,
    );
    flow = Flow.start(topology, { registry });
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'));
    const url = admin.url;
    const readyz = async () => {
      const res = await fetch(`${url}/readyz`);
      return { code: res.status, body: await res.text() };
    };

    await waitFor(() => flow!.status().components.find((c) => c.name === 'rcvr')!.status === 'FAILED', 'the refused login', 20_000);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const notReady = await readyz();
    expect(notReady.code).toBe(503);
    expect(notReady.body).toMatch(/ACCESS_REFUSED|auth/i);
    expect(notReady.body).toContain('"rcvr"');
    const status = await (await fetch(`${url}/status`)).text();
    expect(status).not.toContain(PASSWORD);
    expect(notReady.body).not.toContain(PASSWORD);

    const created = Date.now();
    await node.ctl('add_user', USER, PASSWORD);
    await node.ctl('set_permissions', '-p', '/', USER, '.*', '.*', '.*');
    while ((await readyz()).code !== 200) {
      if (Date.now() - created > 20_000) throw new Error(`not ready 20 s after the user was created: ${(await readyz()).body}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const healedMs = Date.now() - created;
    await waitFor(() => flow!.status().components.find((c) => c.name === 'pstr')!.messages.done === 5, 'the five queued messages to move', 20_000);
    const rcvr = flow.status().components.find((c) => c.name === 'rcvr')!;
    expect(rcvr).toMatchObject({ status: 'RUNNING', messages: { in: 5, done: 5, failed: 0 } });
    // FatalRetrySeconds 1: the slow retry finds the new user within about a second (plus the broker's own time).
    expect(healedMs).toBeLessThan(10_000);
    process.stdout.write(`wrong-credentials: ready ${healedMs} ms after the user was created\n`);
  }, 90_000);
});
