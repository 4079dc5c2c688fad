/**
 * JobNode end to end on the real RabbitMQ: a queue of job requests -> AmqpReceiver (XAMode 1) -> JobNode
 * (three groups with different Thresholds) -> three AmqpPersister workers publishing to an exchange.
 * Each worker holds its job for a random time, so jobs finish out of order and the receiver acks out of
 * order. Measured from the workers' side (take and remove of every job, in program order, with
 * timestamps): every job is dispatched exactly once, no group ever has more jobs at the workers than its
 * Threshold, the broker never closes the receiver's channel and redelivers nothing, and every job gets
 * exactly one SCHEDULED and one FINISHED escalation.
 */
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { AMQP_PERSISTER } from '../../../actors/persisters/amqp-persister';
import { jobNodeComponent } from '../../../actors/nodes/job-node';
import { isJobQuery } from '../../../actors/nodes';
import { ComponentConfig } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { Outcome, Taken, XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { Admin, TestConsumer, queueCounts, uniqueName } from './amqp-kit';

jest.setTimeout(180_000);

const JOBS = 200;
const GROUPS = [
  { name: 'grpA', threshold: 2 },
  { name: 'grpB', threshold: 1 },
  { name: 'grpC', threshold: 3 },
];
const WORKERS = 3;
const CONNECTION = { URI: 'amqp://127.0.0.1/', Username: 'guest', Password: 'guest' };

interface WorkerEvent {
  readonly seq: number;
  readonly at: number;
  readonly kind: 'start' | 'end';
  readonly group: string;
  readonly jobId: string;
  readonly worker: number;
  readonly redelivered: boolean;
}

let admin: Admin;
const harnesses: Harness[] = [];

beforeAll(async () => {
  admin = await Admin.open();
});
afterAll(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
  await admin.cleanup();
});

/** Records the worker's take and remove of every job request, and holds each job for a random 0-25 ms. */
function instrumentWorker(queue: XQueue<Message>, worker: number, events: WorkerEvent[]): void {
  const take = queue.take.bind(queue);
  const remove = queue.remove.bind(queue);
  const jobOf = (t: Taken<Message>) => ({
    group: t.item.getProperty('JobType') ?? '?',
    jobId: t.item.getProperty('JobID') ?? '?',
    redelivered: t.item.headers.JMSRedelivered === true,
  });
  queue.take = (handle) => {
    const t = take(handle);
    if (t && !isJobQuery(t.item)) events.push({ seq: events.length, at: performance.now(), kind: 'start', worker, ...jobOf(t) });
    return t;
  };
  queue.remove = (t: Taken<Message>, outcome?: Outcome, reason?: string) => {
    setTimeout(
      () => {
        if (!isJobQuery(t.item)) events.push({ seq: events.length, at: performance.now(), kind: 'end', worker, ...jobOf(t) });
        remove(t, outcome, reason);
      },
      Math.floor(Math.random() * 25),
    );
    return true;
  };
}

