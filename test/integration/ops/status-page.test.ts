/**
 * The live status page in a real browser (Debian's chromium driven by playwright-core): what a person sees
 * when a receiver's broker goes away and comes back. The broker is a private RabbitMQ node (the test stops
 * its application). The flow is one a user could run (shipped classes only). The pictures in docs/operations.md
 * come from status-page-stuck.test.ts (`npm run screenshots`).
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import * as amqp from 'amqplib';
import type { Page } from 'playwright-core';
import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { defaultRegistry } from '../../../actors';
import { waitFor } from '../../support/component-harness';

import { startPrivateRabbitMQ } from '../../support/private-rabbitmq';
import { HeadlessChromium, openChromium } from '../../support/headless-chromium';

const QUEUE = 'xroute.ops.page';
const GREEN = '#24a148';
const RED = '#da1e28';

describe('status page in chromium', () => {
  let node: { port: number; url: string; stopApp(): Promise<void>; startApp(): Promise<void>; dispose(): Promise<void> };
  let flow: Flow;
  let admin: AdminServer;
  let browser: HeadlessChromium;
  let page: Page;
  let output: string;

  beforeAll(async () => {
    node = await startPrivateRabbitMQ();
    const conn = await amqp.connect(node.url);
    const ch = await conn.createChannel();
    await ch.assertQueue(QUEUE, { durable: true });
    for (let i = 0; i < 3; i++) ch.sendToQueue(QUEUE, Buffer.from(`m${i}`));
    await ch.close();
    await conn.close();

    const registry = defaultRegistry();
    output = mkdtempSync(path.join(tmpdir(), 'xroute-page-'));
    const topology = buildTopology(
      {
        Name: 'page-demo',
        Receiver: ['rcvr_orders'],
        Persister: ['pstr_store'],
        rcvr_orders: {
          ClassName: 'org.qbroker.receiver.RMQReceiver',
          URI: `amqp://127.0.0.1:${node.port}/`,
          Username: 'guest',
          Password: 'guest',
          QueueName: QUEUE,
          LinkName: 'orders',
          Capacity: '16',
          ReconnectBackoff: '100,500',
        },
        pstr_store: {
          ClassName: 'org.qbroker.persister.StreamPersister',
          URI: `file://${path.join(output, 'orders.txt')}`,
          Operation: 'write',
          LinkName: 'orders',
        },
      },
      '/t/page-demo.json',
      registry,
    );
    flow = Flow.start(topology, { registry });
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'));

    browser = await openChromium({ width: 900, height: 420 });
    page = browser.page;
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    if (output) rmSync(output, { recursive: true, force: true });
    await admin?.close();
    await flow?.stop({ drainMs: 1000 });
    await node?.dispose();
  }, 60_000);

  interface PageNode {
    querySelector(selector: string): PageNode | null;
    getAttribute(name: string): string | null;
    readonly textContent: string | null;
  }

  /** What the page shows for a component: its state text and the colour of its box. */
  const seen = (component: string) =>
    page.evaluate((name) => {
      // runs in the page; the project compiles without the DOM library, so the page's document is typed here
      const { document } = globalThis as unknown as { document: PageNode };
      const g = document.querySelector(`g[data-component="${name}"]`);
      const rect = g?.querySelector('rect.state');
      return {
        state: g?.getAttribute('data-state') ?? null,
        colour: rect?.getAttribute('stroke') ?? null,
        text: g?.querySelector('.state-text')?.textContent ?? '',
      };
    }, component);

  const waitSeen = async (component: string, state: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await seen(component);
      if (s.state === state) return s;
      if (Date.now() > deadline) throw new Error(`the page shows ${component} as ${JSON.stringify(s)}, not ${state}, after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('draws the flow as a graph and shows a receiver turning red while its broker is away and green when it is back', async () => {
    await waitFor(() => flow.status().components.every((c) => c.status === 'RUNNING'), 'the flow to run', 20_000);
    await page.goto(admin.url);
    expect(await page.title()).toBe('xroute status');
    expect(await waitSeen('rcvr_orders', 'RUNNING', 5000)).toMatchObject({ colour: GREEN });
    expect(await page.locator('g[data-link="orders"] .depth').textContent()).toMatch(/^\d+ \/ 16$/);
    expect(await page.locator('#ready').textContent()).toBe('ready');
    // The picture in the docs shows what a user runs: every class on the page is one xroute ships.
    const classes = await page.locator('#components tbody tr td:nth-child(2)').allTextContents();
    expect(classes.length).toBe(2);
    for (const className of classes) expect([className, defaultRegistry().find(className) !== undefined]).toEqual([className, true]);

    await node.stopApp();
    expect(await waitSeen('rcvr_orders', 'RETRYING', 15_000)).toMatchObject({ colour: RED });
    expect(await page.locator('#ready').textContent()).toBe('not ready');

    const back = Date.now();
    await node.startApp();
    expect(await waitSeen('rcvr_orders', 'RUNNING', 30_000)).toMatchObject({ colour: GREEN });
    process.stdout.write(`status page: green again ${Date.now() - back} ms after start_app was issued\n`);
    await waitFor(() => flow.status().components.find((c) => c.name === 'pstr_store')!.messages.done === 3, 'the queued messages', 10_000);
  }, 120_000);
});
