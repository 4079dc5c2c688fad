/**
 * JobNode replaced by a reload (docs/components/job-node.md#at-a-reload): the old incarnation drains for a replacement
 * and hands over; the new one adopts its jobs under the new settings. Driven through the component harness's
 * replace(), which does what the flow's reload does to one component.
 */
import { queryJobNodeStatus } from '../../../../actors/nodes/job-node';
import { HandWorker, Rig, rig, waitFor } from './component-support';

const ALL = { Name: 'all', Threshold: '1' };

let r: Rig | undefined;
afterEach(async () => {
  await r?.stop();
  r = undefined;
});

const counters = (rig: Rig): Record<string, number> => rig.harness.status.get().counters;
const jobIds = (rig: Rig, w: number): number => rig.workers[w].stats().totalAdded;

describe('JobNode reload: active jobs', () => {
  it('keeps an active job running on its worker and counts its completion in the new incarnation', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'long' });
    const job = await w0.take();
    const before = r.harness.actor;
    expect(await r.reload({ Ruleset: [{ ...ALL, Threshold: '2' }] })).toEqual({});
    expect(r.harness.actor).not.toBe(before);
    w0.finish(job, '0');
    await r.noticeReader.waitFor((e) => e.status === 'FINISHED', 'FINISHED from the new incarnation');
    await waitFor(() => r!.upstream.get('long') !== undefined, 'the request released upstream');
    expect(r.upstream.get('long')).toEqual(['done']);
    expect(jobIds(r, 0)).toBe(1);
    expect(r.input.size).toBe(0);
    expect(counters(r)).toMatchObject({ completed: 1, active: 0 });
  });

  it('counts a completion that arrives while the reload swaps the incarnations in the new one', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'during' });
    await r.send({ JobID: 'after' });
    const job = await w0.take();
    await r.reload({ Ruleset: [ALL] }, () => w0.finish(job, '0'));
    await r.noticeReader.waitFor((e) => e.status === 'FINISHED', 'FINISHED');
    expect((await w0.take('the next job, started by the new incarnation')).item.getProperty('JobID')).toBe('after');
    expect(r.upstream.get('during')).toEqual(['done']);
    expect(jobIds(r, 0)).toBe(2);
  });

  it('keeps the dispatch time and attempt of an active job, so its TimeToLive clock carries over', async () => {
    r = rig({ Ruleset: [{ ...ALL, TimeToLive: '60' }] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'timed' });
    await w0.take();
    const [before] = (await queryJobNodeStatus(r.harness.actor)).active;
    await r.reload({ Ruleset: [{ ...ALL, TimeToLive: '60', Threshold: '3' }] });
    const [after] = (await queryJobNodeStatus(r.harness.actor)).active;
    expect(after).toMatchObject({ id: before.id, since: before.since, attempt: 1, worker: 'w0' });
  });

  it('expires an adopted job TimeToLive after its first dispatch, not after the reload', async () => {
    r = rig({ Ruleset: [{ ...ALL, TimeToLive: '2' }] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'runaway' });
    await w0.take();
    const dispatched = Date.now();
    await waitFor(() => Date.now() - dispatched >= 1_200, 'the job to have run most of its TimeToLive');
    await r.reload({ Ruleset: [{ ...ALL, TimeToLive: '2', Threshold: '2' }] });
    const expired = await r.noticeReader.waitFor((e) => e.status === 'EXPIRED', 'EXPIRED');
    // Counted from the reload it would have run at least 1.2 + 2 s (a timer may fire a millisecond early).
    expect(Number(expired.duration)).toBeGreaterThanOrEqual(1_990);
    expect(Number(expired.duration)).toBeLessThan(3_200);
    expect(r.upstream.get('runaway')).toEqual(['failed']);
  });

  it('gives a later job with the key of an adopted job no start until that job ends (KeyTemplate dedup carries over)', async () => {
    const keyed = { ...ALL, Threshold: '5', KeyTemplate: '##JobID##', KeySubstitution: 's/-retry$//' };
    r = rig({ Ruleset: [keyed] }, { workers: 2 });
    const [w0, w1] = r.workers.map((w) => new HandWorker(w));
    await r.send({ JobID: 'K' });
    const first = await w0.take();
    await r.reload({ Ruleset: [keyed] });
    await r.send({ JobID: 'K-retry' });
    await waitFor(() => counters(r!).deferred === 1, 'the duplicate deferred behind the adopted job');
    expect(jobIds(r, 1)).toBe(0);
    w0.finish(first);
    expect((await w1.take('the duplicate once the adopted job ended')).item.getProperty('JobID')).toBe('K-retry');
  });
});

