/**
 * Issue 27's JobNode test, on the real RabbitMQ: AmqpReceiver (XAMode 1) -> JobNode -> 6 JobPersister workers whose
 * every run appends to a file named after its job. While 4 jobs run, flow.reload changes the JobNode's rulesets (a
 * lower Threshold and a new ruleset): every job runs exactly once, the running jobs are finished and acknowledged
 * by the new incarnation, and the new Threshold holds from the receipt on (docs/components/job-node.md#at-a-reload).
 * Jobs last 3 s here (not the 10-20 s of the issue): long enough to be running through the whole swap, which is what
 * is tested.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { ReloadReceipt } from '../../../src/runtime/reload-receipt';
import { defaultRegistry } from '../../../actors';
import { Admin, uniqueName } from '../amqp/amqp-kit';
import { waitFor } from '../../support/component-harness';
import { jobWorker, noticeAndBypassFiles, rabbitQueueReceiver } from '../../support/job-topology';

jest.setTimeout(90_000);

const JOB_SECONDS = 3;
/** $1 the job, $2 the directory: one line when the run starts and one when it ends, in the job's own file. */
const WORKER = `echo "start $(date +%s%3N)" >> "$2/$1"; sleep ${JOB_SECONDS}; echo "end $(date +%s%3N)" >> "$2/$1"`;

let admin: Admin;
let flow: Flow | undefined;

beforeAll(async () => {
  admin = await Admin.open();
});
afterEach(async () => {
  await flow?.stop({ drainMs: 1_000 });
  flow = undefined;
});
afterAll(async () => {
  await admin?.cleanup();
});

type Json = Record<string, unknown>;

function topologyJson(queue: string, runs: string, dir: string, rulesets: Json[]): Json {
  const workers = [1, 2, 3, 4, 5, 6];
  return {
    Name: 'reload-jobs',
    Capacity: '16',
    Receiver: ['rcvr_jobs'],
    Node: ['node_jobs'],
    Persister: [...workers.map((n) => `pstr_worker${n}`), 'pstr_notice', 'pstr_bypass'],
    rcvr_jobs: {
      ...rabbitQueueReceiver(queue),
      Operation: 'get',
      LinkName: 'jobs',
      Mode: 'daemon',
      XAMode: '1',
    },
    node_jobs: {
      ClassName: 'org.qbroker.node.JobNode',
      Operation: 'schedule',
      LinkName: 'jobs',
      Capacity: '16',
      Heartbeat: '1',
      OutLink: ['notice', 'bypass', ...workers.map((n) => `worker${n}`)],
      Ruleset: rulesets,
    },
    ...Object.fromEntries(workers.map((n) => [`pstr_worker${n}`, jobWorker(n, WORKER, [runs])])),
    ...noticeAndBypassFiles(dir),
  };
}

interface Run {
  readonly job: string;
  readonly start: number;
  readonly end: number | undefined;
}

/** Every run of every job, from the workers' files: a job with two runs shows up twice. */
function readRuns(runs: string): Run[] {
  return readdirSync(runs).flatMap((job) => {
    const lines = readFileSync(path.join(runs, job), 'utf8').trim().split('\n');
    const starts = lines.filter((l) => l.startsWith('start ')).map((l) => Number(l.slice(6)));
    const ends = lines.filter((l) => l.startsWith('end ')).map((l) => Number(l.slice(4)));
    return starts.map((start, i) => ({ job, start, end: ends[i] }));
  });
}

/** The most runs of jobs whose name starts with `prefix` at once, counted at each start at or after `from`. */
function mostAtOnceFrom(runs: readonly Run[], prefix: string, from: number): number {
  const mine = runs.filter((r) => r.job.startsWith(prefix));
  let most = 0;
  for (const r of mine) {
    if (r.start < from) continue;
    most = Math.max(most, mine.filter((o) => o.start <= r.start && (o.end === undefined || o.end > r.start)).length);
  }
  return most;
}

const WORK = { Name: 'work', Threshold: '4', PatternGroup: [{ Pattern: ['^job-'] }] };

