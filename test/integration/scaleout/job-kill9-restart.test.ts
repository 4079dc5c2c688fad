/**
 * kill -9 of an xroute running 4 jobs read from RabbitMQ (XAMode 1, so their requests are redelivered), then a
 * restart at once: none of the killed process's jobs (nor the grandchildren they started) is alive 2 s after
 * the kill, and the restarted xroute runs each job again with no copy of it running beside: per job, the runs
 * logged by the workers never overlap, and each job ends once. Needs RabbitMQ on 127.0.0.1:5672.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { liveProcessesInGroups } from '../../support/process-groups';
import { uniqueName, waitForCounts } from '../amqp/amqp-kit';
import { WORKER_SCRIPT, maxConcurrentPerKey, readWorkerLog, scaleOutFixture } from './instances';
import { waitFor } from '../../support/wait';
import { rabbitQueueReceiver } from '../../support/job-topology';

jest.setTimeout(60_000);

const JOBS = ['job-0', 'job-1', 'job-2', 'job-3'];

const fixture = scaleOutFixture();

/** Each job first starts a grandchild and writes "<pid> <process group>" to the pids file ($4), then runs the worker script. */
function topology(dir: string, queue: string, log: string, pids: string): string {
  const script = `sleep 60 & echo "$$ $(cut -d" " -f5 /proc/$$/stat)" >> "$4"\n${WORKER_SCRIPT}`;
  const config = {
    Name: 'kill9-restart',
    Capacity: '8',
    Receiver: ['rcvr_jobs'],
    Persister: ['pstr_jobs'],
    rcvr_jobs: {
      ...rabbitQueueReceiver(queue),
      Operation: 'get',
      LinkName: 'jobs',
      XAMode: '1',
      TextMode: '1',
    },
    pstr_jobs: {
      ClassName: 'org.qbroker.persister.JobPersister',
      Operation: 'execute',
      LinkName: 'jobs',
      MaxJobs: '4',
      KillGrace: '1000',
      Script: ['/bin/sh', '-c', script, 'worker', '##body##', log, '30', pids],
    },
  };
  const file = path.join(dir, 'topology.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

function groupsOf(pids: string): number[] {
  if (!existsSync(pids)) return [];
  return readFileSync(pids, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split(' ')[1]));
}

it('leaves no job of a killed xroute running, and after the restart each job runs once at a time', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-kill9-restart-'));
  const log = path.join(dir, 'workers.log');
  const pids = path.join(dir, 'pids.txt');
  const admin = fixture.admin();
  const queue = await admin.queue(uniqueName('kill9-jobs'), { durable: true });
  const file = topology(dir, queue, log, pids);
  for (const job of JOBS) admin.ch.sendToQueue(queue, Buffer.from(job), { messageId: job });
  await admin.ch.waitForConfirms();

  const first = fixture.start(file);
  await waitFor(
    () => readWorkerLog(log).filter((e) => e.kind === 'start').length === JOBS.length && groupsOf(pids).length === JOBS.length,
    'the 4 jobs to start',
    30_000,
    50,
  );
  const groups = groupsOf(pids);
  first.child.kill('SIGKILL');
  const killedAt = Date.now();
  await first.exited;
  fixture.start(file);

  await waitFor(() => liveProcessesInGroups(groups).length === 0 || Date.now() - killedAt >= 2_000, 'the killed jobs to end, or 2 s', 5_000, 50);
  const left = liveProcessesInGroups(groups);
  const goneAfter = Date.now() - killedAt;
  await waitFor(() => readWorkerLog(log).filter((e) => e.kind === 'end').length >= JOBS.length, 'every job to end after the restart', 40_000, 50);
  await waitForCounts(queue, (c) => c.ready === 0 && c.unacked === 0, 'every request acknowledged');
  const events = readWorkerLog(log);
  const runs = events.filter((e) => e.kind === 'start').length;
  console.log(
    `kill -9 with ${JOBS.length} jobs running: ${left.length} job processes left ${goneAfter} ms after the kill; ${runs} runs in all, most copies of one job at once: ${maxConcurrentPerKey(events, (job) => job)}`,
  );
  expect(left).toEqual([]);
  expect(maxConcurrentPerKey(events, (job) => job)).toBe(1);
  expect(
    events
      .filter((e) => e.kind === 'end')
      .map((e) => e.job)
      .sort(),
  ).toEqual(JOBS);
  expect(
    events
      .filter((e) => e.kind === 'killed' && e.instancePid === first.pid)
      .map((e) => e.job)
      .sort(),
  ).toEqual(JOBS);
});
