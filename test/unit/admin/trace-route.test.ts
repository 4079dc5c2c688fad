import { Flow } from '../../../src/runtime/flow';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { MAX_TRACE_BODY_BYTES } from '../../../src/admin/trace-route';
import { fakeRegistry } from '../config/fake-components';
import { startTestFlow } from '../../support/flow-harness';

const SECRET = 'Tr4ceSecretPw';

function startFlow(): Flow {
  return startTestFlow(
    {
      Name: 'trace-admin',
      Receiver: ['rcvr'],
      Persister: ['store'],
      rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'in', Extra: `amqp://me:${SECRET}@broker.example/` },
      store: { ClassName: 'persister.UpperPersister', LinkName: 'in' },
    },
    fakeRegistry(),
  );
}

describe('admin endpoint: /trace and /components/NAME', () => {
  let flow: Flow;
  let admin: AdminServer;
  let guarded: AdminServer;
  const TOKEN = 'trace-route-admin-token-0123';
  const post = async (body: string, server = admin) => {
    const res = await fetch(`${server.url}/trace`, { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } });
    return { code: res.status, body: (await res.json()) as { traced?: string[]; error?: string } };
  };

  beforeAll(async () => {
    flow = startFlow();
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, { token: TOKEN });
    guarded = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, { token: 'another-admin-token-4567' });
  });
  afterEach(() => flow.setTrace(['rcvr', 'store'], false));
  afterAll(async () => {
    await admin.close();
    await guarded.close();
    await flow.stop({ drainMs: 100 });
  });

  it('turns the trace of the named components on, and answers which are traced', async () => {
    expect(await post('{"components": ["store"], "trace": "on"}')).toEqual({ code: 200, body: { traced: ['store'] } });
    expect(flow.traced()).toEqual(['store']);
  });

  it('turns it off again', async () => {
    flow.setTrace(['rcvr', 'store'], true);
    expect(await post('{"components": ["rcvr"], "trace": "off"}')).toEqual({ code: 200, body: { traced: ['store'] } });
  });

  it('lists the traced components on GET', async () => {
    flow.setTrace(['rcvr'], true);
    expect(await (await fetch(`${admin.url}/trace`)).json()).toEqual({ traced: ['rcvr'] });
  });

  it('answers a body that is not the expected JSON with 400 saying what is expected', async () => {
    const answers = await Promise.all(['not json', '[]', '{"components": [], "trace": "on"}', '{"components": ["store"], "trace": "yes"}'].map((b) => post(b)));
    expect(answers.map((a) => a.code)).toEqual([400, 400, 400, 400]);
    expect(answers[3].body.error).toBe('POST /trace: "trace" is "yes"; expected a JSON object {"components": ["NAME", ...], "trace": "on" | "off"}');
    expect(flow.traced()).toEqual([]);
  });

  it('answers an unknown component with 404 naming the components, and changes nothing', async () => {
    expect(await post('{"components": ["store", "nope"], "trace": "on"}')).toEqual({
      code: 404,
      body: { error: 'flow trace-admin has no component "nope"; components: store, rcvr' },
    });
    expect(flow.traced()).toEqual([]);
  });

  it('refuses a body larger than its bound with 413', async () => {
    const names = JSON.stringify(Array.from({ length: MAX_TRACE_BODY_BYTES / 8 }, (_, i) => `c${i}`.padEnd(8, 'x')));
    expect((await post(`{"components": ${names}, "trace": "on"}`)).code).toBe(413);
  });

  it('refuses a change without the admin token with 401, and changes nothing', async () => {
    expect((await post('{"components": ["store"], "trace": "on"}', guarded)).code).toBe(401);
    expect(flow.traced()).toEqual([]);
  });

  it('shows a component’s details with its configuration masked and its last errors with times', async () => {
    flow.component('rcvr')!.status.set('RETRYING', 'connection refused', Date.now() + 1000);
    const res = await fetch(`${admin.url}/components/rcvr`);
    const body = (await res.json()) as {
      status: { name: string; status: string };
      config: Record<string, string>;
      errors: { at: number; text: string; count: number }[];
    };
    expect({ code: res.status, name: body.status.name, extra: body.config.Extra, errors: body.errors.map((e) => [e.text, e.count, e.at > 0]) }).toEqual({
      code: 200,
      name: 'rcvr',
      extra: 'amqp://me:***@broker.example/',
      errors: [['connection refused', 1, true]],
    });
    expect(JSON.stringify(body)).not.toContain(SECRET);
  });

  it('answers an unknown component’s details with 404 naming the components', async () => {
    const res = await fetch(`${admin.url}/components/nope`);
    expect({ code: res.status, body: await res.json() }).toEqual({ code: 404, body: { error: 'no component "nope"; components: store, rcvr' } });
  });
});
