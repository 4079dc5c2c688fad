import { Message } from '../../../../src/message/message';
import { ActorContext } from '../../../../src/runtime/actor';
import { DEFAULT_POLICY } from '../../../../src/runtime/supervision-policy';
import { JobQuery, isJobQuery } from '../../../../actors/nodes';
import { queryJobNodeStatus } from '../../../../actors/nodes/job-node';
import { HandWorker, Rig, rig, waitFor } from './component-support';
import { VirtualClock } from '../../../support/virtual-clock';
import { TurnCounter, eventLoopTurns } from '../../../support/wait';

const RULESETS = [
  { Name: 'pings', PreferredOutLink: 'bypass', JMSPropertyGroup: [{ JMSType: '^ping$' }] },
  {
    Name: 'nightly',
    Priority: '5',
    Threshold: '1',
    KeyTemplate: '##JobID##',
    KeySubstitution: 's/-retry$//',
    JMSPropertyGroup: [{ JobType: '^nightly$' }],
    StringProperty: { JobID: '', Owner: '' },
  },
  { Name: 'adhoc', Priority: '1', Threshold: '2', JMSPropertyGroup: [{ JobType: '^adhoc$' }] },
];

let r: Rig | undefined;
afterEach(async () => {
  await r?.stop();
  r = undefined;
});

describe('JobNode component: scheduling and completion', () => {
  it('puts a job request on a worker outlink and escalates SCHEDULED to notice', async () => {
    r = rig({ Ruleset: RULESETS });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'nightly', JobID: 'A', Owner: 'ops' });
    const job = await w0.take();
    expect(job.item.getProperty('JobID')).toBe('A');
    const scheduled = await r.noticeReader.waitFor((e) => e.status === 'SCHEDULED', 'SCHEDULED');
    expect(scheduled).toMatchObject({
      node: 'jobs',
      name: 'A',
      category: 'nightly',
      operation: 'notice',
      id: '1',
      worker: '0',
      workerLink: 'w0',
      progress: '0',
      attempt: '1',
      priority: 'INFO',
      JobID: 'A',
      Owner: 'ops',
    });
  });

  it('removes the request from its input only when the worker removes it, and escalates FINISHED with the return code', async () => {
    r = rig({ Ruleset: RULESETS });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'nightly', JobID: 'A' });
    const job = await w0.take();
    expect(r.upstream.get('A')).toBeUndefined();
    expect(r.input.inFlight).toBe(1);
    w0.finish(job, '0');
    const finished = await r.noticeReader.waitFor((e) => e.status === 'FINISHED', 'FINISHED');
    expect(finished).toMatchObject({ name: 'A', category: 'nightly', ReturnCode: '0', progress: '100', priority: 'INFO' });
    expect(Number(finished.duration)).toBeGreaterThanOrEqual(0);
    expect(r.upstream.get('A')).toEqual(['done']);
  });

  it("handles a worker's completion in the event-loop turn the worker removes the job in, while it is idle (its inbox wakes it as a pull does)", async () => {
    r = rig({ Ruleset: RULESETS });
    const w0 = new HandWorker(r.workers[0]);
    const turns = new TurnCounter();
    let completedAt: number | undefined;
    await r.input.put(Message.text('job', { JobType: 'adhoc', JobID: 'T' }), () => (completedAt = turns.turn));
    const job = await w0.take();
    await r.noticeReader.waitFor((e) => e.status === 'SCHEDULED', 'SCHEDULED');
    await eventLoopTurns(2);
    await turns.during(async () => {
      w0.finish(job, '0');
      await waitFor(() => completedAt !== undefined, 'the upstream completion');
    });
    expect(completedAt).toBe(0);
  });

  it('escalates FAILED with priority ERR when the worker sets a non-zero return code', async () => {
    r = rig({ Ruleset: RULESETS });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'adhoc', JobID: 'X' });
    w0.finish(await w0.take(), '1');
    expect(await r.noticeReader.waitFor((e) => e.status === 'FAILED', 'FAILED')).toMatchObject({ name: 'job-1', ReturnCode: '1', priority: 'ERR' });
    expect(r.upstream.get('X')).toEqual(['done']);
  });

  it('starts a deferred identical job as soon as the active one completes', async () => {
    r = rig({ Ruleset: RULESETS });
    const w0 = new HandWorker(r.workers[0]);
    const w1 = new HandWorker(r.workers[1]);
    await r.send({ JobType: 'nightly', JobID: 'A' });
    await r.send({ JobType: 'nightly', JobID: 'A-retry' });
    const first = await w0.take();
    await waitFor(() => r!.harness.status.get().counters.deferred === 1, 'the duplicate to be deferred');
    expect(r.workers[1].depth).toBe(0);
    w0.finish(first);
    const second = await w1.take('the deferred duplicate on w1');
    expect(second.item.getProperty('JobID')).toBe('A-retry');
  });

  it('drops a duplicate with DuplicatePolicy drop, escalating DUPLICATE and releasing its input', async () => {
    r = rig({ DuplicatePolicy: 'drop', Ruleset: RULESETS });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'nightly', JobID: 'A' });
    await w0.take();
    await r.send({ JobType: 'nightly', JobID: 'A-retry' });
    expect(await r.noticeReader.waitFor((e) => e.status === 'DUPLICATE', 'DUPLICATE')).toMatchObject({ name: 'A', category: 'nightly', priority: 'WARNING' });
    await waitFor(() => r!.upstream.get('A-retry')?.[0] === 'done', 'the dropped duplicate to be released upstream');
  });
});

