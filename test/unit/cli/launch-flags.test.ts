/**
 * The `xroute` command starts Node with the young-generation size the flows need: its first line
 * (`#!/usr/bin/env -S node ...`) is run here the way the kernel runs it, and a module preloaded
 * through NODE_OPTIONS reports the flags Node was started with.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAIN = resolve(__dirname, '../../../dist/src/cli/main.js');

/** Runs MAIN through its `#!` line, as executing the installed `xroute` command does. */
function runAsCommand(args: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string } {
  const shebang = readFileSync(MAIN, 'utf8').split('\n', 1)[0]!;
  if (!shebang.startsWith('#!')) throw new Error(`${MAIN} has no #! line`);
  const [interpreter, ...interpreterArgs] = shebang.slice(2).trim().split(/\s+/);
  const run = spawnSync(interpreter!, [...(interpreterArgs.length > 0 ? [interpreterArgs.join(' ')] : []), MAIN, ...args], { env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout };
}

describe('the xroute command', () => {
  // npx and the installed bin run the file itself: a build that leaves it without its x bit made every
  // `npx xroute` of the examples fail with "Permission denied" whenever nothing else had set the bit.
  it('is built executable', () => {
    expect(() => accessSync(MAIN, constants.X_OK)).not.toThrow();
  });

  it('starts Node with --max-semi-space-size=64', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xroute-launch-'));
    const probe = join(dir, 'probe.js');
    const report = join(dir, 'exec-argv.json');
    writeFileSync(probe, `require('fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.execArgv));\n`);
    const run = runAsCommand(['--version'], { ...process.env, NODE_OPTIONS: `--require ${probe}` });
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toContain('--max-semi-space-size=64');
  });
});
