/** Zeroes or dumps valgrind's callgrind counters of this process, so a dump holds only the part of a probe timed between them. */
import { spawn } from 'node:child_process';

/** Runs `callgrind_control <flag>` on this process; the event loop keeps turning meanwhile, so valgrind sees the command. */
export function control(flag: '-z' | '-d'): Promise<void> {
  return new Promise((resolve) => {
    const spin = setInterval(() => undefined, 1);
    spawn('callgrind_control', [flag, String(process.pid)], { stdio: 'ignore' }).on('exit', () => {
      clearInterval(spin);
      resolve();
    });
  });
}
