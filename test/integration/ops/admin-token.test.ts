/**
 * The admin control plane of a real `xroute run` on RabbitMQ (docs/operations.md#the-admin-token): an address other
 * hosts can reach without a token refuses to start; a route that changes the flow without the token is 401 and
 * changes nothing; and the token never appears in any log line, answer, metric or command output, with debug logs
 * on and every route used.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../../support/free-port';
import { XROUTE_MAIN as MAIN, runXroute } from '../../support/xroute-cli';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Admin, BROKER_URL, uniqueName } from '../amqp/amqp-kit';
import { waitFor } from '../../support/wait';

jest.setTimeout(90_000);

const TOKEN = 'ops-admin-token-3a9f61d2c8e4b7f05';
/** The environment of every process here: no token of the caller's own. */
const { XROUTE_ADMIN_TOKEN: _caller, XROUTE_ADMIN: _callerAdmin, ...ENV } = process.env;

const xroute = (args: string[], env: NodeJS.ProcessEnv = ENV) => runXroute(args, { env, timeout: 30_000 });

function topology(inQueue: string, outQueue: string, hostname: string) {
  const common = { URI: `${BROKER_URL}/`, IsPassive: 'true', MaxRetry: '0' };
  return {
    Name: 'admin-token',
    XAMode: '1',
    Receiver: ['rcvr_in'],
    Persister: ['pstr_out'],
    rcvr_in: {
      ClassName: 'org.qbroker.receiver.RMQReceiver',
      ...common,
      Operation: 'get',
      QueueName: inQueue,
      LinkName: 'moving',
      Mode: 'daemon',
      XAMode: '1',
      StringProperty: { Hostname: hostname },
    },
    pstr_out: { ClassName: 'org.qbroker.persister.RMQPersister', ...common, Operation: 'pub', QueueName: outQueue, LinkName: 'moving' },
  };
}

let admin: Admin;
let dir: string;
let flow: ChildProcess | undefined;

beforeAll(async () => {
  admin = await Admin.open();
  dir = mkdtempSync(path.join(tmpdir(), 'xroute-admin-token-'));
});
afterAll(async () => {
  if (flow && flow.exitCode === null) {
    flow.kill('SIGKILL');
    await new Promise((r) => flow?.once('exit', r));
  }
  await admin.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

it('refuses --admin 0.0.0.0:PORT without a token with exit 2, naming --admin and the token options, and takes no message', async () => {
  const inQueue = await admin.queue(uniqueName('admin-open-in'));
  const outQueue = await admin.queue(uniqueName('admin-open-out'));
  await admin.publish('', inQueue, ['a', 'b', 'c']);
  const file = path.join(dir, 'open.json');
  writeFileSync(file, JSON.stringify(topology(inQueue, outQueue, 'h1')));
  const run = await xroute(['run', file, '--admin', `0.0.0.0:${await freePort()}`]);
  expect([run.code, run.stderr.split('\n')[0], (await admin.ch.checkQueue(inQueue)).messageCount]).toEqual([
    2,
    expect.stringMatching(
      /^xroute run: refusing to serve the admin endpoint on 0\.0\.0\.0 \(--admin\), which other hosts can reach, without an admin token: set XROUTE_ADMIN_TOKEN or --admin-token-file FILE .*, or bind --admin to 127\.0\.0\.1:PORT$/,
    ),
    3,
  ]);
});

it('answers 401 to every change without the token and changes nothing; the token appears in no log, answer, metric or output', async () => {
  const inQueue = await admin.queue(uniqueName('admin-token-in'));
  const outQueue = await admin.queue(uniqueName('admin-token-out'));
  const file = path.join(dir, 'flow.json');
  const tokenFile = path.join(dir, 'admin-token');
  writeFileSync(file, JSON.stringify(topology(inQueue, outQueue, 'h1')));
  writeFileSync(tokenFile, TOKEN + '\n', { mode: 0o600 });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let log = '';
  flow = spawn(
    process.execPath,
    [MAIN, 'run', file, '--keep-running', '--log-level', 'debug', '--json-logs', '--admin', `127.0.0.1:${port}`, '--admin-token-file', tokenFile],
    { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  flow.stdout?.on('data', (d) => (log += String(d)));
  flow.stderr?.on('data', (d) => (log += String(d)));
  await waitFor(() => log.includes('consuming'), 'the receiver consuming', 30_000);
  const seen: string[] = [];
  const call = async (route: string, init: RequestInit = {}) => {
    const res = await fetch(base + route, init);
    const body = route === '/events' ? await firstFrame(res) : await res.text();
    seen.push(JSON.stringify([...res.headers]), body);
    return { code: res.status, body };
  };
  const status = async () => JSON.parse((await call('/status')).body) as { components: { name: string; status: string; restarts: number }[] };
  const stateOf = async (name: string) => (await status()).components.find((c) => c.name === name);

  // Without the token (none, then a wrong one), with a changed file waiting to be reloaded: nothing changes.
  writeFileSync(file, JSON.stringify(topology(inQueue, outQueue, 'h2')));
  const refused = [
    await call('/components/pstr_out/pause', { method: 'POST' }),
    await call('/components/rcvr_in/restart', { method: 'POST', headers: { authorization: 'Bearer wrong-token-0123456789' } }),
    await call('/reload', { method: 'POST' }),
  ].map((r) => r.code);
  await admin.publish('', inQueue, ['after the refusals']);
  await waitFor(async () => (await admin.ch.checkQueue(outQueue)).messageCount === 1, 'the message moved', 20_000);
  expect([refused, (await stateOf('pstr_out'))?.status, (await stateOf('rcvr_in'))?.restarts, log.includes('reload: applying')]).toEqual([
    [401, 401, 401],
    'RUNNING',
    0,
    false,
  ]);

  // With the token, every route and both commands, so that the token has every chance to leak.
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const changes = [
    await call('/reload?dryRun=1', { method: 'POST', headers: bearer }),
    await call('/reload', { method: 'POST', headers: bearer }),
    await call('/components/pstr_out/pause', { method: 'POST', headers: bearer }),
    await call('/components/pstr_out/resume', { method: 'POST', headers: bearer }),
  ].map((r) => r.code);
  for (const route of ['/healthz', '/readyz', '/status', '/metrics', '/events', '/']) await call(route, { headers: bearer });
  const commands = [
    await xroute(['status', '--admin', base, '--admin-token-file', tokenFile]),
    await xroute(['reload', '--admin', base, '--dry-run', '--json'], { ...ENV, XROUTE_ADMIN_TOKEN: TOKEN }),
    await xroute(['reload', '--admin', base], { ...ENV, XROUTE_ADMIN_TOKEN: 'not-the-token-000000000' }),
  ];
  flow.kill('SIGTERM');
  const code = await new Promise((r) => flow?.once('exit', r));
  const everything = [log, ...seen, ...commands.flatMap((c) => [c.stdout, c.stderr])];
  expect({
    changes,
    commandCodes: commands.map((c) => c.code),
    code,
    leaks: everything.filter((t) => t.includes(TOKEN)).length,
    metrics: seen.some((t) => t.includes('xroute_')),
  }).toEqual({
    changes: [200, 200, 200, 200],
    commandCodes: [0, 0, 2],
    code: 0,
    leaks: 0,
    metrics: true,
  });
});

/** The first server-sent event of /events (the stream does not end by itself). */
async function firstFrame(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return text;
}