describe('JobNode component: routing', () => {
  it('sends a message that matches no ruleset to bypass (nohit) and releases its input when bypass is done', async () => {
    r = rig({ Ruleset: RULESETS });
    const bypass = new HandWorker(r.bypass);
    await r.send({ JobType: 'other', JobID: 'N' });
    const taken = await bypass.take();
    expect(r.upstream.get('N')).toBeUndefined();
    r.bypass.remove(taken);
    await waitFor(() => r!.upstream.get('N')?.[0] === 'done', 'the nohit message to be released upstream');
    expect(r.workers.every((w) => w.stats().totalAdded === 0)).toBe(true);
  });

  it('sends a message of a PreferredOutLink ruleset to bypass without flow control', async () => {
    r = rig({ Ruleset: RULESETS });
    const bypass = new HandWorker(r.bypass);
    for (const id of ['p1', 'p2', 'p3']) await r.input.put(new Message({ headers: { JMSType: 'ping' }, properties: { JobID: id } }));
    const got = [await bypass.take(), await bypass.take(), await bypass.take()];
    expect(got.map((t) => t.item.getProperty('JobID'))).toEqual(['p1', 'p2', 'p3']);
    expect(r.harness.status.get().counters.bypassed).toBe(3);
  });

  it('holds bypass messages in order while bypass is full, keeping their input taken (back pressure)', async () => {
    r = rig({ Ruleset: RULESETS }, { inputCapacity: 12 });
    for (let i = 0; i < 10; i++) await r.send({ JobID: `n${i}` });
    await waitFor(() => r!.bypass.stats().free === 0 && r!.input.inFlight === 10, 'bypass full and all ten input messages taken');
    const bypass = new HandWorker(r.bypass);
    const names: string[] = [];
    for (let i = 0; i < 10; i++) {
      const t = await bypass.take();
      names.push(t.item.getProperty('JobID') as string);
      r.bypass.remove(t);
    }
    expect(names).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9']);
    await waitFor(() => r!.input.size === 0, 'the input to empty');
  });
});

describe('JobNode component: flow control', () => {
  it('never starts more jobs of a group than its Threshold', async () => {
    r = rig({ Ruleset: RULESETS }, { workers: 3 });
    for (const id of ['a', 'b', 'c', 'd']) await r.send({ JobType: 'adhoc', JobID: id });
    await waitFor(() => r!.harness.status.get().counters.accepted === 4, 'four jobs accepted (each scheduled or kept pending on arrival)');
    expect(r.harness.status.get().counters).toMatchObject({ scheduled: 2, pending: 2, active: 2 });
  });

  it('applies back pressure upstream when all workers are busy and the input is full', async () => {
    r = rig({ Ruleset: [{ Name: 'all', Threshold: '10' }] }, { inputCapacity: 3, workers: 2 });
    const w0 = new HandWorker(r.workers[0]);
    for (const id of ['a', 'b', 'c']) await r.send({ JobID: id });
    let fourthIn = false;
    void r.send({ JobID: 'd' }).then(() => (fourthIn = true));
    await waitFor(
      () => r!.harness.status.get().counters.scheduled === 2 && r!.input.stats().waitingProducers === 1,
      'two jobs scheduled and the fourth producer waiting',
    );
    expect(fourthIn).toBe(false);
    expect(r.input.stats()).toMatchObject({ inFlight: 3, free: 0, waitingProducers: 1 });
    w0.finish(await w0.take());
    await waitFor(() => fourthIn, 'the waiting producer to get a cell once a job completed');
  });

  it('serves the higher Priority group first when a worker frees up', async () => {
    r = rig({ Ruleset: RULESETS }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'adhoc', JobID: 'first' });
    const first = await w0.take();
    await r.send({ JobType: 'adhoc', JobID: 'low' });
    await r.send({ JobType: 'nightly', JobID: 'high' });
    await waitFor(() => r!.harness.status.get().counters.accepted === 3, 'three jobs accepted');
    w0.finish(first);
    expect((await w0.take()).item.getProperty('JobID')).toBe('high');
  });
});

