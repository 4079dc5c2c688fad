/**
 * Runs several xroute processes (the built CLI, as an operator would) on one topology file, and reads
 * the start/end lines their workers append to a shared log.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Admin, adminForFile } from '../amqp/amqp-kit';
import { stopProcess } from '../../support/xroute-cli';

const root = path.resolve(__dirname, '../../..');

export interface Instance {
  readonly child: ChildProcess;
  readonly pid: number;
  /** stdout and stderr lines so far. */
  readonly lines: string[];
  readonly exited: Promise<number | null>;
  /** SIGINT, then the exit code. */
  stop(): Promise<number | null>;
}

/** `logLevel` info lets a test wait for a component's start-up lines (e.g. a receiver's `subscribed`); `options` go to `run`. */
export function startInstance(topologyFile: string, logLevel: 'warn' | 'info' = 'warn', options: readonly string[] = []): Instance {
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'run', '--log-level', logLevel, ...options, topologyFile], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (d: Buffer) => lines.push(...String(d).split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal === null ? null : -1))));
  return {
    child,
    pid: child.pid as number,
    lines,
    exited,
    stop: async () => {
      await stopProcess(child, 'SIGINT', undefined, () => lines.join('\n'));
      return exited;
    },
  };
}

/**
 * The hooks of a scale-out test file: one broker Admin for the file (cleaned up after it), and every instance
 * a test starts with `start` stopped (SIGINT) after that test.
 */
export function scaleOutFixture(): {
  admin: () => Admin;
  start: (topologyFile: string, logLevel?: 'warn' | 'info', options?: readonly string[]) => Instance;
} {
  const admin = adminForFile();
  let started: Instance[] = [];
  afterEach(async () => {
    await Promise.all(started.map((i) => i.stop()));
    started = [];
  });
  return {
    admin,
    start: (topologyFile, logLevel, options) => {
      const instance = startInstance(topologyFile, logLevel, options);
      started.push(instance);
      return instance;
    },
  };
}

/** One line a worker wrote: `start|end|killed <job> <epoch ms> <xroute pid>`. */
export interface WorkerEvent {
  readonly kind: 'start' | 'end' | 'killed';
  readonly job: string;
  readonly at: number;
  readonly instancePid: number;
}

export function readWorkerLog(file: string): WorkerEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [kind, job, at, pid] = line.split(' ');
      return { kind: kind as WorkerEvent['kind'], job, at: Number(at), instancePid: Number(pid) };
    });
}

/**
 * The shell a JobPersister runs per job ($1 the job, $2 the log, $3 its duration in tenths of a second):
 * it logs its start, works, and logs its end; killed with SIGTERM (a stop, or its supervisor when its
 * xroute process died) it logs `killed`. Its parent is the job's supervisor, whose parent is xroute. Its
 * output goes nowhere: once xroute is dead, a write to the pipes it had would end the worker by SIGPIPE.
 */
export const WORKER_SCRIPT = [
  'exec >/dev/null 2>&1; XROUTE=$(cut -d" " -f4 /proc/$PPID/stat)',
  'log() { echo "$1 $JOB $(date +%s%3N) $XROUTE" >> "$LOG"; }',
  "JOB=$1; LOG=$2; trap 'log killed; exit 1' TERM; log start",
  'i=0; while [ $i -lt $3 ]; do sleep 0.1; i=$((i+1)); done',
  'log end',
].join('\n');

/** The most intervals (start..end or start..killed) open at one instant; an end at the same ms as a start closes first. */
export function maxConcurrent(events: readonly WorkerEvent[], include: (job: string) => boolean = () => true): number {
  const points = events.filter((e) => include(e.job)).map((e) => ({ at: e.at, delta: e.kind === 'start' ? 1 : -1 }));
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let max = 0;
  for (const p of points) {
    open += p.delta;
    max = Math.max(max, open);
  }
  return max;
}

/** The first instant at or after `after` when `n` intervals are open (undefined = never). */
export function firstTimeOpen(events: readonly WorkerEvent[], n: number, after: number): number | undefined {
  const points = events.map((e) => ({ at: e.at, delta: e.kind === 'start' ? 1 : -1 }));
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  for (const p of points) {
    open += p.delta;
    if (p.at >= after && open >= n) return p.at;
  }
  return undefined;
}

/** Per key: the most runs of that key open at one instant. */
export function maxConcurrentPerKey(events: readonly WorkerEvent[], keyOf: (job: string) => string): number {
  const keys = new Set(events.map((e) => keyOf(e.job)));
  let max = 0;
  for (const k of keys)
    max = Math.max(
      max,
      maxConcurrent(events, (job) => keyOf(job) === k),
    );
  return max;
}
