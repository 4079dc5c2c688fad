/**
 * The secrets are the fields the schemas declare secret and the values substituted from ${VAR} or ${file:...},
 * nothing else, as a user meets it: real `xroute run` and `xroute validate` processes, a real TCP login
 * server that quotes the login line back in its refusal, the admin endpoint read over HTTP. Needs the build.
 */
import { ChildProcess, spawn } from 'child_process';
import net from 'node:net';
import { waitFor } from '../../support/wait';
import { XROUTE_MAIN as MAIN, runXroute, scratchDir, writeFlowFile } from '../../support/xroute-cli';

const flowFile = (json: unknown): string => writeFlowFile(json, scratchDir('xroute-secrets-'));

/** A login server that refuses every line, quoting it back. */
async function refusingServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => socket.write(`ERR login refused for "${chunk.toString('utf8').trim()}"\n`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Collects a child's stdout and stderr; `until` resolves with the output once `pattern` is in it. */
function output(child: ChildProcess): { text(): string; until(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray> } {
  let text = '';
  const on = (d: Buffer) => {
    text += String(d);
  };
  child.stdout!.on('data', on);
  child.stderr!.on('data', on);
  return {
    text: () => text,
    until: async (pattern, timeoutMs = 30_000) => {
      await waitFor(
        () => pattern.test(text),
        () => `${pattern}; output: ${text}`,
        timeoutMs,
      );
      return text.match(pattern) as RegExpMatchArray;
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** The first server-sent event of /events. */
async function firstEvent(url: string): Promise<string> {
  const abort = new AbortController();
  const res = await fetch(`${url}/events`, { signal: abort.signal });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString('utf8');
  }
  abort.abort();
  return text;
}

function loginPersister(port: number, login: Record<string, unknown>): Record<string, unknown> {
  return {
    ClassName: 'org.qbroker.persister.StreamPersister',
    URI: `tcp://127.0.0.1:${port}`,
    Operation: 'request',
    LinkName: 'out',
    Pattern: 'OK|ERR',
    ErrorResponse: ['ERR'],
    PauseTime: '50',
    StandbyTime: '100',
    ...login,
  };
}

describe('secret masking in a running flow (process)', () => {
  it('masks a ${VAR} secret of a ConnectionRequest that the server quotes back, in /status, /readyz, /events and the log', async () => {
    const SECRET = 'Tr0ub4dor-login-7';
    const server = await refusingServer();
    const file = flowFile({
      Name: 'login',
      Persister: ['pstr_login'],
      pstr_login: loginPersister(server.port, { ConnectionRequest: ['LOGIN admin ${LOGIN_PW}'] }),
    });
    const child = spawn(process.execPath, [MAIN, 'run', file, '--json-logs', '--admin', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOGIN_PW: SECRET },
    });
    const out = output(child);
    try {
      const [, url] = await out.until(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      await out.until(/login refused/);
      const status = await (await fetch(`${url}/status`)).text();
      const readyz = await (await fetch(`${url}/readyz`)).text();
      const event = await firstEvent(url);
      await stop(child);
      for (const [where, text] of Object.entries({ status, readyz, event, log: out.text() })) {
        expect([where, text]).toEqual([where, expect.stringContaining('LOGIN admin ***')]);
        expect([where, text.includes(SECRET)]).toEqual([where, false]);
      }
    } finally {
      await stop(child);
      await server.close();
    }
  }, 60_000);

  it('shows the flow name wrong-pass while masking the password wrong that the server quotes back', async () => {
    const server = await refusingServer();
    const file = flowFile({
      Name: 'wrong-pass',
      Persister: ['pstr_login'],
      pstr_login: loginPersister(server.port, { Destination: 'queue://ORDERS', Username: 'bob', Password: 'wrong' }),
    });
    const child = spawn(process.execPath, [MAIN, 'run', file, '--json-logs'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = output(child);
    try {
      await out.until(/login refused/);
      await stop(child);
      expect(out.text()).toContain('"flow":"wrong-pass"');
      expect(out.text()).toMatch(/password ~ \*\*\*/);
      expect(out.text()).not.toMatch(/password ~ wrong/);
    } finally {
      await stop(child);
      await server.close();
    }
  }, 60_000);
});

describe('secret masking in xroute validate (process)', () => {
  const validate = async (json: unknown) => {
    const r = await runXroute(['validate', flowFile(json)]);
    return r.stdout + r.stderr;
  };
  const receiver = { ClassName: 'org.qbroker.receiver.RMQReceiver', URI: 'amqp://127.0.0.1/', QueueName: 'q', LinkName: 'root', Username: 'app' };
  const persister = { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', LinkName: 'root', Ruleset: { r: {} } };

  it('shows the value of IsPassive, which is not a secret', async () => {
    const text = await validate({ Name: 'f', Receiver: ['rcvr'], Persister: ['pstr'], rcvr: { ...receiver, IsPassive: 'yes' }, pstr: persister });
    expect(text).toContain('IsPassive: "yes"');
  }, 30_000);

  it('masks a Password given as a JSON number', async () => {
    const text = await validate({ Name: 'f', Receiver: ['rcvr'], Persister: ['pstr'], rcvr: { ...receiver, Password: 73519284 }, pstr: persister });
    expect(text).toContain('Password: *** (a JSON number)');
    expect(text).not.toContain('73519284');
  }, 30_000);
});
