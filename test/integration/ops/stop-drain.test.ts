/**
 * SIGTERM of a real `xroute run` (dist/src/cli/main.js) while JobNode has 4 jobs running and 8 pending, on both
 * protocols: AmqpReceiver on the system RabbitMQ (AMQP 0-9-1) and JMSReceiver on the AMQP 1.0 test node. The drain
 * (docs/operations.md#stopping) must let the running jobs finish and acknowledge them, start no job after the
 * signal, and give the pending ones back; after a restart every job ends exactly once. Counted from the workers'
 * own log lines and from the broker's queue. Jobs last 2-6 s here (not the 10-20 s of the report that found the
 * problem): the order of events, which is what is tested, is the same.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { uniqueName } from '../amqp/amqp-kit';
import { publishAmqp10, queueInfo, RABBIT_URI, withRabbitChannel } from '../../support/amqp10-test-client';
import { Instance, WorkerEvent, readWorkerLog, scaleOutFixture } from '../scaleout/instances';
import { waitFor } from '../../support/wait';
import { jobWorker, noticeAndBypassFiles, rabbitQueueReceiver } from '../../support/job-topology';

jest.setTimeout(180_000);

/** $1 "job-N:TENTHS", $2 the log: logs its start, works TENTHS tenths of a second, logs its end. */
const WORKER = [
  'log() { echo "$1 $JOB $(date +%s%3N) $$" >> "$LOG"; }',
  'JOB=$(echo "$1" | cut -d: -f1); T=$(echo "$1" | cut -d: -f2); LOG=$2; log start',
  'i=0; while [ $i -lt $T ]; do sleep 0.1; i=$((i+1)); done',
  'log end',
].join('\n');

interface Protocol {
  readonly name: string;
  receiver(queue: string): Record<string, string>;
  /** Declares the durable queue and publishes the job bodies in order. */
  publish(queue: string, bodies: readonly string[]): Promise<void>;
  /** Messages ready in the queue (with no consumer, everything it holds). */
  ready(queue: string): Promise<number>;
}

const fixture = scaleOutFixture();
const admin = fixture.admin;

const AMQP091: Protocol = {
  name: 'AmqpReceiver (AMQP 0-9-1)',
  receiver: rabbitQueueReceiver,
  publish: async (queue, bodies) => {
    await admin().queue(queue, { durable: true });
    for (const b of bodies) admin().ch.sendToQueue(queue, Buffer.from(b), { messageId: b, persistent: true });
    await admin().ch.waitForConfirms();
  },
  ready: async (queue) => (await admin().ch.checkQueue(queue)).messageCount,
};

const AMQP10: Protocol = {
  name: 'JMSReceiver (AMQP 1.0)',
  receiver: (queue) => ({ ClassName: 'org.qbroker.receiver.JMSReceiver', URI: RABBIT_URI, Username: 'guest', Password: 'guest', QueueName: queue }),
  publish: async (queue, bodies) => {
    await withRabbitChannel(async (ch) => void (await ch.assertQueue(queue, { durable: true })));
    await publishAmqp10(
      `/amq/queue/${queue}`,
      bodies.map((body) => ({ body, durable: true })),
    );
  },
  ready: async (queue) => (await queueInfo(queue))?.messageCount ?? -1,
};

/** receiver -> JobNode (one ruleset, Threshold 4) -> 4 JobPersister workers running WORKER. */
function topology(protocol: Protocol, queue: string, dir: string, log: string): string {
  const worker = (n: number) => jobWorker(n, WORKER, [log]);
  const file = path.join(dir, 'topology.json');
  writeFileSync(
    file,
    JSON.stringify({
      Name: 'stop-drain',
      Capacity: '16',
      Receiver: ['rcvr_jobs'],
      Node: ['node_jobs'],
      Persister: ['pstr_worker1', 'pstr_worker2', 'pstr_worker3', 'pstr_worker4', 'pstr_notice', 'pstr_bypass'],
      rcvr_jobs: { ...protocol.receiver(queue), Operation: 'get', LinkName: 'jobs', Mode: 'daemon', XAMode: '1' },
      node_jobs: {
        ClassName: 'org.qbroker.node.JobNode',
        Operation: 'schedule',
        LinkName: 'jobs',
        Capacity: '16',
        Heartbeat: '1',
        OutLink: ['notice', 'bypass', 'worker1', 'worker2', 'worker3', 'worker4'],
        Ruleset: [{ Name: 'work', Threshold: '4', PatternGroup: [{ Pattern: ['^job-'] }] }],
      },
      pstr_worker1: worker(1),
      pstr_worker2: worker(2),
      pstr_worker3: worker(3),
      pstr_worker4: worker(4),
      ...noticeAndBypassFiles(dir),
    }),
  );
  return file;
}

function start(file: string, ...options: string[]): Instance {
  const instance = fixture.start(file, 'info', options);
  return instance;
}

const count = (events: readonly WorkerEvent[], kind: WorkerEvent['kind'], where: (e: WorkerEvent) => boolean = () => true) =>
  events.filter((e) => e.kind === kind && where(e)).length;

