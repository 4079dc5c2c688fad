/**
 * JobNode with SharedState: two nodes in this process, each with its own Redis connection, behave as
 * two instances of one topology (needs Redis on 127.0.0.1:6379; fails saying so when it is not there).
 */
import { CuttableRedisProxy, REDIS_URL, deleteRedisPrefix, requireRedis } from '../../support/redis';
import { queryJobNodeStatus } from '../../../actors/nodes/job-node';
import { HandWorker, Rig, rig, waitFor } from '../../unit/nodes/job-node/component-support';
import { sleep } from '../../support/wait';

const RULESETS = [
  { Name: 'nightly', Threshold: '1', KeyTemplate: '##JobID##', KeySubstitution: 's/-retry$//', JMSPropertyGroup: [{ JobType: '^nightly$' }] },
  { Name: 'adhoc', Threshold: '2', JMSPropertyGroup: [{ JobType: '^adhoc$' }] },
];

let namespace = '';
let rigs: Rig[] = [];
let counter = 0;

beforeAll(requireRedis);

beforeEach(() => {
  namespace = `xroute-test:jobnode:${process.pid}:${Date.now()}:${++counter}`;
});

afterEach(async () => {
  for (const r of rigs) await r.stop();
  rigs = [];
  await deleteRedisPrefix(namespace);
});

function instance(config: Record<string, unknown> = {}, workers = 3): Rig {
  const r = rig({ SharedState: REDIS_URL, SharedStateNamespace: namespace, SharedStateLease: '2', Ruleset: RULESETS, ...config }, { workers });
  rigs.push(r);
  return r;
}

const scheduled = (r: Rig): number => r.harness.status.get().counters.scheduled ?? 0;

describe('JobNode SharedState (Redis)', () => {
  it('caps a group at its Threshold over all instances', async () => {
    const [a, b] = [instance(), instance()];
    for (const id of ['a1', 'a2', 'a3']) await a.send({ JobType: 'adhoc', JobID: id });
    for (const id of ['b1', 'b2', 'b3']) await b.send({ JobType: 'adhoc', JobID: id });
    await waitFor(() => scheduled(a) + scheduled(b) === 2, 'two jobs scheduled over both instances');
    await sleep(300);
    expect(scheduled(a) + scheduled(b)).toBe(2);
  });

  it('shows the slots it holds, and whether dispatch is paused, in its status', async () => {
    const a = instance();
    await a.send({ JobType: 'adhoc', JobID: 'a1' });
    await waitFor(() => scheduled(a) === 1, 'the job to start');
    const status = await queryJobNodeStatus(a.harness.actor);
    expect(status.shared).toEqual({ paused: false, slots: { nightly: 0, adhoc: 1 }, waitingForKeys: 0 });
  });

  it('starts a waiting job on another instance once a slot is given back', async () => {
    const [a, b] = [instance({}, 2), instance({}, 2)];
    const aWorkers = a.workers.map((w) => new HandWorker(w));
    await a.send({ JobType: 'adhoc', JobID: 'a1' });
    await a.send({ JobType: 'adhoc', JobID: 'a2' });
    const jobs = [await aWorkers[0].take(), await aWorkers[1].take()];
    await b.send({ JobType: 'adhoc', JobID: 'b1' });
    await sleep(200);
    expect(scheduled(b)).toBe(0);
    aWorkers[0].finish(jobs[0]);
    await waitFor(() => scheduled(b) === 1, 'the job waiting on the other instance to start');
  });

  it('gives a slot to another instance waiting for it instead of to its own next job', async () => {
    const [a, b] = [instance({}, 2), instance({}, 2)];
    const aWorkers = a.workers.map((w) => new HandWorker(w));
    for (const id of ['a1', 'a2', 'a3', 'a4']) await a.send({ JobType: 'adhoc', JobID: id });
    const first = await aWorkers[0].take();
    await aWorkers[1].take();
    await b.send({ JobType: 'adhoc', JobID: 'b1' });
    await sleep(1000); // a renew (every third of the 2 s lease) tells the holder that b waits
    aWorkers[0].finish(first);
    await waitFor(() => scheduled(b) === 1, 'the waiting instance to get the freed slot');
    expect(scheduled(a)).toBe(2);
  });

  it('never runs two jobs with the same key at once over instances (defer)', async () => {
    const [a, b] = [instance(), instance()];
    const wa = new HandWorker(a.workers[0]);
    await a.send({ JobType: 'nightly', JobID: 'A' });
    const first = await wa.take();
    await b.send({ JobType: 'nightly', JobID: 'A-retry' });
    await sleep(300);
    expect(scheduled(b)).toBe(0);
    wa.finish(first);
    await waitFor(() => scheduled(b) === 1, 'the deferred duplicate to start on the other instance');
  });

  it('drops a duplicate whose key another instance holds (DuplicatePolicy drop)', async () => {
    const [a, b] = [instance({ DuplicatePolicy: 'drop' }), instance({ DuplicatePolicy: 'drop' })];
    const wa = new HandWorker(a.workers[0]);
    await a.send({ JobType: 'nightly', JobID: 'A' });
    await wa.take();
    await b.send({ JobType: 'nightly', JobID: 'A-retry' });
    expect(await b.noticeReader.waitFor((e) => e.status === 'DUPLICATE', 'DUPLICATE')).toMatchObject({ category: 'nightly', priority: 'WARNING' });
    await waitFor(() => b.upstream.get('A-retry')?.[0] === 'done', 'the dropped duplicate to be released upstream');
  });

  it('pauses dispatch while Redis cannot be reached, even in slots it holds, and resumes when Redis is back', async () => {
    const proxy = await CuttableRedisProxy.start();
    try {
      const r = rig({ SharedState: proxy.url, SharedStateNamespace: namespace, SharedStateLease: '1', Ruleset: RULESETS }, { workers: 2 });
      rigs.push(r);
      const workers = r.workers.map((w) => new HandWorker(w));
      for (const id of ['a1', 'a2', 'a3']) await r.send({ JobType: 'adhoc', JobID: id });
      const first = await workers[0].take();
      await workers[1].take();
      await proxy.cut();
      await sleep(700); // a renew (every third of the 1 s lease) fails: dispatch pauses
      workers[0].finish(first);
      await sleep(400);
      expect(scheduled(r)).toBe(2);
      await proxy.restore();
      await waitFor(() => scheduled(r) === 3, 'dispatch to resume once Redis is back');
    } finally {
      await proxy.cut();
    }
  });

  it('starts nothing while the shared state cannot be reached', async () => {
    const r = rig({ SharedState: 'redis://127.0.0.1:1/0', SharedStateNamespace: namespace, Ruleset: RULESETS }, { workers: 2 });
    rigs.push(r);
    await r.send({ JobType: 'adhoc', JobID: 'x' });
    await sleep(500);
    expect(scheduled(r)).toBe(0);
    expect(r.harness.status.get().counters.pending).toBe(1);
  });
});
