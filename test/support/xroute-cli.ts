/** Runs the built command (dist/src/cli/main.js, so `npm run build` first) as an operator runs it, to its exit. */
import { ChildProcess, ExecFileOptions, execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitForOutput } from './process-output';

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

/** A `xroute run` as its own process, with its admin endpoint on a port of the kernel's choice. */
export interface XrouteProcess {
  readonly child: ChildProcess;
  /** The admin endpoint, http://127.0.0.1:PORT. */
  readonly url: string;
}

/**
 * Starts `xroute run file --json-logs --admin 127.0.0.1:0` and then `options` (e.g. --keep-running), with `env`;
 * resolves once it logs where its admin endpoint listens. A process that never does is killed.
 */
export async function startXrouteRun(file: string, options: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<XrouteProcess> {
  const child = spawn(process.execPath, [XROUTE_MAIN, 'run', file, '--json-logs', '--admin', '127.0.0.1:0', ...options], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  try {
    const [, url] = await waitForOutput(child, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/, 20_000);
    return { child, url };
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
}

/**
 * How long a stopped `xroute run` may take to exit: more than the default drain deadline (60 s, src/runtime/drain.ts),
 * so a process that does not exit is one that stopped its flow but still holds something open.
 */
const EXIT_AFTER_SIGNAL_MS = 75_000;

/**
 * Sends `signal` to `child` unless it has exited already, and resolves with its exit code (null when a signal ended
 * it). After `timeoutMs` it kills the process and rejects, naming the signal and, when given, the end of what it printed.
 */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals,
  timeoutMs = EXIT_AFTER_SIGNAL_MS,
  output: () => string = () => '',
): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL'); // it would outlive the test otherwise
      reject(new Error(`pid ${child.pid} did not exit within ${timeoutMs} ms of ${signal} (killed); its output ended with:\n${output().slice(-2000)}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends SIGTERM to `child` if it still runs, and resolves once it has exited (bounded: see stopProcess). */
export async function terminate(child: ChildProcess | undefined): Promise<void> {
  if (child !== undefined) await stopProcess(child, 'SIGTERM');
}
