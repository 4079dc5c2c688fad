/**
 * `xroute ... | head -1`: the built command in a real shell pipeline whose reader exits after one line. xroute
 * ends quietly (no stack trace, no EPIPE on stderr) with status 141, the shell's for a writer whose reader
 * went away; `run` first stops its flow the normal way (drain, then every job process killed and reaped).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isLive } from '../../support/process-groups';
import { jsonLines } from '../../support/json-lines';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'dist/src/cli/main.js');

/** Runs `xroute <args> | head -1` in bash from the repository root: head's line, xroute's status and stderr. */
function pipeToHead(args: string[]): Promise<{ line: string; status: number; stderr: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-head-'));
  const errFile = path.join(dir, 'stderr');
  const script = 'node "$0" "$@" 2>"$ERR" | head -1; echo "status ${PIPESTATUS[0]}"';
  return new Promise((resolve, reject) => {
    const shell = spawn('bash', ['-c', script, MAIN, ...args], { cwd: ROOT, env: { ...process.env, ERR: errFile }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    shell.stdout.on('data', (d) => (out += String(d)));
    shell.on('error', reject);
    shell.on('exit', () => {
      const lines = out.trim().split('\n');
      const status = Number(/^status (\d+)$/.exec(lines.pop() ?? '')?.[1]);
      resolve({ line: lines.join('\n'), status, stderr: readFileSync(errFile, 'utf8') });
    });
  });
}

const STACK_OR_EPIPE = /^\s+at |EPIPE|Unhandled/m;

it('run: stops the flow cleanly when its stdout reader exits, reaps its jobs, and exits 141 without a stack trace', async () => {
  // debug: the log line of each job's end carries its pid (info shows only what an operator acts on)
  const r = await pipeToHead(['run', 'config/demo.json', '--json-logs', '--log-level', 'debug']);
  expect(r.line).toMatch(/^notice/);
  expect(r.stderr).not.toMatch(STACK_OR_EPIPE);
  const log = jsonLines<{ message: string; pid?: number; pids?: number[] }>(r.stderr);
  const messages = log.map((l) => l.message);
  expect(messages).toEqual(expect.arrayContaining(['stopping: stdout was closed by its reader', 'flow stopped']));
  const jobPids = log.flatMap((l) => [...(l.pid !== undefined ? [l.pid] : []), ...(l.pids ?? [])]);
  expect(jobPids.length).toBeGreaterThan(0);
  expect(jobPids.filter(isLive)).toEqual([]);
  expect(r.status).toBe(141);
});

it('schema: ends quietly with status 141 when its stdout reader exits', async () => {
  const r = await pipeToHead(['schema']);
  expect([r.line, r.stderr, r.status]).toEqual(['{', '', 141]);
});

it('eval: stops reading and ends quietly with status 141 when its stdout reader exits', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-eval-head-'));
  const messages = path.join(dir, 'messages.jsonl');
  // Far more output than a pipe holds, so that writes fail once head has exited.
  writeFileSync(
    messages,
    Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ body: `message ${i}`, properties: { RuleName: 'all' } })).join('\n') + '\n',
  );
  writeFileSync(
    path.join(dir, 'evaluator.json'),
    JSON.stringify({ Name: 'eval', ClassName: 'org.qbroker.persister.MessageEvaluator', Ruleset: { all: { PatternGroup: [{ Pattern: ['.'] }] } } }),
  );
  const r = await pipeToHead(['eval', path.join(dir, 'evaluator.json'), messages]);
  expect(JSON.parse(r.line)).toMatchObject({ body: 'message 0' });
  expect([r.stderr, r.status]).toEqual(['', 141]);
});
