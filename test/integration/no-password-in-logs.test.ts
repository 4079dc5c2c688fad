/**
 * Passwords never reach a log line: a real `xroute run` whose receivers log in to RabbitMQ with a
 * password (in the Password property and inside a URI), one of them with a wrong password so that error
 * paths are logged too, with every message field displayed. Its whole output is searched for both secrets.
 * The user is added on a private RabbitMQ node of this test, never on the system broker.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as amqp from 'amqplib';
import { waitFor } from '../support/wait';
import { XROUTE_MAIN, stopProcess } from '../support/xroute-cli';

const root = path.resolve(__dirname, '../..');
const USER = 'xroute_logtest';
const SECRET = 'Xr-S3cret-Pa55-logs';
const WRONG = 'Wr0ng-S3cret-Pa55-logs';
const QUEUE = `xroute.test.logs.${process.pid}`;

import { PrivateRabbitMQ, startPrivateRabbitMQ } from '../support/private-rabbitmq';
let node: PrivateRabbitMQ;

beforeAll(async () => {
  node = await startPrivateRabbitMQ({ plugins: [] });
  await node.ctl('add_user', USER, SECRET);
  await node.ctl('set_permissions', '-p', '/', USER, '.*', '.*', '.*');
  const conn = await amqp.connect(node.url);
  const ch = await conn.createChannel();
  await ch.assertQueue(QUEUE, { durable: false });
  ch.sendToQueue(QUEUE, Buffer.from('hello'), { headers: { Password: SECRET } });
  await ch.close();
  await conn.close();
}, 240_000);

afterAll(async () => {
  await node?.dispose(); // the user and the queue go with it
}, 240_000);

function topology(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-logs-'));
  const file = path.join(dir, 'flow.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      Name: 'logs',
      Receiver: ['rcvr_ok', 'rcvr_uri', 'rcvr_bad'],
      Persister: ['pstr_eval'],
      rcvr_ok: {
        ClassName: 'org.qbroker.receiver.RMQReceiver',
        URI: `amqp://127.0.0.1:${node.port}/`,
        Username: USER,
        Password: SECRET,
        QueueName: QUEUE,
        IsPassive: 'false',
        LinkName: 'root',
        Mode: 'daemon',
        DisplayMask: '-1',
      },
      rcvr_uri: {
        ClassName: 'org.qbroker.receiver.RMQReceiver',
        URI: `amqp://${USER}:${SECRET}@127.0.0.1:${node.port}/`,
        QueueName: QUEUE,
        IsPassive: 'false',
        LinkName: 'root',
        Mode: 'daemon',
        DisplayMask: '-1',
      },
      rcvr_bad: {
        ClassName: 'org.qbroker.receiver.RMQReceiver',
        URI: `amqp://${USER}:${WRONG}@127.0.0.1:${node.port}/`,
        QueueName: QUEUE,
        LinkName: 'root',
        Mode: 'daemon',
      },
      pstr_eval: { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', LinkName: 'root', DisplayMask: '-1', Ruleset: { r: {} } },
    }),
  );
  return file;
}

it('logs the flow, the messages and the login failure without either password', async () => {
  const child = spawn(process.execPath, [XROUTE_MAIN, 'run', '--json-logs', '--log-level', 'debug', topology()], { cwd: root });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const received = () => output.includes('hello');
  const loginRefused = () => output.split('\n').some((l) => l.includes('"component":"rcvr_bad"') && /ACCESS.REFUSED/.test(l));
  // Generous: on a starved machine the child needs long to start; a passing run ends in about a second.
  await waitFor(
    () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`xroute run ended (${child.exitCode ?? child.signalCode}) before it was stopped:\n${output}`);
      return received() && loginRefused();
    },
    () => {
      const missing = [received() ? '' : 'the message "hello"', loginRefused() ? '' : "rcvr_bad's refused login"].filter(Boolean);
      return `xroute run to log ${missing.join(' and ')}; output:\n${output.slice(-2000)}`;
    },
    60_000,
    100,
  );
  // Stopped at once, some receivers may still be connecting: a connection that comes up after the stop must not keep the process alive.
  expect(await stopProcess(child, 'SIGINT', 20_000, () => output)).toBe(0);
  expect(output).not.toContain(SECRET);
  expect(output).not.toContain(WRONG);
}, 120_000);
