/** Runs `xroute parked` in process (src/cli/parked-command.ts) and captures what it prints, for the parked-message suites. */
import { PassThrough } from 'stream';
import { parkedCommand, ParkedCommandOptions } from '../../src/cli/parked-command';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `options` complete the defaults: no ids, not --all, --json. */
export async function runParked(options: Partial<ParkedCommandOptions> & Pick<ParkedCommandOptions, 'action' | 'broker'>): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  const code = await parkedCommand({ ids: [], all: false, json: true, ...options }, { stdout, stderr });
  return { code, out, err };
}
