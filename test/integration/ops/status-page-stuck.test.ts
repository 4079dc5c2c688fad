/**
 * Issue 28 item 2 in a real browser (Debian's chromium driven by playwright-core): a RabbitMQ flow (receive, evaluate,
 * route: AmqpReceiver -> CollectNode with a MessageEvaluator -> two AmqpPersisters) whose persister's exchange is
 * deleted mid-run. The page turns the stuck link red and everything upstream amber within 2 s of /status reporting
 * it, a click on the persister shows its details (endpoint, next retry, its last errors with times, its masked
 * configuration), and once the exchange is back the page is green again and every message has arrived. The browser asks nothing of any host but the admin endpoint. Screenshots of the page, stuck and green,
 * go to .tmp/ (git-ignored) for `npm run screenshots` (test/support/screenshots.js) to copy into docs/.
 */
import { mkdirSync } from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { defaultRegistry } from '../../../actors';
import { waitFor } from '../../support/component-harness';
import { HeadlessChromium, openChromium } from '../../support/headless-chromium';
import { Admin, uniqueName, waitForCounts } from '../amqp/amqp-kit';

jest.setTimeout(120_000);

const GREEN = '#24a148';
const AMBER = '#f1c21b';
const RED = '#da1e28';
const ARTIFACTS = path.resolve(__dirname, '../../../.tmp');
const SECRET = 'guest';
const BEFORE = 3;
const DURING = 20;
/** Messages the evaluator's ruleset selects (ReturnCode 0: they go to pstr_store); others go to pstr_failed. */
const ORDER = { headers: { kind: 'order' } };

