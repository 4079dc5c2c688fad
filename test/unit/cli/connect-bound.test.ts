/**
 * --connect-timeout: which flows are batches (bounded by default), how the option reads, and a real `xroute run`
 * of a batch whose output cannot be reached (a TCP port nothing listens on) ending with exit 4 and the reason.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { defaultRegistry } from '../../../actors';
import { buildTopology, Topology } from '../../../src/config/topology';
import { connectBoundMs, DEFAULT_CONNECT_TIMEOUT_S, EXIT_UNREACHABLE, isBatchFlow } from '../../../src/cli/connect-bound';
import { readRunOperations } from '../../../src/cli/run-operations';

const MAIN = path.resolve(__dirname, '../../../dist/src/cli/main.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-connect-bound-'));
writeFileSync(path.join(dir, 'lines.txt'), 'a\nb\n');

const fileReceiver = { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://lines.txt', Operation: 'read', LinkName: 'out' };
const tcpPersister = (port: number) => ({
  ClassName: 'org.qbroker.persister.StreamPersister',
  URI: `tcp://127.0.0.1:${port}`,
  Operation: 'write',
  LinkName: 'out',
});

function topology(receivers: Record<string, object>, port = 9): Topology {
  const json = { Name: 'bound', Receiver: Object.keys(receivers), Persister: ['pstr_out'], ...receivers, pstr_out: tcpPersister(port) };
  return buildTopology(json, path.join(dir, 'flow.json'), defaultRegistry());
}

describe('which flows are batches', () => {
  it('counts a flow whose receivers all read a file or stdin to its end as a batch', () => {
    expect(isBatchFlow(topology({ rcvr_file: fileReceiver, rcvr_stdin: { ...fileReceiver, URI: 'file://-' } }))).toBe(true);
  });

  it('does not count a flow with a TCP receiver, a daemon-mode file receiver or a broker receiver as a batch', () => {
    expect(isBatchFlow(topology({ rcvr_file: fileReceiver, rcvr_tcp: { ...fileReceiver, URI: 'tcp://127.0.0.1:9' } }))).toBe(false);
    expect(isBatchFlow(topology({ rcvr_file: { ...fileReceiver, Mode: 'daemon' } }))).toBe(false);
    const amqp = { ClassName: 'org.qbroker.receiver.RMQReceiver', URI: 'amqp://127.0.0.1:5672/', Operation: 'get', QueueName: 'q', LinkName: 'out' };
    expect(isBatchFlow(topology({ rcvr_amqp: amqp }))).toBe(false);
  });
});

describe('the bound', () => {
  it(`is ${DEFAULT_CONNECT_TIMEOUT_S} s for a batch, none for a batch kept running or for a service`, () => {
    const batch = topology({ rcvr_file: fileReceiver });
    const service = topology({ rcvr_file: { ...fileReceiver, Mode: 'daemon' } });
    expect([connectBoundMs(batch, undefined, false), connectBoundMs(batch, undefined, true), connectBoundMs(service, undefined, false)]).toEqual([
      DEFAULT_CONNECT_TIMEOUT_S * 1000,
      undefined,
      undefined,
    ]);
  });

  it('is what --connect-timeout says for any flow, and 0 means none', () => {
    const service = topology({ rcvr_file: { ...fileReceiver, Mode: 'daemon' } });
    expect([connectBoundMs(service, 5, false), connectBoundMs(topology({ rcvr_file: fileReceiver }), 0, false)]).toEqual([5000, undefined]);
  });

  it('reads --connect-timeout as seconds >= 0 and refuses anything else, naming the option', () => {
    expect(readRunOperations({ 'connect-timeout': '2.5' }, {})).toEqual({ connectTimeoutSeconds: 2.5 });
    expect(() => readRunOperations({ 'connect-timeout': '-1' }, {})).toThrow('--connect-timeout "-1": expected a number of seconds >= 0 (0: no bound)');
    expect(() => readRunOperations({ 'connect-timeout': 'soon' }, {})).toThrow('--connect-timeout "soon"');
  });
});

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('ends a batch whose output cannot be reached with exit 4 and the component and reason in the log', async () => {
  const port = await closedPort();
  const file = path.join(dir, 'unreachable.json');
  writeFileSync(
    file,
    JSON.stringify({ Name: 'unreachable', Receiver: ['rcvr_file'], Persister: ['pstr_out'], rcvr_file: fileReceiver, pstr_out: tcpPersister(port) }),
  );
  const started = Date.now();
  const child = spawn(process.execPath, [MAIN, 'run', file, '--connect-timeout', '1', '--json-logs'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  const elapsed = Date.now() - started;
  const stopping = stderr
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .find((l) => String(l.message).startsWith('stopping:'));
  console.log(`batch with an unreachable output, --connect-timeout 1: exit ${code} after ${elapsed} ms`);
  expect(code).toBe(EXIT_UNREACHABLE);
  expect(stopping).toMatchObject({
    level: 'error',
    message: 'stopping: pstr_out could not connect within --connect-timeout 1 s',
    component: 'pstr_out',
    status: 'RETRYING',
  });
  expect(stopping.reason).toContain('ECONNREFUSED');
}, 30_000);