/** The flow on a fresh queue with the ruleset WORK, and how to reload it with other rulesets. */
async function startFlow(what: string): Promise<{ queue: string; runs: string; reloadTo: (rulesets: Json[]) => Promise<ReloadReceipt> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xroute-reload-jobs-'));
  const runs = mkdtempSync(path.join(dir, 'runs-'));
  const queue = await admin.queue(uniqueName(what), { durable: true });
  const file = path.join(dir, 'flow.json');
  const registry = defaultRegistry();
  const started = Flow.start(buildTopology(topologyJson(queue, runs, dir, [WORK]), file, registry), { registry });
  flow = started;
  return { queue, runs, reloadTo: (rulesets) => started.reload(buildTopology(topologyJson(queue, runs, dir, rulesets), file, registry)) };
}

describe('JobNode reload while jobs run (RabbitMQ, JobPersister workers)', () => {
  it('runs every job exactly once and holds the new Threshold from the receipt on', async () => {
    const { queue, runs, reloadTo } = await startFlow('reload-jobs');

    const jobs = Array.from({ length: 8 }, (_, i) => `job-${i}`);
    for (const job of jobs) admin.ch.sendToQueue(queue, Buffer.from(job), { messageId: job, persistent: true });
    await admin.ch.waitForConfirms();
    await waitFor(() => readRuns(runs).length === 4, '4 jobs running', 30_000);

    const receipt = await reloadTo([
      { ...WORK, Threshold: '2' },
      { Name: 'urgent', Threshold: '1', PatternGroup: [{ Pattern: ['^urgent-'] }] },
    ]);
    const receiptAt = Date.now();
    expect(receipt).toMatchObject({ outcome: 'applied' });
    expect(receipt.components.filter((c) => c.action !== 'kept').map((c) => [c.name, c.action])).toEqual([['node_jobs', 'replaced']]);
    expect(readRuns(runs).filter((r) => r.end !== undefined)).toEqual([]); // the 4 were still running through the swap

    const urgent = ['urgent-0', 'urgent-1'];
    for (const job of urgent) admin.ch.sendToQueue(queue, Buffer.from(job), { messageId: job, persistent: true });
    await admin.ch.waitForConfirms();
    const all = [...jobs, ...urgent];
    await waitFor(() => readRuns(runs).filter((r) => r.end !== undefined).length >= all.length, 'every job to end', 60_000);
    await waitFor(
      async () => (await admin.ch.checkQueue(queue)).messageCount === 0 && flow!.status().links.every((l) => l.size === 0),
      'every request acknowledged',
    );

    const done = readRuns(runs);
    expect(done.map((r) => r.job).sort()).toEqual([...all].sort()); // each job once: a second run would be listed twice
    expect(mostAtOnceFrom(done, 'job-', receiptAt)).toBeLessThanOrEqual(2);
    expect(done.filter((r) => r.job.startsWith('job-') && r.start >= receiptAt)).toHaveLength(4);
    expect(mostAtOnceFrom(done, 'urgent-', receiptAt)).toBe(1);

    await flow?.stop({ drainMs: 1_000 });
    flow = undefined;
    expect((await admin.ch.checkQueue(queue)).messageCount).toBe(0); // nothing left unacknowledged to come back
  });

  it('refuses a reload that removes a ruleset with a running job, says why in the receipt, and the job still runs once', async () => {
    const { queue, runs, reloadTo } = await startFlow('reload-refused');
    admin.ch.sendToQueue(queue, Buffer.from('job-0'), { messageId: 'job-0', persistent: true });
    await admin.ch.waitForConfirms();
    await waitFor(() => readRuns(runs).length === 1, 'the job running', 30_000);

    const receipt = await reloadTo([{ Name: 'other', PatternGroup: [{ Pattern: ['^other-'] }] }]);
    expect(receipt.outcome).toBe('refused');
    expect(receipt.error).toContain('JobNode node_jobs cannot be replaced now: ruleset "work" has 1 active job and the new configuration removes it');

    await waitFor(() => readRuns(runs).every((r) => r.end !== undefined), 'the job to end', 30_000);
    await waitFor(
      async () => (await admin.ch.checkQueue(queue)).messageCount === 0 && flow!.status().links.every((l) => l.size === 0),
      'the request acknowledged',
    );
    expect(readRuns(runs).map((r) => r.job)).toEqual(['job-0']);
  });
});
