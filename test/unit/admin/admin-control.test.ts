/**
 * The admin control plane over HTTP (src/admin/control-routes.ts behind admin-auth.ts): POST /reload and
 * POST /components/NAME/pause|resume|restart with and without the token, reads away from loopback, TLS, and the
 * receipts pushed on /events.
 */
import * as https from 'node:https';
import * as net from 'node:net';
import { readFileSync } from 'node:fs';
import { Flow } from '../../../src/runtime/flow';
import { Behaviour } from '../../../src/runtime/actor';
import { ComponentRegistry } from '../../../src/runtime/component';
import { ReloadReceipt } from '../../../src/runtime/reload-receipt';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { ReloadControl } from '../../../src/admin/control-routes';
import { generateCertificates } from '../../support/tls-proxy';
import { startRunningFlow, testComponent } from '../../support/flow-harness';
import { waitFor } from '../runtime/helpers';

const TOKEN = 'admin-test-token-7d41c9e2a8f3';
const BEARER = { authorization: `Bearer ${TOKEN}` };

const runningPersister = testComponent('persister', 'persister.RunningPersister', (env): Behaviour<never> => ({
  start(ctx) {
    env.status.set('RUNNING');
    ctx.consume(env.input!, (t, q) => void q.remove(t));
  },
}));
const registry = new ComponentRegistry([runningPersister]);

function receipt(outcome: ReloadReceipt['outcome'], dryRun: boolean): ReloadReceipt {
  return {
    id: 'r1',
    flow: 'ctl',
    trigger: 'admin',
    dryRun,
    outcome,
    startedAt: 0,
    swapMs: 0,
    redelivered: 0,
    components: [{ name: 'pstr', className: 'persister.RunningPersister', action: 'kept' }],
    links: [],
  };
}

/** A reload path that records what it was asked and answers with `next`. */
function fakeControl(): ReloadControl & { asked: { dryRun: boolean }[]; next: ReloadReceipt['outcome'] } {
  const control = {
    asked: [] as { dryRun: boolean }[],
    next: 'applied' as ReloadReceipt['outcome'],
    reload: async (options: { dryRun: boolean }) => {
      control.asked.push(options);
      return receipt(control.next, options.dryRun);
    },
  };
  return control;
}

const startFlow = (): Promise<Flow> =>
  startRunningFlow({ Name: 'ctl', Persister: ['pstr'], pstr: { ClassName: 'persister.RunningPersister', LinkName: 'in' } }, registry, ['pstr']);

const stateOf = (flow: Flow) => flow.status().components[0].status;