it('dispatches every job exactly once, never beyond a group Threshold, with no channel reset and no redelivery', async () => {
  const inQueue = await admin.queue(uniqueName('jobs-in'));
  const outExchange = await admin.exchange(uniqueName('jobs-out'), 'fanout');
  const outQueue = await admin.queue(uniqueName('jobs-done'));
  await admin.ch.bindQueue(outQueue, outExchange, '');
  for (let i = 0; i < JOBS; i++) {
    const group = GROUPS[i % GROUPS.length].name;
    admin.ch.sendToQueue(inQueue, Buffer.from(`job ${i}`), { messageId: `job-${i}`, headers: { JobType: group, JobID: `job-${i}` } });
  }
  await admin.ch.waitForConfirms();

  const input = new XQueue<Message>('job_in', 32);
  const notice = new XQueue<Message>('notice', 4096);
  const bypass = new XQueue<Message>('bypass', 8);
  const workers = Array.from({ length: WORKERS }, (_, i) => new XQueue<Message>(`w${i}`, 4));
  const events: WorkerEvent[] = [];
  workers.forEach((w, i) => instrumentWorker(w, i, events));
  const notices = new TestConsumer(notice, 'done');
  const bypassed = new TestConsumer(bypass, 'done');

  const receiver = runComponent(AMQP_RECEIVER, {
    config: {
      Name: 'rcvr_jobs',
      ClassName: 'org.qbroker.receiver.RMQReceiver',
      ...CONNECTION,
      QueueName: inQueue,
      XAMode: '1',
      StringProperty: { ReturnCode: '0' },
    } as ComponentConfig,
    output: input,
  });
  const node = runComponent(jobNodeComponent as never, {
    config: {
      Name: 'node_jobs',
      ClassName: 'org.qbroker.node.JobNode',
      OutLink: ['notice', 'bypass', ...workers.map((w) => w.name)],
      Heartbeat: '600',
      Ruleset: GROUPS.map((g) => ({ Name: g.name, Threshold: String(g.threshold), JMSPropertyGroup: [{ JobType: `^${g.name}$` }] })),
    } as ComponentConfig,
    input,
    outlinks: [notice, bypass, ...workers],
  });
  const persisters = workers.map((w, i) =>
    runComponent(AMQP_PERSISTER, {
      config: {
        Name: `pstr_w${i}`,
        ClassName: 'org.qbroker.persister.RMQPersister',
        ...CONNECTION,
        ExchangeName: outExchange,
        ExchangeType: 'fanout',
        RoutingKey: '##JobID##',
      } as ComponentConfig,
      input: w,
    }),
  );
  harnesses.push(receiver, node, ...persisters);

  const finished = () => notices.seen.filter((m) => m.getProperty('status') === 'FINISHED').length;
  await waitFor(() => finished() >= JOBS && input.stats().depth === 0 && input.inFlight === 0, `${JOBS} FINISHED escalations`, 150_000);
  const published = await admin.drain(outQueue, 500);

  // What the run did, printed before the assertions so that a failing run still reports its numbers.
  const starts = events.filter((e) => e.kind === 'start');
  const distinctJobs = new Set(starts.map((e) => e.jobId));
  const counters = receiver.status.get().counters;
  const channelResets = (counters.connects ?? 0) - 1;
  const maxConcurrent = new Map<string, number>();
  const active = new Map<string, number>();
  for (const e of events) {
    const n = (active.get(e.group) ?? 0) + (e.kind === 'start' ? 1 : -1);
    active.set(e.group, n);
    maxConcurrent.set(e.group, Math.max(maxConcurrent.get(e.group) ?? 0, n));
  }
  const summary = {
    jobs: JOBS,
    dispatches: starts.length,
    duplicates: starts.length - distinctJobs.size,
    redeliveredDispatches: starts.filter((e) => e.redelivered).length,
    published: published.length,
    channelResets,
    channelErrors: counters.channelErrors ?? 0,
    received: counters.received,
    maxConcurrent: Object.fromEntries(maxConcurrent),
    spanMs: Math.round(events[events.length - 1].at - events[0].at),
  };
  console.log(`JobNode end to end: ${JSON.stringify(summary)}`);

  expect(summary).toMatchObject({
    dispatches: JOBS,
    duplicates: 0,
    redeliveredDispatches: 0,
    published: JOBS,
    channelResets: 0,
    channelErrors: 0,
    received: JOBS,
  });
  expect(distinctJobs.size).toBe(JOBS);
  expect(new Set(published.map((m) => m.properties.messageId)).size).toBe(JOBS);
  expect(published.every((m) => !m.fields.redelivered)).toBe(true);
  for (const g of GROUPS) expect(maxConcurrent.get(g.name)).toBeLessThanOrEqual(g.threshold);
  // The run is meaningful: the wider groups did run jobs side by side.
  expect(maxConcurrent.get('grpC')).toBeGreaterThan(1);
  // Escalations as documented: each job SCHEDULED once and FINISHED once, nothing else, no bypass.
  const byStatus = (status: string) => notices.seen.filter((m) => m.getProperty('status') === status);
  expect(byStatus('SCHEDULED')).toHaveLength(JOBS);
  expect(new Set(byStatus('FINISHED').map((m) => m.getProperty('name'))).size).toBe(JOBS);
  expect(notices.seen.filter((m) => !['SCHEDULED', 'FINISHED'].includes(m.getProperty('status') ?? ''))).toEqual([]);
  expect(byStatus('FINISHED').every((m) => m.getProperty('ReturnCode') === '0' && m.getProperty('priority') === 'INFO')).toBe(true);
  expect(bypassed.seen).toHaveLength(0);
  expect(receiver.logs.filter((l) => l.level === 'error' || /connection lost/.test(l.message))).toEqual([]);
  // The broker holds nothing of the input any more: everything acked exactly once.
  expect(await queueCounts(inQueue)).toMatchObject({ ready: 0, unacked: 0 });
});
