/**
 * One job's child process: started without a shell (unless the command is /bin/sh -c ...), in its own
 * process group so that a kill reaches everything the job started; stdout and stderr captured together,
 * in arrival order, up to MaxOutput bytes; output lines counted and matched against ProgressPattern; killed
 * with SIGTERM then SIGKILL after the grace period (Timeout, abort, stop).
 *
 * The direct child is the job's supervisor (job-supervisor.js), the leader of the job's process group: it
 * starts the job in that group and kills the group when this process dies, however it dies, so no job
 * outlives its xroute (docs/components/job-persister.md). `pid` is the supervisor's, i.e. the group's id.
 *
 * Timers here are plain Node timers owned by the process object and always cleared when it closes, because
 * the actor's own timers are already gone when its stop() waits for the processes to die.
 */
import { ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CommandLine } from './job-persister-command';

/** Why the process was asked to end; undefined when it ended by itself. */
export type KillReason = 'timeout' | 'abort' | 'stop';

/** Return code when the process could not be started (EXCEPTION, as in the MessageEvaluator: docs/components/job-persister.md). */
export const RC_EXCEPTION = '-1';

export interface JobExit {
  /** The exit code as a string, "-<signal number>" for a signal, "-1" when it could not start. */
  readonly rc: string;
  readonly signal?: NodeJS.Signals;
  readonly killReason?: KillReason;
  /** Captured stdout+stderr (at most maxOutput bytes), or the start error's message. */
  readonly output: string;
  readonly truncated: boolean;
  readonly lines: number;
  readonly durationMs: number;
  readonly startError?: string;
}

export interface JobProcessOptions {
  readonly command: CommandLine;
  readonly cwd?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly maxOutput: number;
  readonly killGraceMs: number;
  /** 0 = no limit. */
  readonly timeoutMs: number;
  readonly progressPattern?: RegExp;
  /** Called once, when the process has exited and its output is closed (or it could not start). */
  readonly onClose: (exit: JobExit) => void;
}

/** A process that has exited but whose pipes stay open (a leftover grandchild) is cut off after this. */
const PIPE_CLOSE_WAIT_MS = 500;
/** Only the current, unfinished line is kept for progress matching; a longer one is cut. */
const MAX_LINE_CHARS = 4096;
/** A plain CommonJS script, shipped as is next to this module (also when run from the TypeScript sources). */
const SUPERVISOR = path.join(__dirname, 'job-supervisor.js');
/** What the supervisor answers on its channel (see job-supervisor.js). */
interface SupervisorReport {
  readonly pid?: number;
  readonly error?: string;
  readonly exit?: { readonly code: number | null; readonly signal: NodeJS.Signals | null };
}

export class JobProcess {
  readonly startedAt = Date.now();
  readonly pid: number | undefined;
  /** The last progress value the output reported. */
  progress: string | undefined;
  /** Output lines so far (stdout and stderr). */
  lines = 0;
  killReason: KillReason | undefined;
  private readonly child: ChildProcess;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private truncated = false;
  private exited = false;
  private closed = false;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  /** The socket to the job's supervisor (see job-supervisor.js). */
  private readonly channel: Duplex | null;
  /** The supervisor could not start the job (no such program, bad working directory). */
  private startError: string | undefined;
  private timeoutTimer?: NodeJS.Timeout;
  private killTimer?: NodeJS.Timeout;
  private pipeTimer?: NodeJS.Timeout;
  private readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;

  constructor(private readonly options: JobProcessOptions) {
    this.closedPromise = new Promise((r) => (this.resolveClosed = r));
    // The supervisor's own Node needs none of the service's NODE_OPTIONS (a --require would run per job).
    this.child = spawn(process.execPath, [SUPERVISOR], {
      env: { ...process.env, NODE_OPTIONS: undefined },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      // Own process group: kill(-pid) reaches the job's children too, and a Ctrl-C meant for the service
      // does not reach the jobs (the service kills them itself when it stops).
      detached: true,
      windowsHide: true,
    });
    this.pid = this.child.pid;
    this.channel = this.child.stdio[3] as Duplex | null;
    this.openChannel(this.channel);
    this.listen(this.child.stdout, new StringDecoder('utf8'));
    this.listen(this.child.stderr, new StringDecoder('utf8'));
    this.child.on('error', (err) => this.onError(err));
    // The supervisor reports the job's exit first (see openChannel); its own exit then only mirrors it.
    this.child.on('exit', (code, signal) => {
      if (!this.exited) this.onExit(code, signal);
    });
    this.child.on('close', () => this.finish());
    if (options.timeoutMs > 0) this.timeoutTimer = setTimeout(() => this.kill('timeout'), options.timeoutMs);
  }

  get running(): boolean {
    return !this.exited && !this.closed;
  }

  durationMs(): number {
    return Date.now() - this.startedAt;
  }

  /** SIGTERM to the job's process group, SIGKILL after the grace period. Repeated calls change nothing. */
  kill(reason: KillReason): void {
    if (this.exited || this.closed) return;
    if (this.killReason !== undefined) return;
    this.killReason = reason;
    clearTimeout(this.timeoutTimer);
    if (this.options.killGraceMs <= 0) {
      this.signal('SIGKILL');
      return;
    }
    this.signal('SIGTERM');
    this.killTimer = setTimeout(() => this.signal('SIGKILL'), this.options.killGraceMs);
  }