describe('the admin control plane on loopback, with a token', () => {
  let flow: Flow;
  let admin: AdminServer;
  const control = fakeControl();
  const post = async (route: string, headers: Record<string, string> = BEARER) => {
    const res = await fetch(admin.url + route, { method: 'POST', headers });
    return { code: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    flow = await startFlow();
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, { token: TOKEN }, control);
  });
  afterAll(async () => {
    await admin.close();
    await flow.stop({ drainMs: 0 });
  });

  it('answers 401 to a pause without the token, and the component keeps running', async () => {
    const r = await post('/components/pstr/pause', {});
    expect([r.code, r.body.error, stateOf(flow)]).toEqual([401, expect.stringContaining('needs the admin token'), 'RUNNING']);
  });

  it('answers 401 to a reload with a wrong token, and the reload path is never called', async () => {
    const r = await post('/reload', { authorization: 'Bearer not-the-token-000000' });
    expect([r.code, control.asked]).toEqual([401, []]);
  });

  it('pauses and resumes a component with the token', async () => {
    const paused = await post('/components/pstr/pause');
    const resumed = await post('/components/pstr/resume');
    expect([paused.code, paused.body.status, resumed.code, resumed.body.action]).toEqual([200, 'PAUSE', 200, 'resume']);
    await waitFor(() => stateOf(flow) === 'RUNNING', 'pstr running again');
  });

  it('restarts a component with the token, counting one restart', async () => {
    const before = flow.status().components[0].restarts;
    const r = await post('/components/pstr/restart');
    expect([r.code, flow.status().components[0].restarts - before]).toEqual([200, 1]);
  });

  it('names the components for one that does not exist, and the actions for one that does not', async () => {
    const [noComponent, noAction] = [await post('/components/nope/pause'), await post('/components/pstr/explode')];
    expect([noComponent.code, noComponent.body.error, noAction.code, noAction.body.error]).toEqual([
      404,
      'flow ctl has no component "nope"; components: pstr',
      404,
      'no action "explode" on a component; actions: pause, resume, restart',
    ]);
  });

  it('reloads through the reload path, as a dry run with ?dryRun=1, and answers with the receipt', async () => {
    const r = await post('/reload?dryRun=1');
    expect([r.code, r.body.outcome, r.body.dryRun, control.asked.at(-1)]).toEqual([200, 'applied', true, { dryRun: true }]);
  });

  it('answers a refused reload with 422 and its receipt', async () => {
    control.next = 'refused';
    const r = await post('/reload');
    control.next = 'applied';
    expect([r.code, r.body.outcome]).toEqual([422, 'refused']);
  });

  it('answers a request target that is no URL (absolute-form garbage) without failing', async () => {
    const { port } = new URL(admin.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.end(`POST http://[ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect([answer.split('\r\n')[0], stateOf(flow)]).toEqual(['HTTP/1.1 404 Not Found', 'RUNNING']);
  });

  it('serves the read routes on loopback without the token', async () => {
    expect((await fetch(admin.url + '/status')).status).toBe(200);
  });

  it('pushes each reload receipt on /events as an event named reload', async () => {
    const res = await fetch(admin.url + '/events');
    const reader = res.body!.getReader();
    admin.publishReload(receipt('applied', false));
    let text = '';
    while (!text.includes('event: reload')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const frame = text.slice(text.indexOf('event: reload')).split('\n');
    expect([frame[0], JSON.parse(frame[1].replace(/^data: /, '')).outcome]).toEqual(['event: reload', 'applied']);
  });
});

describe('the admin control plane without a token', () => {
  it('refuses every change on loopback with 401: it fails closed', async () => {
    const flow = await startFlow();
    const admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, {}, fakeControl());
    try {
      const res = await fetch(admin.url + '/components/pstr/pause', { method: 'POST', headers: BEARER });
      expect([res.status, stateOf(flow)]).toEqual([401, 'RUNNING']);
    } finally {
      await admin.close();
      await flow.stop({ drainMs: 0 });
    }
  });

  it('answers 501 to a reload when the flow was not started from a file', async () => {
    const flow = await startFlow();
    const admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, { token: TOKEN });
    try {
      expect((await fetch(admin.url + '/reload', { method: 'POST', headers: BEARER })).status).toBe(501);
    } finally {
      await admin.close();
      await flow.stop({ drainMs: 0 });
    }
  });
});

describe('the admin endpoint on an address other hosts can reach', () => {
  it('refuses to start without a token', async () => {
    const flow = await startFlow();
    try {
      await expect(startAdminServer(flow, parseAdminAddress('0.0.0.0:0'))).rejects.toThrow('refusing to serve the admin endpoint on 0.0.0.0');
    } finally {
      await flow.stop({ drainMs: 0 });
    }
  });

  it('asks for the token on every route but /healthz and /readyz', async () => {
    const flow = await startFlow();
    const admin = await startAdminServer(flow, parseAdminAddress('0.0.0.0:0'), undefined, { token: TOKEN });
    const url = admin.url.replace('0.0.0.0', '127.0.0.1');
    try {
      const codes = async (headers: Record<string, string>) =>
        Promise.all(['/healthz', '/readyz', '/status', '/metrics', '/'].map(async (r) => (await fetch(url + r, { headers })).status));
      expect([await codes({}), await codes(BEARER)]).toEqual([
        [200, 200, 401, 401, 401],
        [200, 200, 200, 200, 200],
      ]);
    } finally {
      await admin.close();
      await flow.stop({ drainMs: 0 });
    }
  });
});

describe('the admin endpoint with TLS', () => {
  it('speaks https with the certificate and key it is given', async () => {
    const certs = generateCertificates();
    const flow = await startFlow();
    const admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, {
      token: TOKEN,
      tls: { cert: readFileSync(certs.serverCertFile), key: readFileSync(certs.serverKeyFile) },
    });
    try {
      const port = new URL(admin.url).port;
      const code = await new Promise<number | undefined>((resolve, reject) =>
        https
          .get(
            { host: '127.0.0.1', port, path: '/healthz', servername: 'localhost', ca: readFileSync(certs.caFile) },
            (res) => (res.resume(), resolve(res.statusCode)),
          )
          .on('error', reject),
      );
      expect([admin.url.startsWith('https://'), code]).toEqual([true, 200]);
    } finally {
      await admin.close();
      await flow.stop({ drainMs: 0 });
      certs.cleanup();
    }
  });
});