describe('JobNode component: heartbeat queries', () => {
  it("sends a query event to the worker of an active job and escalates the worker's answer with the ruleset StringProperty", async () => {
    r = rig({ Ruleset: [{ ...RULESETS[1], Heartbeat: '0.05' }] });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'nightly', JobID: 'Q', Owner: 'ops' });
    const job = await w0.take();
    const query = await w0.take('a query event');
    expect(isJobQuery(query.item)).toBe(true);
    expect(query.item.getProperty('JobEvent')).toBe('query');
    const body = query.item.object<JobQuery>();
    expect(body).toMatchObject({ operation: 'query', jobId: 1, key: 'Q', ruleset: 'nightly', worker: 0 });
    expect(body?.request).toBe(job.item);
    query.item.setProperty('status', 'RUNNING');
    query.item.setProperty('progress', '40');
    r.workers[0].remove(query);
    const result = await r.noticeReader.waitFor((e) => e.operation === 'query', 'a query result escalation');
    expect(result).toMatchObject({
      name: 'Q',
      category: 'nightly',
      id: '1',
      worker: '0',
      status: 'RUNNING',
      progress: '40',
      JobID: 'Q',
      Owner: 'ops',
      priority: 'INFO',
    });
    expect(result.JobEvent).toBeUndefined();
  });

  it('does not escalate a query answered after its job finished (the answer crossed the completion)', async () => {
    r = rig({ Ruleset: [{ ...RULESETS[1], Heartbeat: '0.05' }] });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'nightly', JobID: 'Z' });
    const job = await w0.take();
    const query = await w0.take('a query event');
    w0.finish(job, '0');
    await r.noticeReader.waitFor((e) => e.status === 'FINISHED', 'FINISHED');
    query.item.setProperty('status', 'NOTFOUND');
    r.workers[0].remove(query);
    await waitFor(() => r!.harness.status.get().counters.lateQueryResults === 1, 'the late query result counted');
    expect(r.noticeReader.events.filter((e) => e.operation === 'query')).toEqual([]);
  });

  it('keeps at most one query outstanding per job', async () => {
    const clock = new VirtualClock();
    r = rig({ Ruleset: [{ Name: 'all', Heartbeat: '0.02' }] }, { clock });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'slow' });
    await w0.take();
    for (let beat = 0; beat < 7; beat++) clock.advance(20);
    await waitFor(() => r!.workers[0].depth === 1, 'the query in the worker queue');
    expect(r.workers[0].depth).toBe(1);
    expect(r.harness.status.get().counters.queries).toBe(1);
  });

  it('logs a query result escalation when the ruleset DisplayMask is 1', async () => {
    r = rig({ Ruleset: [{ Name: 'all', Heartbeat: '0.02', DisplayMask: '1' }] });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'shown' });
    await w0.take();
    r.workers[0].remove(await w0.take('a query event'));
    await waitFor(
      () => r!.harness.logs.some((l) => l.message === 'job escalation' && JSON.stringify(l.meta).includes('"operation":"query"')),
      'the logged query escalation',
    );
  });
});

describe('JobNode component: TimeToLive', () => {
  it('aborts a job that outlives its TimeToLive, escalates EXPIRED and releases its input as failed', async () => {
    r = rig({ Ruleset: [{ Name: 'all', TimeToLive: '0.1', Threshold: '5' }] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'runaway' });
    await r.send({ JobID: 'next' });
    const job = await w0.take();
    const abort = await w0.take('an abort event');
    expect(abort.item.getProperty('JobEvent')).toBe('abort');
    const expired = await r.noticeReader.waitFor((e) => e.status === 'EXPIRED', 'EXPIRED');
    expect(expired).toMatchObject({ name: 'job-1', priority: 'ERR', operation: 'notice' });
    expect(expired.reason).toContain('TimeToLive');
    expect(r.upstream.get('runaway')).toEqual(['failed']);
    expect(r.workers[0].depth).toBe(0); // no new job while the worker still holds the expired request
    w0.finish(job, '1');
    r.workers[0].remove(abort);
    expect((await w0.take('the next job once the worker let go')).item.getProperty('JobID')).toBe('next');
    expect(r.upstream.get('runaway')).toEqual(['failed']);
  });

  it('withdraws an expired request the worker never took and reuses the worker at once', async () => {
    r = rig({ Ruleset: [{ Name: 'all', TimeToLive: '0.05', Threshold: '5' }] }, { workers: 1 });
    await r.send({ JobID: 'untaken' });
    await r.noticeReader.waitFor((e) => e.status === 'EXPIRED', 'EXPIRED');
    expect(r.workers[0].size).toBe(0);
    expect(r.upstream.get('untaken')).toEqual(['failed']);
  });
});

