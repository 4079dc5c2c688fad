/**
 * `xroute run flow.json | jq` works: the built command, run as a user runs it (default log level, output to a
 * pipe), writes only the flow's `file://-` output on stdout and every log line on stderr, and a flow fed by a
 * file (or by stdin: `cat orders.txt | xroute run flow.json | jq`) exits 0 by itself once the input is read and
 * every message is written.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jsonLines, logMessages } from '../support/json-lines';

const root = path.resolve(__dirname, '../..');

function runCli(args: string[], cwd: string, stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'dist/src/cli/main.js'), ...args], { cwd });
    child.stdin.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });
}

it('writes the flow output alone on stdout, the log on stderr, and exits 0 when the input file is done', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-stdout-'));
  writeFileSync(path.join(dir, 'orders.txt'), 'chair\ntable\nlamp\n');
  writeFileSync(
    path.join(dir, 'flow.json'),
    JSON.stringify({
      Name: 'to-json',
      Receiver: ['rcvr_file'],
      Persister: ['pstr_stdout'],
      rcvr_file: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://orders.txt', Operation: 'read', LinkName: 'out', DisplayMask: '1' },
      pstr_stdout: {
        ClassName: 'org.qbroker.persister.StreamPersister',
        URI: 'file://-',
        Operation: 'write',
        LinkName: 'out',
        Template: '{"item":"##body##"}\n',
      },
    }),
  );
  const r = await runCli(['run', 'flow.json', '--log-level', 'debug'], dir);
  expect(r.code).toBe(0);
  expect(jsonLines(r.stdout)).toEqual([{ item: 'chair' }, { item: 'table' }, { item: 'lamp' }]);
  expect(logMessages(r.stderr)).toEqual(expect.arrayContaining(['flow started', 'flow stopped']));
}, 40_000);

it('reads stdin with a file://- StreamReceiver and exits 0 once stdin ends and every message is written', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-stdin-'));
  writeFileSync(
    path.join(dir, 'flow.json'),
    JSON.stringify({
      Name: 'stdin-to-stdout',
      Receiver: ['rcvr_stdin'],
      Persister: ['pstr_stdout'],
      rcvr_stdin: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://-', Operation: 'read', LinkName: 'out' },
      pstr_stdout: {
        ClassName: 'org.qbroker.persister.StreamPersister',
        URI: 'file://-',
        Operation: 'write',
        LinkName: 'out',
        Template: '{"item":"##body##"}\n',
      },
    }),
  );
  const r = await runCli(['run', 'flow.json'], dir, 'pen\nink\n');
  expect([r.code, r.stdout]).toEqual([0, '{"item":"pen"}\n{"item":"ink"}\n']);
}, 40_000);
