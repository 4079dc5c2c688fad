/**
 * `npm start` runs config/demo.json: this runs the built CLI exactly as npm start does (npm test builds
 * dist first) and checks what the demo prints, and that it ends by itself with exit code 0 once the job
 * file is read and every job has ended.
 * The demo needs no broker: its JobPersister workers run each job as a short `node` child process.
 */
import { spawn } from 'child_process';
import * as path from 'path';

const root = path.resolve(__dirname, '../..');

/** config/demo-jobs.txt: six jobs (one a deferred duplicate), one of them a runaway, and two bypass lines. */
const JOBS = 6;
const FINISHING = 5;

function count(text: string, re: RegExp): number {
  return (text.match(re) ?? []).length;
}

function runDemo(): Promise<{ code: number | null; stdout: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'run', '--log-level', 'warn', 'config/demo.json'], { cwd: root });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, seconds: (Date.now() - started) / 1000 }));
    setTimeout(() => child.kill('SIGKILL'), 40_000).unref();
  });
}

describe('the demo topology (npm start)', () => {
  let demo: { code: number | null; stdout: string; seconds: number };

  beforeAll(async () => {
    demo = await runDemo();
  }, 45_000);

  it('schedules every job onto a worker', () => {
    expect(count(demo.stdout, / SCHEDULED on worker/g)).toBe(JOBS);
  });

  it('prints heartbeat query results from the running jobs', () => {
    expect(demo.stdout).toMatch(/query result status=RUNNING progress=\d+/);
  });

  it('finishes every job but the runaway with ReturnCode=0', () => {
    expect(count(demo.stdout, / FINISHED on worker\d ReturnCode=0/g)).toBe(FINISHING);
  });

  it('expires the runaway job after its TimeToLive', () => {
    expect(demo.stdout).toMatch(/job runaway-44 \(adhoc, id \d+\) EXPIRED on worker\d/);
  });

  it('bypasses the lines no job ruleset takes', () => {
    expect(demo.stdout).toContain('bypass  ping');
    expect(demo.stdout).toContain('bypass  something-else');
  });

  it('ends by itself with exit code 0 once every job has ended', () => {
    expect([demo.code, count(demo.stdout, / FINISHED /g), count(demo.stdout, / abort result /g)]).toEqual([0, FINISHING, 1]);
  });
});
