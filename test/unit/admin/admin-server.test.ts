import { componentOf, startTestFlow, testComponent } from '../../support/flow-harness';
import { Flow } from '../../../src/runtime/flow';
import { ComponentRegistry } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { defaultRegistry } from '../../../actors';
import { idleReceiver } from '../config/fake-components';
import { flakyPersister, Switch } from '../runtime/flaky-component';
import { waitFor } from '../runtime/helpers';

type PrometheusFamily = { name: string; type: string; metrics: { value?: string; labels?: Record<string, string> }[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package ships no type declarations; this line gives it its type
const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => PrometheusFamily[];

const SECRET = 'Sup3rSecretPw';

function startFlow(sw: Switch, registry: ComponentRegistry): Flow {
  return startTestFlow(
    {
      Name: 'admin-flow',
      Supervision: { MaxRetry: '0', Backoff: '10,20', GiveUpBackoff: '200,400' },
      Receiver: ['rcvr', 'holder'],
      Persister: ['pstr_eval', 'pstr_flaky'],
      rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'root', URI: `amqp://xroute:${SECRET}@broker.example/`, Password: SECRET },
      holder: { ClassName: 'receiver.HoldingReceiver', LinkName: 'root' },
      pstr_flaky: { ClassName: 'persister.FlakyPersister', LinkName: 'root', Capacity: '4' },
      pstr_eval: {
        ClassName: 'org.qbroker.persister.MessageEvaluator',
        URI: 'eval://',
        LinkName: 'eval',
        Capacity: '4',
        Ruleset: { only_a: { JMSPropertyGroup: [{ Kind: '^a$' }] } },
      },
    },
    registry,
  );
}

/** A running receiver that holds one delivery unsettled, 42.5 s old (what an AMQP 1.0 receiver reports). */
const holdingReceiver = testComponent(
  'receiver',
  'receiver.HoldingReceiver',
  (env) => ({
    start() {
      env.status.reportUnsettled(() => ({ deliveries: 1, oldestAgeSeconds: 42.5 }));
      env.status.set('RUNNING');
    },
  }),
  'test receiver holding one delivery',
);

describe('admin endpoint', () => {
  const sw: Switch = { broken: false, starts: 0 };
  const registry = new ComponentRegistry([...defaultRegistry().all(), idleReceiver, holdingReceiver, flakyPersister(sw)]);
  let flow: Flow;
  let admin: AdminServer;
  const get = async (route: string) => {
    const res = await fetch(admin.url + route);
    return { code: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  beforeAll(async () => {
    flow = startFlow(sw, registry);
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'));
    for (const kind of ['a', 'a', 'b']) await flow.send('eval', Message.text('x', { RuleName: 'only_a', Kind: kind }));
    for (let i = 0; i < 5; i++) await flow.send('root', Message.text(`m${i}`));
  });
  afterAll(async () => {
    await admin.close();
    await flow.stop();
  });

  it('binds only where it is told', () => {
    expect(admin.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers /healthz with 200 while the process is alive', async () => {
    expect((await get('/healthz')).code).toBe(200);
  });

  it('answers /readyz with 503 naming each component that is not ready and why', async () => {
    const r = await get('/readyz');
    expect(r.code).toBe(503);
    expect(JSON.parse(r.text)).toEqual({ ready: false, degraded: false, notReady: [{ component: 'rcvr', status: 'READY' }], stuckLinks: [], parked: [] });
  });

  it('reports components, links and totals in /status', async () => {
    const status = JSON.parse((await get('/status')).text);
    expect(status.name).toBe('admin-flow');
    expect(status.uptimeMs).toBeGreaterThanOrEqual(0);
    expect(status.components.find((c: { name: string }) => c.name === 'pstr_flaky')).toMatchObject({
      className: 'persister.FlakyPersister',
      status: 'RUNNING',
      restarts: 0,
      reconnects: 0,
      messages: { in: 5, done: 5, failed: 0 },
    });
    expect(status.links.find((l: { name: string }) => l.name === 'root')).toMatchObject({
      name: 'root',
      capacity: 4,
      size: 0,
      producers: ['rcvr', 'holder'],
      consumerNames: ['pstr_flaky'],
    });
  });

  it('shows in /status how many deliveries a receiver holds unsettled and the age of the oldest', async () => {
    const status = JSON.parse((await get('/status')).text);
    const unsettled = (name: string) => status.components.find((c: { name: string }) => c.name === name).unsettled;
    expect({ holder: unsettled('holder'), rcvr: unsettled('rcvr') }).toEqual({ holder: { deliveries: 1, oldestAgeSeconds: 42.5 }, rcvr: undefined });
  });

  it('exports the unsettled deliveries of a receiver and the age of the oldest as gauges', async () => {
    const families = new Map(parsePrometheus((await get('/metrics')).text).map((f) => [f.name, f]));
    const series = (name: string) => families.get(name)?.metrics.map((m) => ({ labels: m.labels, value: Number(m.value) }));
    expect({ count: series('xroute_receiver_unsettled_deliveries'), age: series('xroute_receiver_oldest_unsettled_age_seconds') }).toEqual({
      count: [{ labels: { component: 'holder' }, value: 1 }],
      age: [{ labels: { component: 'holder' }, value: 42.5 }],
    });
  });

  it('serves /metrics in the Prometheus text format with the counts the test made', async () => {
    const r = await get('/metrics');
    expect(r.type).toMatch(/^text\/plain/);
    const families = new Map(parsePrometheus(r.text).map((f) => [f.name, f]));
    const value = (name: string, labels: Record<string, string>) => {
      const m = families.get(name)?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
      return m === undefined ? undefined : Number(m.value);
    };
    expect(value('xroute_link_capacity', { link: 'root' })).toBe(4);
    expect(value('xroute_link_depth', { link: 'root' })).toBe(0);
    expect(value('xroute_component_messages_total', { component: 'pstr_flaky', outcome: 'done' })).toBe(5);
    expect(value('xroute_component_messages_total', { component: 'pstr_eval', outcome: 'done' })).toBe(3);
    expect(value('xroute_component_messages_total', { component: 'pstr_flaky', outcome: 'failed' })).toBe(0);
    expect(value('xroute_component_restarts_total', { component: 'pstr_flaky' })).toBe(0);
    expect(value('xroute_component_reconnects_total', { component: 'rcvr' })).toBe(0);
    expect(value('xroute_component_up', { component: 'pstr_flaky' })).toBe(1);
    expect(value('xroute_component_up', { component: 'rcvr' })).toBe(0);
    expect(value('xroute_evaluator_results_total', { component: 'pstr_eval', ruleset: 'only_a', rc: '0' })).toBe(2);
    expect(value('xroute_evaluator_results_total', { component: 'pstr_eval', ruleset: 'only_a', rc: '1' })).toBe(1);
    expect(families.get('xroute_component_messages_total')?.type).toBe('COUNTER');
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
    expect(families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('serves a self-contained status page that loads nothing from outside', async () => {
    const r = await get('/');
    expect(r.type).toMatch(/^text\/html/);
    expect(r.text).toContain('<svg id="graph"');
    expect(r.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('counts a crash restart, reports the last error masked, and never shows a password on any route', async () => {
    sw.broken = true;
    (flow.component('pstr_flaky')!.ref as unknown as { tell(m: unknown): void }).tell('boom');
    await waitFor(() => componentOf(flow, 'pstr_flaky')!.status === 'FAILED', 'the flow to report the give-up');
    sw.broken = false;
    await waitFor(() => componentOf(flow, 'pstr_flaky')!.status === 'RUNNING', 'the flow to restart it');
    const status = JSON.parse((await get('/status')).text);
    const flaky = status.components.find((c: { name: string }) => c.name === 'pstr_flaky');
    expect(flaky.restarts).toBeGreaterThanOrEqual(1);
    expect(flaky.lastError).toContain('***');
    for (const route of ['/status', '/readyz', '/metrics', '/healthz', '/']) expect((await get(route)).text).not.toContain(SECRET);
  });
});
