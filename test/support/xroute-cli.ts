/** Runs the built command (dist/src/cli/main.js, so `npm run build` first) as an operator runs it, to its exit. */
import { ExecFileOptions, execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export const XROUTE_MAIN = path.resolve(__dirname, '../../dist/src/cli/main.js');

export interface XrouteRun {
  /** The exit code; -1 when it ended by a signal (a timeout in `options`) or did not start. */
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `xroute args` with `options` (cwd, env, timeout, maxBuffer): what it wrote and how it exited. */
export function runXroute(args: readonly string[], options: ExecFileOptions = {}): Promise<XrouteRun> {
  return new Promise((resolve) =>
    execFile(process.execPath, [XROUTE_MAIN, ...args], options, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    ),
  );
}

/** One sample of a Prometheus text exposition, e.g. metric(text, 'xroute_link_stuck', 'link="in",reason="full"'). */
export function metric(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

/** A fresh folder (under the system's temporary one) for what a run of xroute reads and writes. */
export function scratchDir(prefix = 'xroute-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Writes `json` as the topology file flow.json in `dir` (a fresh folder by default) and returns its path. */
export function writeFlowFile(json: unknown, dir = scratchDir()): string {
  const file = path.join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(json));
  return file;
}
