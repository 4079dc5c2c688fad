/**
 * What is left of processes, read from /proc (Linux): the live processes of given process groups, for tests
 * that prove no job outlives its xroute.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly pgid: number;
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses, so parse after the last ')'. */
function readStat(pid: string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid: Number(pid), state: fields[0], pgid: Number(fields[2]) };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** Pids of the processes, zombies excluded (they have exited), whose process group is one of `pgids`. */
export function liveProcessesInGroups(pgids: readonly number[]): number[] {
  const wanted = new Set(pgids);
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(readStat)
    .filter((s): s is ProcStat => s !== undefined && s.state !== 'Z' && wanted.has(s.pgid))
    .map((s) => s.pid);
}

/** True while `pid` exists and has not exited (a zombie counts as gone). */
export function isLive(pid: number): boolean {
  const s = readStat(String(pid));
  return s !== undefined && s.state !== 'Z';
}