/** Per job: how often it started and ended over both runs. */
function runsPerJob(events: readonly WorkerEvent[]): Map<string, { starts: number; ends: number }> {
  const runs = new Map<string, { starts: number; ends: number }>();
  for (const e of events) {
    const r = runs.get(e.job) ?? { starts: 0, ends: 0 };
    if (e.kind === 'start') r.starts++;
    if (e.kind === 'end') r.ends++;
    runs.set(e.job, r);
  }
  return runs;
}

interface Scenario {
  /** Tenths of a second per job, in publishing order (the first 4 are the ones running at the signal). */
  readonly tenths: readonly number[];
  readonly options: readonly string[];
}

async function sigtermWithJobsRunning(protocol: Protocol, scenario: Scenario) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-stop-drain-'));
  const log = path.join(dir, 'workers.log');
  const queue = uniqueName('stop-drain');
  const jobs = scenario.tenths.map((t, i) => `job-${i}:${t}`);
  await protocol.publish(queue, jobs);
  const file = topology(protocol, queue, dir, log);

  const first = start(file, ...scenario.options);
  await waitFor(() => count(readWorkerLog(log), 'start') >= 4, '4 jobs to start', 30_000, 50).catch((e: Error) => {
    throw new Error(`${e.message}; xroute said:\n${first.lines.slice(-20).join('\n')}`);
  });
  const signalAt = Date.now();
  first.child.kill('SIGTERM');
  const exitCode = await first.exited;
  const exitedAt = Date.now();
  const afterFirst = readWorkerLog(log);
  const readyAfterFirst = await protocol.ready(queue);
  const drainLine = first.lines.find((l) => l.includes('drain: ')) ?? '';

  const second = start(file);
  await waitFor(() => count(readWorkerLog(log), 'end') >= jobs.length, 'every job to end', 60_000, 50);
  await waitFor(async () => (await protocol.ready(queue)) === 0, 'the queue to be empty', 15_000, 50);
  await second.stop();
  const events = readWorkerLog(log);
  const runs = runsPerJob(events);
  return {
    exitCode,
    drainLine,
    startedBeforeSignal: count(afterFirst, 'start', (e) => e.at < signalAt),
    startedAfterSignal: count(afterFirst, 'start', (e) => e.at >= signalAt && e.at <= exitedAt),
    endedInFirstRun: count(afterFirst, 'end'),
    readyAfterFirst,
    readyAtEnd: await protocol.ready(queue),
    endedTwice: [...runs.values()].filter((r) => r.ends > 1).length,
    neverEnded: jobs.length - [...runs.values()].filter((r) => r.ends >= 1).length,
    startedTwice: [...runs.values()].filter((r) => r.starts > 1).length,
  };
}

describe.each([AMQP091, AMQP10])('SIGTERM of xroute run with JobNode, $name', (protocol) => {
  it('lets the 4 running jobs finish and acknowledges them, starts none of the 8 pending, and runs each job once over a restart', async () => {
    const r = await sigtermWithJobsRunning(protocol, { tenths: [20, 30, 40, 50, ...Array<number>(8).fill(5)], options: ['--drain-timeout', '30'] });
    console.log(`${protocol.name}, --drain-timeout 30: ${JSON.stringify(r)}`);
    expect(r).toMatchObject({
      exitCode: 0,
      startedBeforeSignal: 4,
      startedAfterSignal: 0,
      endedInFirstRun: 4,
      readyAfterFirst: 8,
      readyAtEnd: 0,
      endedTwice: 0,
      neverEnded: 0,
      startedTwice: 0,
    });
    expect(r.drainLine).toContain('drain: 4 acknowledged, 8 returned to the broker');
  });
});

it('at the --drain-timeout deadline gives back only the jobs still running: the finished ones are acknowledged, none ends twice', async () => {
  const r = await sigtermWithJobsRunning(AMQP091, { tenths: [15, 15, 80, 80, ...Array<number>(8).fill(5)], options: ['--drain-timeout', '4'] });
  console.log(`AMQP 0-9-1, --drain-timeout 4 with 2 jobs of 8 s: ${JSON.stringify(r)}`);
  expect(r).toMatchObject({
    exitCode: 0,
    startedBeforeSignal: 4,
    startedAfterSignal: 0,
    endedInFirstRun: 2,
    readyAfterFirst: 10,
    readyAtEnd: 0,
    endedTwice: 0,
    neverEnded: 0,
    startedTwice: 2,
  });
  expect(r.drainLine).toContain('drain: 2 acknowledged, 10 returned to the broker');
});

it('--on-stop kill ends the running jobs at once and gives every job back; none ended, each runs once to its end after the restart', async () => {
  const r = await sigtermWithJobsRunning(AMQP091, { tenths: [60, 60, 60, 60, ...Array<number>(8).fill(5)], options: ['--on-stop', 'kill'] });
  console.log(`AMQP 0-9-1, --on-stop kill: ${JSON.stringify(r)}`);
  expect(r).toMatchObject({
    exitCode: 0,
    startedBeforeSignal: 4,
    startedAfterSignal: 0,
    endedInFirstRun: 0,
    readyAfterFirst: 12,
    readyAtEnd: 0,
    endedTwice: 0,
    neverEnded: 0,
    startedTwice: 4,
  });
  expect(r.drainLine).toContain('drain: 0 acknowledged, 12 returned to the broker');
});
