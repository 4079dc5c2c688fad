/**
 * No JobPersister job outlives its xroute, however xroute dies: a real `xroute run` (the built CLI) with 4 jobs
 * running, each of which started a grandchild, is killed with SIGKILL; within 2 s no process of any job's
 * process group is left (read from /proc). Linux only, as the process groups are.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '../../support/component-harness';
import { isLive, liveProcessesInGroups } from '../../support/process-groups';

jest.setTimeout(60_000);

const MAIN = path.resolve(__dirname, '../../../dist/src/cli/main.js');
const JOBS = 4;

/** Each job starts a grandchild (sleep), writes "<its pid> <its process group> <grandchild pid>", and waits. */
const JOB_SCRIPT = 'sleep 60 & echo "$$ $(cut -d" " -f5 /proc/$$/stat) $!" >> "$1"; wait';

let xroute: ChildProcess | undefined;

afterEach(() => {
  if (xroute?.exitCode === null && xroute.signalCode === null) xroute.kill('SIGKILL');
});

function writeFlow(dir: string, pidFile: string): string {
  writeFileSync(path.join(dir, 'jobs.txt'), Array.from({ length: JOBS }, (_, i) => `job-${i}`).join('\n') + '\n');
  const flow = {
    Name: 'kill9-jobs',
    Capacity: '8',
    Receiver: ['rcvr_jobs'],
    Persister: ['pstr_jobs'],
    rcvr_jobs: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://jobs.txt', Operation: 'read', LinkName: 'jobs' },
    pstr_jobs: {
      ClassName: 'org.qbroker.persister.JobPersister',
      Operation: 'execute',
      LinkName: 'jobs',
      MaxJobs: String(JOBS),
      KillGrace: '1000',
      Script: ['/bin/sh', '-c', JOB_SCRIPT, 'job', pidFile],
    },
  };
  const file = path.join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(flow));
  return file;
}

function readJobs(pidFile: string): { pid: number; pgid: number; grandchild: number }[] {
  if (!existsSync(pidFile)) return [];
  return readFileSync(pidFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [pid, pgid, grandchild] = line.split(' ').map(Number);
      return { pid, pgid, grandchild };
    });
}

it('leaves no process of its 4 running jobs (nor of their children) 2 s after xroute is killed with SIGKILL', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-kill9-'));
  const pidFile = path.join(dir, 'pids.txt');
  const stderr: string[] = [];
  xroute = spawn(process.execPath, [MAIN, 'run', '--log-level', 'warn', writeFlow(dir, pidFile)], { stdio: ['ignore', 'ignore', 'pipe'] });
  xroute.stderr?.on('data', (d) => stderr.push(String(d)));
  const exited = new Promise((resolve) => xroute?.on('exit', resolve));
  await waitFor(
    () => readJobs(pidFile).length === JOBS,
    () => `${JOBS} jobs to start; stderr: ${stderr.join('')}`,
    30_000,
  );
  const jobs = readJobs(pidFile);
  const groups = jobs.map((j) => j.pgid);
  const processes = jobs.flatMap((j) => [j.pid, j.grandchild]);
  expect(processes.every(isLive)).toBe(true);
  expect(new Set(groups).size).toBe(JOBS);

  xroute.kill('SIGKILL');
  const killedAt = Date.now();
  await exited;
  await waitFor(() => liveProcessesInGroups(groups).length === 0 || Date.now() - killedAt >= 2_000, 'the jobs to end or 2 s', 5_000);
  const gone = Date.now() - killedAt;
  const left = liveProcessesInGroups(groups);
  console.log(`kill -9 of xroute with ${JOBS} jobs running (${processes.length} job processes): ${left.length} left, all gone ${gone} ms after the kill`);
  expect(left).toEqual([]);
  expect(processes.filter(isLive)).toEqual([]);
});