describe('JobNode reload: pending jobs and new settings', () => {
  it('runs the pending jobs after a reload in their arrival order, each once', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    for (const id of ['a', 'b', 'c', 'd']) await r.send({ JobID: id });
    const first = await w0.take();
    await waitFor(() => counters(r!).accepted === 4, 'four jobs accepted');
    await r.reload({ Ruleset: [{ ...ALL, Heartbeat: '60' }] });
    const order = [first.item.getProperty('JobID')];
    let current = first;
    for (let i = 0; i < 3; i++) {
      w0.finish(current);
      current = await w0.take();
      order.push(current.item.getProperty('JobID'));
    }
    w0.finish(current);
    await waitFor(() => r!.input.size === 0, 'every request released');
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect([...r.upstream.values()].map((o) => o.join())).toEqual(['done', 'done', 'done', 'done']);
    expect(counters(r)).toMatchObject({ received: 4, accepted: 4, scheduled: 4, completed: 4, active: 0, pending: 0 });
  });

  it('holds the new Threshold from the reload on, counting the adopted jobs (raised)', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 4 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) await r.send({ JobID: id });
    await waitFor(() => counters(r!).accepted === 5, 'five jobs accepted');
    expect(counters(r).active).toBe(1);
    await r.reload({ Ruleset: [{ ...ALL, Threshold: '3' }] });
    await waitFor(async () => (await queryJobNodeStatus(r!.harness.actor)).active.length === 3, 'three jobs active under Threshold 3');
    const status = await queryJobNodeStatus(r.harness.actor);
    expect(status.groups.find((g) => g.name === 'all')).toMatchObject({ threshold: 3, active: 3, pending: 2 });
  });

  it('holds the new Threshold from the reload on, counting the adopted jobs (lowered)', async () => {
    r = rig({ Ruleset: [{ ...ALL, Threshold: '2' }] }, { workers: 3 });
    const workers = r.workers.map((w) => new HandWorker(w));
    for (const id of ['a', 'b', 'c']) await r.send({ JobID: id });
    const a = await workers[0].take();
    await workers[1].take();
    await r.reload({ Ruleset: [{ ...ALL, Threshold: '1' }] });
    workers[0].finish(a);
    await waitFor(() => counters(r!).completed === 1, 'one adopted job completed');
    const status = await queryJobNodeStatus(r.harness.actor);
    expect(status.groups.find((g) => g.name === 'all')).toMatchObject({ threshold: 1, active: 1, pending: 1 });
    expect(r.workers.reduce((n, w) => n + w.stats().totalAdded, 0)).toBe(2);
  });

  it('sorts pending jobs into a ruleset the reload added', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 2 });
    await r.send({ JobID: 'first', JobType: 'x' });
    await r.send({ JobID: 'urgent', JobType: 'urgent' });
    await waitFor(() => counters(r!).accepted === 2, 'two jobs accepted');
    await r.reload({ Ruleset: [{ Name: 'urgent', Threshold: '1', JMSPropertyGroup: [{ JobType: '^urgent$' }] }, ALL] });
    await waitFor(async () => (await queryJobNodeStatus(r!.harness.actor)).active.length === 2, 'both jobs active');
    const status = await queryJobNodeStatus(r.harness.actor);
    expect(status.active.map((j) => [j.ruleset, j.id])).toEqual([
      ['all', 1],
      ['urgent', 2],
    ]);
  });

  it('hands a bypassed request in flight to the new incarnation, which releases it once', async () => {
    r = rig({ Ruleset: [{ Name: 'pings', PreferredOutLink: 'bypass', JMSPropertyGroup: [{ JobType: '^ping$' }] }, ALL] }, { workers: 1 });
    const bypass = new HandWorker(r.bypass);
    await r.send({ JobID: 'p', JobType: 'ping' });
    const taken = await bypass.take();
    await r.reload({ Ruleset: [ALL] });
    r.bypass.remove(taken);
    await waitFor(() => r!.upstream.get('p') !== undefined, 'the bypassed request released');
    expect(r.upstream.get('p')).toEqual(['done']);
    expect(r.input.size).toBe(0);
  });
});

