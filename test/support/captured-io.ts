/** Standard output and error for a command run in process: streams that keep what is written to them. */
import { PassThrough } from 'stream';

export interface CapturedIo {
  readonly io: { readonly stdout: PassThrough; readonly stderr: PassThrough };
  /** What was written to stdout so far. */
  out(): string;
  /** What was written to stderr so far. */
  err(): string;
}

export function captureIo(): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
}
