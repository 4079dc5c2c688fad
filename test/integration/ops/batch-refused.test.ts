/**
 * A batch (fed only by files) whose broker refuses its login does not retry for ever: `xroute run` ends with
 * exit 4 within --connect-timeout (default 30 s), naming the component and the broker's refusal. Against the
 * system RabbitMQ on 5672 with a wrong password (AMQP 0-9-1, ACCESS_REFUSED), and the JMS example publish.json
 * against the suite's private RabbitMQ AMQP 1.0 node with a wrong password (SASL refused). Also
 * examples/tools/amqp.js reports a broker refusal on one line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RABBIT } from '../../support/amqp10-test-client';
import { Admin, uniqueName } from '../amqp/amqp-kit';

const ROOT = path.resolve(__dirname, '../..', '..');
const MAIN = path.join(ROOT, 'dist/src/cli/main.js');

interface Run {
  readonly code: number | null;
  readonly stderr: string;
  readonly ms: number;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr, ms: Date.now() - started }));
    setTimeout(() => child.kill('SIGKILL'), 90_000).unref();
  });
}

/** The `stopping: ...` line of a JSON log. */
function stoppingLine(stderr: string): Record<string, string> | undefined {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, string>)
    .find((l) => String(l.message).startsWith('stopping:'));
}

it('ends a file-fed flow whose RabbitMQ refuses the login with exit 4 within the default 30 s, saying why', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-batch-refused-'));
  writeFileSync(path.join(dir, 'lines.txt'), 'a\nb\n');
  const file = path.join(dir, 'flow.json');
  writeFileSync(
    file,
    JSON.stringify({
      Name: 'refused-batch',
      Receiver: ['rcvr_file'],
      Persister: ['pstr_rmq'],
      rcvr_file: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://lines.txt', Operation: 'read', LinkName: 'out' },
      pstr_rmq: {
        ClassName: 'org.qbroker.persister.RMQPersister',
        URI: 'amqp://127.0.0.1:5672/',
        Username: 'guest',
        Password: 'not-the-password',
        Operation: 'pub',
        ExchangeName: '',
        RoutingKey: uniqueName('never'),
        LinkName: 'out',
      },
    }),
  );
  const r = await run(process.execPath, [MAIN, 'run', file, '--json-logs']);
  const stopping = stoppingLine(r.stderr);
  console.log(`RabbitMQ ACCESS_REFUSED, default bound: exit ${r.code} after ${r.ms} ms`);
  expect(r.code).toBe(4);
  expect(stopping).toMatchObject({
    level: 'error',
    message: 'stopping: pstr_rmq could not connect within --connect-timeout 30 s',
    component: 'pstr_rmq',
    status: 'FAILED',
  });
  expect(stopping?.reason).toContain('ACCESS_REFUSED');
  expect(r.stderr).not.toContain('not-the-password');
  expect(r.ms).toBeLessThan(45_000);
}, 60_000);

it('ends the JMS example publish.json with exit 4 when its AMQP 1.0 broker refuses the credentials', async () => {
  const url = `amqp://guest:not-the-password@${RABBIT.host}:${RABBIT.port}`;
  const r = await run(process.execPath, [MAIN, 'run', 'examples/jms-topic-to-queue/publish.json', '--connect-timeout', '3', '--json-logs'], {
    AMQP10_URL: url,
  });
  const stopping = stoppingLine(r.stderr);
  console.log(`AMQP 1.0 login refused, --connect-timeout 3: exit ${r.code} after ${r.ms} ms; ${stopping?.reason}`);
  expect(r.code).toBe(4);
  expect(stopping).toMatchObject({ level: 'error', component: 'pstr_prices' });
  expect(r.stderr).not.toContain('not-the-password');
}, 60_000);

it("examples/tools/amqp.js reports a queue declared with other arguments as the broker's one-line refusal", async () => {
  const admin = await Admin.open();
  try {
    const queue = await admin.queue(uniqueName('amqp-tool-transient'), { durable: false });
    const r = await run(process.execPath, ['examples/tools/amqp.js', 'publish', '--queue', queue, 'hello']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^amqp\.js: .*406 \(PRECONDITION-FAILED\).*inequivalent arg 'durable'.*\n$/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  } finally {
    await admin.cleanup();
  }
}, 30_000);
