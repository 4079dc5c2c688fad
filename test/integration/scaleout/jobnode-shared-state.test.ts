/**
 * Three xroute processes run the same JobNode topology on one RabbitMQ queue, their JobNodes sharing
 * their limits through Redis (SharedState). Asserted from the workers' side, with the timestamps they
 * log: the group's Threshold 2 holds over all processes, no key runs twice at once, every job is done
 * once; after kill -9 of a process holding slots, its slots come back within the lease and its jobs are
 * redelivered and done once. Needs RabbitMQ on 127.0.0.1:5672 and Redis on 127.0.0.1:6379.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REDIS_URL, deleteRedisPrefix, requireRedis } from '../../support/redis';
import { Admin, uniqueName, waitForCounts } from '../amqp/amqp-kit';
import { Instance, WORKER_SCRIPT, WorkerEvent, firstTimeOpen, maxConcurrent, maxConcurrentPerKey, readWorkerLog, startInstance } from './instances';
import { waitFor } from '../../support/wait';
import { jobWorker, noticeAndBypassFiles, rabbitQueueReceiver } from '../../support/job-topology';

jest.setTimeout(60_000);

const THRESHOLD = 2;
const LEASE_S = 2;
const keyOf = (job: string) => job.replace(/-retry$/, '');

let admin: Admin;
let instances: Instance[] = [];
let namespace = '';

beforeAll(async () => {
  await requireRedis();
  admin = await Admin.open();
});

afterEach(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  instances = [];
  await deleteRedisPrefix(namespace);
});

afterAll(async () => {
  await admin?.cleanup();
});

/** A topology: RabbitMQ queue -> JobNode (one group, Threshold 2, key = body) -> 3 JobPersister workers. */
function topology(queue: string, dir: string, log: string, tenths: number): string {
  namespace = uniqueName('jobnode-shared');
  const worker = (n: number) => jobWorker(n, WORKER_SCRIPT, [log, String(tenths)], '1000');
  const config = {
    Name: 'scaleout-jobs',
    Capacity: '4',
    Receiver: ['rcvr_jobs'],
    Node: ['node_jobs'],
    Persister: ['pstr_worker1', 'pstr_worker2', 'pstr_worker3', 'pstr_notice', 'pstr_bypass'],
    rcvr_jobs: {
      ...rabbitQueueReceiver(queue),
      Operation: 'get',
      LinkName: 'jobs',
      Mode: 'daemon',
      XAMode: '1',
      TextMode: '1',
    },
    node_jobs: {
      ClassName: 'org.qbroker.node.JobNode',
      Operation: 'schedule',
      LinkName: 'jobs',
      Capacity: '4',
      Heartbeat: '1',
      SharedState: REDIS_URL,
      SharedStateNamespace: namespace,
      SharedStateLease: String(LEASE_S),
      OutLink: ['notice', 'bypass', 'worker1', 'worker2', 'worker3'],
      Ruleset: [
        { Name: 'work', Threshold: String(THRESHOLD), PatternGroup: [{ Pattern: ['^job-'] }], KeyTemplate: '##body##', KeySubstitution: 's/-retry$//' },
      ],
    },
    pstr_worker1: worker(1),
    pstr_worker2: worker(2),
    pstr_worker3: worker(3),
    ...noticeAndBypassFiles(dir),
  };
  const file = path.join(dir, 'topology.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

async function setUp(jobs: string[], tenths: number): Promise<{ queue: string; log: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-scaleout-'));
  const log = path.join(dir, 'workers.log');
  const queue = await admin.queue(uniqueName('scaleout-jobs'), { durable: true });
  const file = topology(queue, dir, log, tenths);
  for (const job of jobs) admin.ch.sendToQueue(queue, Buffer.from(job), { messageId: job });
  await admin.ch.waitForConfirms();
  instances = [startInstance(file), startInstance(file), startInstance(file)];
  return { queue, log };
}

const ends = (events: readonly WorkerEvent[]) => events.filter((e) => e.kind === 'end').map((e) => e.job);

it('holds Threshold 2 and key exclusivity over 3 processes and does every job once', async () => {
  const jobs = [...Array.from({ length: 16 }, (_, i) => `job-${i}`), 'job-3-retry', 'job-7-retry', 'job-11-retry'];
  const { queue, log } = await setUp(jobs, 3);
  await waitFor(() => ends(readWorkerLog(log)).length >= jobs.length, 'every job to end', 45_000, 50);
  await waitForCounts(queue, (c) => c.ready === 0 && c.unacked === 0, 'every request acknowledged');
  const events = readWorkerLog(log);
  const observed = maxConcurrent(events);
  console.log(
    `JobNode SharedState, 3 processes: max concurrent ${observed} (Threshold ${THRESHOLD}); jobs run by ${new Set(events.map((e) => e.instancePid)).size} processes`,
  );
  expect(observed).toBe(THRESHOLD);
  expect(maxConcurrentPerKey(events, keyOf)).toBe(1);
  expect(ends(events).sort()).toEqual([...jobs].sort());
  expect(events.filter((e) => e.kind === 'start')).toHaveLength(jobs.length);
});

it('gives the slots of a killed process back within the lease, and its jobs are redelivered and done once', async () => {
  const jobs = Array.from({ length: 10 }, (_, i) => `job-${i}`);
  const { queue, log } = await setUp(jobs, 15);
  await waitFor(() => readWorkerLog(log).filter((e) => e.kind === 'start').length >= 1, 'a job to start', 20_000, 50);
  const victimPid = readWorkerLog(log).find((e) => e.kind === 'start')!.instancePid;
  const victim = instances.find((i) => i.pid === victimPid)!;
  const heldByVictim = () => {
    const events = readWorkerLog(log).filter((e) => e.instancePid === victimPid);
    return events.filter((e) => e.kind === 'start').length - events.filter((e) => e.kind !== 'start').length;
  };
  victim.child.kill('SIGKILL');
  const killedAt = Date.now();
  await victim.exited;

  // The victim's running jobs are killed by their supervisors; its slots stay taken until their lease lapses.
  await waitFor(() => heldByVictim() === 0, "the killed process's workers to stop", 5_000, 50);
  const killedHolding = readWorkerLog(log).filter((e) => e.kind === 'killed').length;

  await waitFor(() => ends(readWorkerLog(log)).length >= jobs.length, 'every job to end', 50_000, 50);
  await waitForCounts(queue, (c) => c.ready === 0 && c.unacked === 0, 'every request acknowledged');
  const events = readWorkerLog(log);
  const killed = events.filter((e) => e.kind === 'killed').map((e) => e.job);
  // Recovery: from the kill until the survivors run Threshold jobs again (the victim's slots lapsed and were taken).
  const recoveredAt =
    firstTimeOpen(
      events.filter((e) => e.instancePid !== victimPid),
      THRESHOLD,
      killedAt,
    ) ?? Infinity;
  console.log(
    `JobNode SharedState kill -9: victim held ${killedHolding} slot(s); the survivors ran ${THRESHOLD} jobs again ${recoveredAt - killedAt} ms after the kill (lease ${LEASE_S * 1000} ms, renewed every ${Math.floor((LEASE_S * 1000) / 3)} ms); max concurrent ${maxConcurrent(events)} (Threshold ${THRESHOLD})`,
  );
  expect(killedHolding).toBeGreaterThan(0);
  expect(killed.every((job) => events.some((e) => e.kind === 'end' && e.job === job && e.instancePid !== victimPid))).toBe(true);
  expect(recoveredAt - killedAt).toBeLessThan(LEASE_S * 1000 + 1500);
  expect(maxConcurrent(events)).toBeLessThanOrEqual(THRESHOLD);
  expect(maxConcurrentPerKey(events, keyOf)).toBe(1);
  expect(ends(events).sort()).toEqual([...jobs].sort());
});