describe('JobNode reload: refusal', () => {
  it('refuses a reload that removes a ruleset with active jobs, naming the ruleset and the number of jobs, and changes nothing', async () => {
    r = rig({ Ruleset: [{ Name: 'nightly', Threshold: '2' }] }, { workers: 2 });
    const workers = r.workers.map((w) => new HandWorker(w));
    await r.send({ JobID: 'n1' });
    await r.send({ JobID: 'n2' });
    const jobs = [await workers[0].take(), await workers[1].take()];
    const before = r.harness.actor;
    const { refused } = await r.reload({ Ruleset: [{ Name: 'daily' }] });
    expect(refused).toBe(
      'JobNode jobs cannot be replaced now: ruleset "nightly" has 2 active jobs and the new configuration removes it. Reload again once they have finished, or keep them.',
    );
    expect(r.harness.actor).toBe(before);
    jobs.forEach((j, i) => workers[i].finish(j));
    await waitFor(() => r!.input.size === 0, 'both jobs completed by the running incarnation');
    expect(counters(r).completed).toBe(2);
  });

  it('refuses a reload that turns a ruleset with an active job into a bypass ruleset', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 1 });
    await r.send({ JobID: 'x' });
    await new HandWorker(r.workers[0]).take();
    const { refused } = await r.reload({ Ruleset: [{ ...ALL, PreferredOutLink: 'bypass' }] });
    expect(refused).toContain('ruleset "all" has 1 active job and the new configuration makes it a bypass ruleset');
  });

  it('refuses its removal while jobs are active, naming each running job and its ruleset', async () => {
    r = rig({ Ruleset: [{ Name: 'nightly', Threshold: '2', KeyTemplate: '##JobID##' }] }, { workers: 2 });
    const workers = r.workers.map((w) => new HandWorker(w));
    await r.send({ JobID: 'n1' });
    await r.send({ JobID: 'n2' });
    await Promise.all(workers.map((w) => w.take()));
    expect(await r.harness.actor.refuseRemove()).toBe(
      'JobNode jobs has 2 active jobs and the new topology removes it: "n1" (ruleset "nightly"), "n2" (ruleset "nightly"). Reload again once they have finished, or keep the node.',
    );
  });

  it('lets itself be removed once no job is active', async () => {
    r = rig({ Ruleset: [ALL] }, { workers: 1 });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobID: 'short' });
    w0.finish(await w0.take(), '0');
    await waitFor(() => r!.upstream.get('short') !== undefined, 'the job completed');
    expect(await r.harness.actor.refuseRemove()).toBeUndefined();
  });

  it('accepts a reload that removes a ruleset without active jobs', async () => {
    r = rig({ Ruleset: [ALL, { Name: 'idle', JMSPropertyGroup: [{ JobType: '^idle$' }] }] }, { workers: 1 });
    await r.send({ JobID: 'x' });
    await new HandWorker(r.workers[0]).take();
    expect(await r.reload({ Ruleset: [ALL] })).toEqual({});
  });
});