describe('JobNode component: worker failure', () => {
  it('redispatches a job whose worker actor keeps crashing on it, then reports it FAILED, never losing it', async () => {
    r = rig({ MaxDispatch: '2', Ruleset: [{ Name: 'all' }] }, { workers: 1 });
    const policy = { ...DEFAULT_POLICY, maxRetry: 20, maxMessageAttempts: 2, backoff: { minMs: 1, maxMs: 5 } };
    const outlink = r.workers[0];
    r.harness.runtime.spawn(
      'crashing-worker',
      () => ({
        start(ctx: ActorContext<never>) {
          ctx.consume(outlink, (taken) => {
            if (!taken.item.getProperty('JobEvent')) throw new Error('worker crashed mid-job');
            outlink.remove(taken);
          });
        },
      }),
      { policy },
    );
    await r.send({ JobID: 'poison' });
    const failed = await r.noticeReader.waitFor((e) => e.status === 'FAILED', 'FAILED after MaxDispatch');
    expect(failed).toMatchObject({ attempt: '2', priority: 'ERR' });
    expect(r.noticeReader.statuses()).toEqual(['job-1:SCHEDULED', 'job-1:REDISPATCHED', 'job-1:SCHEDULED', 'job-1:FAILED']);
    expect(r.upstream.get('poison')).toEqual(['failed']);
  });

  it('reports a failed job at once with FailedJobPolicy report', async () => {
    r = rig({ FailedJobPolicy: 'report', Ruleset: [{ Name: 'all' }] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'once' });
    w0.finish(await w0.take(), undefined, 'failed');
    await r.noticeReader.waitFor((e) => e.status === 'FAILED', 'FAILED');
    expect(r.upstream.get('once')).toEqual(['failed']);
  });
});

describe('JobNode component: status', () => {
  it('answers a status query with pending and active jobs per group, showing the node StringProperty fields', async () => {
    r = rig({ StringProperty: { JobID: '' }, Ruleset: RULESETS }, { workers: 1 });
    await r.send({ JobType: 'adhoc', JobID: 'run' });
    await r.send({ JobType: 'adhoc', JobID: 'wait' });
    await r.send({ JobType: 'nightly', JobID: 'K' });
    await r.send({ JobType: 'nightly', JobID: 'K' });
    await waitFor(() => r!.harness.status.get().counters.accepted === 4, 'four jobs accepted');
    const status = await queryJobNodeStatus(r.harness.actor);
    expect(status.active.map((j) => [j.ruleset, j.fields.JobID, j.worker])).toEqual([['adhoc', 'run', 'w0']]);
    expect(status.pending.map((j) => [j.ruleset, j.state, j.fields.JobID])).toEqual([
      ['nightly', 'pending', 'K'],
      ['nightly', 'deferred', 'K'],
      ['adhoc', 'pending', 'wait'],
    ]);
    expect(status.groups.find((g) => g.name === 'nightly')).toMatchObject({ active: 0, pending: 1, deferred: 1, threshold: 1 });
    expect(status.workers).toEqual([{ link: 'w0', state: 'busy', jobId: 1 }]);
    expect(status.counters).toMatchObject({ received: 4, accepted: 4, scheduled: 1, active: 1, pending: 3 });
  });
});

describe('JobNode component: restart', () => {
  it('withdraws an untaken request on stop so that the job is not run twice', async () => {
    r = rig({ Ruleset: [{ Name: 'all' }] }, { workers: 1 });
    await r.send({ JobID: 'x' });
    await waitFor(() => r!.workers[0].depth === 1, 'the job on w0');
    await r.stop();
    expect(r.workers[0].size).toBe(0);
    expect(r.input.depth).toBe(1);
    r = undefined;
  });
});
