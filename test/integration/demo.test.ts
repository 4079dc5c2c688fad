/**
 * `npm start` runs config/demo.json: this runs the built CLI exactly as npm start does (npm test builds
 * dist first) and checks what the demo prints, then that SIGINT stops it cleanly with exit code 0.
 */
import { spawn } from 'child_process';
import * as path from 'path';

const root = path.resolve(__dirname, '../..');

function runDemo(): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'run', '--log-level', 'warn', 'config/demo.json'], { cwd: root });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
      // five jobs finish (one is a deferred duplicate of nightly backup-db); two lines bypass the scheduler
      if ((stdout.match(/ FINISHED /g) ?? []).length === 6) child.kill('SIGINT');
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout }));
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  });
}

describe('the demo topology (npm start)', () => {
  it('schedules every job, bypasses the rest, and exits 0 on SIGINT', async () => {
    const { code, stdout } = await runDemo();
    expect(code).toBe(0);
    expect((stdout.match(/ SCHEDULED on worker/g) ?? []).length).toBe(6);
    expect(stdout).toContain('bypass  ping');
    expect(stdout).toContain('bypass  something-else');
  }, 30_000);
});
