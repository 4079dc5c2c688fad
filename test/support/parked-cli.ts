/** Runs `xroute parked` in process (src/cli/parked-command.ts) and captures what it prints, for the parked-message suites. */
import { parkedCommand, ParkedCommandOptions } from '../../src/cli/parked-command';
import { captureIo } from './captured-io';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `options` complete the defaults: no ids, not --all, --json. */
export async function runParked(options: Partial<ParkedCommandOptions> & Pick<ParkedCommandOptions, 'action' | 'broker'>): Promise<CliRun> {
  const captured = captureIo();
  const code = await parkedCommand({ ids: [], all: false, json: true, ...options }, captured.io);
  return { code, out: captured.out(), err: captured.err() };
}