  /**
   * Kills the job and everything it started, and resolves when its whole process group is gone (or after
   * about twice the kill grace plus a little, if something refuses to die even SIGKILL, e.g. a process in
   * uninterruptible sleep). Resolves true when nothing of the job is left.
   */
  async terminate(reason: KillReason): Promise<boolean> {
    this.kill(reason);
    const grace = Math.max(this.options.killGraceMs, 0);
    await waitAtMost(this.closedPromise, grace + PIPE_CLOSE_WAIT_MS + 500);
    if (await this.groupGone(grace)) return true;
    this.signal('SIGKILL');
    return this.groupGone(1_000);
  }

  /** True once no process of the job's group exists (the leader is reaped by us, the rest by init). */
  private async groupGone(waitMs: number): Promise<boolean> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (!this.groupAlive()) return true;
      if (Date.now() >= deadline) return false;
      await sleep(20);
    }
  }

  private groupAlive(): boolean {
    if (this.pid === undefined) return false;
    try {
      process.kill(-this.pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        this.child.kill(sig);
      } catch {
        // already gone
      }
    }
  }

  /** Hands the job to the supervisor; keeps the channel open (its end is what the supervisor watches). */
  private openChannel(channel: Duplex | null): void {
    if (!channel) return;
    channel.on('error', () => undefined); // the supervisor may be gone before it read the job: its exit says why
    const { command, cwd, env, killGraceMs } = this.options;
    channel.write(JSON.stringify({ file: command.file, args: command.args, cwd, env, killGraceMs }) + '\n');
    let received = '';
    channel.setEncoding('utf8');
    channel.on('data', (chunk: string) => {
      received += chunk;
      for (let end = received.indexOf('\n'); end >= 0; end = received.indexOf('\n')) {
        this.onReport(JSON.parse(received.slice(0, end)) as SupervisorReport);
        received = received.slice(end + 1);
      }
    });
  }

  private onReport(report: SupervisorReport): void {
    if (report.error !== undefined) this.startError = report.error;
    if (report.exit !== undefined && !this.exited) {
      this.onExit(report.exit.code, report.exit.signal);
      this.releaseSupervisorWhenOutputEnds();
    }
  }

  /** Once the job's output has ended, the supervisor may end too ({"done": true}); until then it still watches. */
  private releaseSupervisorWhenOutputEnds(): void {
    const open = [this.child.stdout, this.child.stderr].filter((s) => s !== null && !s.readableEnded);
    let left = open.length;
    const release = () => {
      if (--left <= 0) this.channel?.write(JSON.stringify({ done: true }) + '\n');
    };
    if (left === 0) {
      left = 1;
      release();
      return;
    }
    for (const stream of open) stream?.once('end', release);
  }

  private listen(stream: NodeJS.ReadableStream | null, decoder: StringDecoder): void {
    if (!stream) return;
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      this.keep(chunk);
      const text = partial + decoder.write(chunk);
      const parts = text.split('\n');
      partial = (parts.pop() as string).slice(-MAX_LINE_CHARS);
      for (const line of parts) this.onLine(line);
    });
    stream.on('end', () => {
      const rest = partial + decoder.end();
      partial = '';
      if (rest !== '') this.onLine(rest);
    });
  }

  private keep(chunk: Buffer): void {
    const room = this.options.maxOutput - this.kept;
    if (room <= 0) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    const part = chunk.length <= room ? chunk : chunk.subarray(0, utf8Boundary(chunk, room));
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.kept += part.length;
  }

  private onLine(line: string): void {
    this.lines++;
    const re = this.options.progressPattern;
    if (re === undefined) return;
    const m = re.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (m) this.progress = (m[1] ?? m[0]).trim();
  }

  private onError(err: Error): void {
    if (this.pid === undefined) {
      // Never started (no such program, bad working directory): no exit or close will follow reliably.
      this.exited = true;
      this.finish(err.message);
    } else if (!this.exited) {
      // A kill that failed; the process is still ours, try the hard way.
      this.signal('SIGKILL');
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    this.exitCode = code;
    this.exitSignal = signal;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.killTimer);
    // Something the job started still holds the pipes: it belongs to the job, so it goes too.
    this.pipeTimer = setTimeout(() => {
      this.signal('SIGKILL');
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
      this.channel?.destroy();
    }, PIPE_CLOSE_WAIT_MS);
  }

  private finish(spawnError?: string): void {
    if (this.closed) return;
    this.closed = true;
    const startError = spawnError ?? this.startError;
    this.channel?.destroy();
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.killTimer);
    clearTimeout(this.pipeTimer);
    const signal = this.exitSignal ?? undefined;
    const rc =
      startError !== undefined
        ? RC_EXCEPTION
        : this.exitCode !== null
          ? String(this.exitCode)
          : signal !== undefined
            ? `-${os.constants.signals[signal] ?? 0}`
            : RC_EXCEPTION;
    this.resolveClosed();
    this.options.onClose({
      rc,
      signal,
      killReason: this.killReason,
      output: startError ?? Buffer.concat(this.chunks).toString('utf8'),
      truncated: this.truncated,
      lines: this.lines,
      durationMs: this.durationMs(),
      startError,
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves when `p` does or after `ms`, leaving no timer behind. */
function waitAtMost(p: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    void p.then(() => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** The largest length <= max that does not cut a UTF-8 character in two. */
function utf8Boundary(buf: Buffer, max: number): number {
  let n = max;
  while (n > 0 && (buf[n] & 0xc0) === 0x80) n--;
  return n;
}
