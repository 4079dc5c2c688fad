/**
 * An output whose reader went away, e.g. stdout in `xroute run flow.json | head -1` once head has exited: the
 * next write fails with EPIPE (ECONNRESET on a socket), Node destroys the stream, and every later write fails
 * with ERR_STREAM_DESTROYED. That is the end of the output, not a fault of the writer (docs/cli.md).
 */
const CLOSED_OUTPUT_CODES = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

export function isClosedOutputError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' && CLOSED_OUTPUT_CODES.has(code);
}

/** True once `stream` can take no more writes (its reader went away, or it was ended). */
export function isClosedOutput(stream: NodeJS.WritableStream): boolean {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  return s.destroyed === true || s.writableEnded === true;
}

const tolerated = new WeakSet<NodeJS.WritableStream>();

/**
 * Keeps the 'error' event of a shared output such as process.stdout from crashing the process: each writer
 * learns of the failure through its own write callback. Calling it again for the same stream adds nothing.
 */
export function tolerateOutputErrors(stream: NodeJS.WritableStream): void {
  if (tolerated.has(stream)) return;
  tolerated.add(stream);
  stream.on('error', () => undefined);
}

/** Exit status of a command whose stdout reader went away: the shell's for a process ended by SIGPIPE (128 + 13). */
export const EXIT_OUTPUT_CLOSED = 141;

export interface OutputWatch {
  /** Resolves when the stream's reader has gone away. */
  readonly closed: Promise<void>;
  isClosed(): boolean;
  /** Resolves once every write so far has been made, or has failed because the reader went away. */
  flushed(): Promise<void>;
}

/** Watches a command's stdout for its reader going away; an error of the stream never crashes the process. */
export function watchOutput(stream: NodeJS.WritableStream): OutputWatch {
  let gone = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const onClosed = () => {
    gone = true;
    resolveClosed();
  };
  // Any error ends the output: the stream is destroyed after it.
  stream.on('error', onClosed);
  return {
    closed,
    isClosed: () => gone || isClosedOutput(stream),
    flushed: () =>
      new Promise((resolve) => {
        if (isClosedOutput(stream)) resolve();
        else stream.write('', () => resolve());
      }),
  };
}