describe('status page in chromium: a persister whose exchange disappears mid-run', () => {
  let admin: Admin;
  let flow: Flow;
  let server: AdminServer;
  let browser: HeadlessChromium;
  let page: Page;
  let source: string;
  let exchange: string;
  let target: string;
  let failed: string;

  beforeAll(async () => {
    admin = await Admin.open();
    source = await admin.queue(uniqueName('page.src'));
    exchange = await admin.exchange(uniqueName('page.out'), 'direct');
    target = await admin.queue(uniqueName('page.dst'));
    failed = await admin.queue(uniqueName('page.failed'));
    await admin.ch.bindQueue(target, exchange, 'k');
    const registry = defaultRegistry();
    const topology = buildTopology(
      {
        Name: 'orders',
        Capacity: '8',
        Supervision: { FatalRetrySeconds: '1' },
        Receiver: ['rcvr_orders'],
        Node: ['node_route'],
        Persister: ['pstr_eval', 'pstr_store', 'pstr_failed'],
        rcvr_orders: {
          ClassName: 'receiver.AmqpReceiver',
          URI: `amqp://guest:${SECRET}@127.0.0.1:5672/`,
          QueueName: source,
          IsPassive: 'true',
          XAMode: '1',
          LinkName: 'orders',
        },
        node_route: {
          ClassName: 'node.CollectNode',
          LinkName: 'orders',
          OutLink: ['stored', 'failed', 'failed', 'evaluate'],
          Ruleset: [{ Name: 'evaluate', PreferredOutLink: 'evaluate', FieldName: 'RuleName', Template: 'order' }],
        },
        pstr_eval: {
          ClassName: 'persister.MessageEvaluator',
          LinkName: 'evaluate',
          Ruleset: { order: { JMSPropertyGroup: [{ kind: '^order$' }], FormatterArgument: [{ FieldName: 'body', Template: ['ORDER:##body##'] }] } },
        },
        pstr_store: {
          ClassName: 'persister.AmqpPersister',
          URI: 'amqp://127.0.0.1:5672/',
          Username: 'guest',
          Password: SECRET,
          ExchangeName: exchange,
          RoutingKey: 'k',
          IsPassive: 'true',
          LinkName: 'stored',
        },
        pstr_failed: {
          ClassName: 'persister.AmqpPersister',
          URI: 'amqp://127.0.0.1:5672/',
          Username: 'guest',
          Password: SECRET,
          QueueName: failed,
          IsPassive: 'true',
          LinkName: 'failed',
        },
      },
      '/t/orders.json',
      registry,
    );
    flow = Flow.start(topology, { registry });
    server = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'));

    browser = await openChromium({ width: 1300, height: 760 });
    page = browser.page;
    await waitFor(() => flow.status().components.every((c) => c.status === 'RUNNING'), 'the flow to run', 20_000);
    await page.goto(server.url);
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await flow?.stop({ drainMs: 1000 });
    await admin?.cleanup();
  }, 60_000);

  /** What the page shows for a component or a link: its colour and health. */
  const seen = (kind: 'component' | 'link', name: string) =>
    page.evaluate(
      ([k, n]) => {
        // runs in the page; the project compiles without the DOM library, so the page's document is typed here
        interface PageNode {
          querySelector(selector: string): PageNode | null;
          getAttribute(name: string): string | null;
        }
        const { document } = globalThis as unknown as { document: PageNode };
        const g = document.querySelector(`g[data-${k}="${n}"]`);
        const frame = g?.querySelector(k === 'component' ? 'rect.state' : 'rect.frame');
        return { health: g?.getAttribute('data-health') ?? null, colour: frame?.getAttribute('stroke') ?? null };
      },
      [kind, name] as const,
    );

  const waitSeen = async (kind: 'component' | 'link', name: string, want: { health: string; colour: string }, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await seen(kind, name);
      if (s.health === want.health && s.colour === want.colour) return s;
      if (Date.now() > deadline) throw new Error(`the page shows ${kind} ${name} as ${JSON.stringify(s)}, not ${JSON.stringify(want)}, after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('draws the healthy flow green, with the rates on its edges', async () => {
    await admin.publish(
      '',
      source,
      Array.from({ length: BEFORE }, (_, i) => `before ${i}`),
      ORDER,
    );
    await admin.publish('', source, ['a note']);
    await waitForCounts(target, (c) => c.ready === BEFORE, `${BEFORE} messages in the target`);
    await waitForCounts(failed, (c) => c.ready === 1, 'the note in the failed queue');
    expect(await waitSeen('component', 'rcvr_orders', { health: 'ok', colour: GREEN }, 5000)).toBeTruthy();
    expect(await waitSeen('link', 'orders', { health: 'ok', colour: '#8b95a1' }, 5000)).toBeTruthy();
    expect(await page.locator('text.edge-rate[data-link="orders"]').allTextContents()).toEqual([
      expect.stringMatching(/^[\d.]+\/s$/),
      expect.stringMatching(/^[\d.]+\/s$/),
    ]);
  });

  it('turns the stuck link red and what is upstream amber within 2 s of /status reporting it', async () => {
    await admin.ch.deleteExchange(exchange);
    await admin.publish(
      '',
      source,
      Array.from({ length: DURING }, (_, i) => `during ${i}`),
      ORDER,
    );
    await waitFor(() => flow.status().stuckLinks.length > 0, '/status to report the stuck link', 30_000);
    const reported = Date.now();
    await waitSeen('link', 'stored', { health: 'red', colour: RED }, 2000);
    // upstream of the stuck link: the node that writes it and the receiver that feeds the node, both holding messages;
    // the link between them is full (the node holds every cell), so it is stuck too
    for (const [kind, name, colour] of [
      ['component', 'node_route', AMBER],
      ['component', 'rcvr_orders', AMBER],
      ['link', 'orders', RED],
    ] as const) {
      await waitSeen(kind, name, { health: colour === RED ? 'red' : 'amber', colour }, Math.max(0, 2000 - (Date.now() - reported)));
    }
    const ms = Date.now() - reported;
    process.stdout.write(`status page: stuck link red, everything upstream amber ${ms} ms after /status reported it\n`);
    expect(ms).toBeLessThan(2000);
    const shown = async () => ({
      stored: await page.locator('g[data-link="stored"] .link-state').textContent(),
      orders: await page.locator('g[data-link="orders"] .link-state').textContent(),
      evaluator: await seen('component', 'pstr_eval'),
    });
    let last = await shown();
    await waitFor(
      async () =>
        /^STUCK: consumer-not-running/.test((last = await shown()).stored ?? '') && /^STUCK: full/.test(last.orders ?? '') && last.evaluator.colour === GREEN,
      () => JSON.stringify(last),
      2000,
    ).catch(() => undefined);
    expect(last).toEqual({
      stored: expect.stringMatching(/^STUCK: consumer-not-running/),
      orders: expect.stringMatching(/^STUCK: full/),
      evaluator: { health: 'ok', colour: GREEN },
    });
  });

  it('shows the failing persister’s details on a click: endpoint, next retry, last errors with times, masked configuration', async () => {
    await page.click('g[data-component="pstr_store"]');
    await page.waitForSelector('#details[data-component="pstr_store"] ol.errors li');
    await waitFor(async () => (await page.locator('#details .detail-retry').count()) > 0, 'the next retry in the details', 5000);
    const endpoint = await page.locator('#details .detail-endpoint').allTextContents();
    const errors = await page.locator('#details ol.errors li').allTextContents();
    const config = JSON.parse((await page.locator('#details pre.config').textContent()) ?? '{}') as Record<string, string>;
    expect({ endpoint, config: { ExchangeName: config.ExchangeName, Password: config.Password } }).toEqual({
      endpoint: ['amqp://127.0.0.1:5672/', exchange, 'k'],
      config: { ExchangeName: exchange, Password: '***' },
    });
    expect(errors[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z .*(NOT_FOUND|404|no exchange)/i);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(ARTIFACTS, 'status-page-stuck.png') });
  });

  it('turns green again once the exchange is back, and every message arrives', async () => {
    await admin.exchange(exchange, 'direct');
    await admin.ch.bindQueue(target, exchange, 'k');
    await waitSeen('link', 'stored', { health: 'ok', colour: '#8b95a1' }, 20_000);
    await waitSeen('component', 'rcvr_orders', { health: 'ok', colour: GREEN }, 5000);
    await waitSeen('component', 'node_route', { health: 'ok', colour: GREEN }, 5000);
    await waitSeen('component', 'pstr_store', { health: 'ok', colour: GREEN }, 5000);
    await waitForCounts(target, (c) => c.ready === BEFORE + DURING, `${BEFORE + DURING} messages in the target`, 20_000);
    const bodies = new Set((await admin.drain(target)).map((m) => m.content.toString()));
    expect([bodies.size, [...bodies].every((b) => b.startsWith('ORDER:'))]).toEqual([BEFORE + DURING, true]);
    await page.click('#details button');
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(ARTIFACTS, 'status-page.png') });
  });

  it('shows a parked count on its component, slow traces by trace id, and a reload announced on the stream as a banner', async () => {
    // Fields other parts of xroute fill (parked messages, tracing, reload): the page is fed one canned frame of each.
    const status = JSON.parse(JSON.stringify(flow.status())) as { components: { name: string; parked?: number; slowTraces?: unknown[] }[] };
    const store = status.components.find((c) => c.name === 'pstr_store')!;
    store.parked = 100;
    store.slowTraces = [{ traceId: 'ID:slow-1', ms: 850, at: Date.now() }];
    const receipt = { summary: '1 component replaced (pstr_store), 0 failed' };
    const page2 = await browser.browser.newPage();
    await page2.route(`${server.url}/events`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: `data: ${JSON.stringify(status)}\n\nevent: reload\ndata: ${JSON.stringify(receipt)}\n\n`,
      }),
    );
    await page2.goto(server.url);
    await page2.waitForSelector('g[data-component="pstr_store"] text.parked');
    await page2.waitForSelector('#banner:not([style*="none"])');
    expect({
      parked: await page2.locator('g[data-component="pstr_store"] text.parked').textContent(),
      slow: await page2.locator('#slow tbody tr td').allTextContents(),
      banner: await page2.locator('#banner').textContent(),
    }).toEqual({
      parked: '100',
      slow: ['pstr_store', 'ID:slow-1', '850', expect.stringMatching(/^\d{4}-/)],
      banner: expect.stringMatching(/^reload .*: 1 component replaced \(pstr_store\), 0 failed$/),
    });
    await page2.close();
  });

  it('asks nothing of any host but the admin endpoint', () => {
    expect(browser.requested.length).toBeGreaterThan(0);
    expect(browser.requested.filter((u) => !u.startsWith(`${server.url}/`))).toEqual([]);
  });
});
