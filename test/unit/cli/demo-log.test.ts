/**
 * `npm start` as a new user meets it: the demo at the default log level prints what the README says around
 * its output, not a screenful of chatter. Needs the build (dist/); the demo needs no broker.
 */
import { spawn } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';
import { jsonLines } from '../../support/json-lines';

const root = path.resolve(__dirname, '../../..');

it('logs at most the 16 lines the README announces around the demo at --log-level info', async () => {
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'run', '--log-level', 'info', '--json-logs', 'config/demo.json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdout.on('data', (d) => (stdout += String(d)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = jsonLines<{ level: string; message: string }>(stderr);
  expect(code).toBe(0);
  expect(stdout).toContain('EXPIRED on worker2');
  expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('at the default `--log-level info`, at most 16 lines');
  expect(lines.length).toBeLessThanOrEqual(16);
  expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual(['job expired (running away): TimeToLive reached', 'aborting job on request']);
}, 60_000);
