/**
 * Supervision through ActorRuntime with real XQueues: a component that throws on 1 % of the messages
 * (poison jobs that throw every time) under each strategy. No message may be lost and none may
 * complete twice; a poison job ends 'failed' after maxMessageAttempts.
 */
import { ActorRuntime, Behaviour } from '../../../src/runtime/actor';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Job, Ledger, makeJobs, poisonConsumer, policy, produce, waitFor } from './helpers';

const N = 1000;

function expectEveryJobCompletedOnce(jobs: Job[], ledger: Ledger, maxMessageAttempts: number): void {
  expect(ledger.completedTwice()).toEqual([]);
  for (const job of jobs) {
    expect({ id: job.id, outcome: ledger.completions.get(job.id) }).toEqual({ id: job.id, outcome: [job.poison ? 'failed' : 'done'] });
    if (job.poison) expect({ id: job.id, attempts: ledger.attempts.get(job.id) }).toEqual({ id: job.id, attempts: maxMessageAttempts });
  }
}

describe('a component that throws on 1% of its messages', () => {
  let runtime: ActorRuntime;
  beforeEach(() => {
    runtime = new ActorRuntime('test');
  });
  afterEach(() => runtime.stop());

  it('under restart: every message completes once, poison ones as failed after maxMessageAttempts', async () => {
    const q = new XQueue<Job>('in', 64);
    const ledger = new Ledger();
    const jobs = makeJobs(N);
    const actor = runtime.spawn('worker', poisonConsumer(q, ledger), { policy: policy('restart') });
    await produce(q, jobs, ledger);
    await waitFor(() => ledger.completions.size === N, 'every job to complete');
    expectEveryJobCompletedOnce(jobs, ledger, 3);
    expect(actor.restarts()).toBe(30);
    expect(actor.status()).toBe('running');
  });

  it('under resume: every message completes once, poison ones as failed after maxMessageAttempts', async () => {
    const q = new XQueue<Job>('in', 64);
    const ledger = new Ledger();
    const jobs = makeJobs(N);
    let instances = 0;
    const factory = poisonConsumer(q, ledger);
    const actor = runtime.spawn('worker', () => (instances++, factory()), { policy: policy('resume') });
    await produce(q, jobs, ledger);
    await waitFor(() => ledger.completions.size === N, 'every job to complete');
    expectEveryJobCompletedOnce(jobs, ledger, 3);
    expect(instances).toBe(1); // resumed, never rebuilt
    expect(actor.restarts()).toBe(0);
  });

  it('under escalate: the parent restarts the worker and every message completes once', async () => {
    const q = new XQueue<Job>('in', 64);
    const ledger = new Ledger();
    const jobs = makeJobs(N);
    const parent = runtime.spawn(
      'flow',
      (): Behaviour<never> => ({
        start(ctx) {
          ctx.spawn('worker', poisonConsumer(q, ledger), { policy: policy('escalate') });
        },
      }),
      { policy: policy('restart') },
    );
    await produce(q, jobs, ledger);
    await waitFor(() => ledger.completions.size === N, 'every job to complete');
    expectEveryJobCompletedOnce(jobs, ledger, 3);
    expect(parent.restarts()).toBe(30);
  });

  it('under stop: the actor stops at the first crash and leaves every unfinished message in the queue', async () => {
    const q = new XQueue<Job>('in', 2000);
    const ledger = new Ledger();
    const jobs = makeJobs(N);
    await produce(q, jobs, ledger);
    const actor = runtime.spawn('worker', poisonConsumer(q, ledger), { policy: policy('stop') });
    await actor.terminated();
    expect(actor.status()).toBe('stopped');
    expect(ledger.completedTwice()).toEqual([]);
    expect([...ledger.completions.values()].flat()).toEqual(Array(42).fill('done'));
    expect(q.stats()).toMatchObject({ depth: N - 42, inFlight: 0, consumers: 0 });
    expect(q.browse(q.waitingCells()[0])).toBe(jobs[42]);
  });

  it('under stop: a replacement consumer finishes the rest, each message once, poison ones failed', async () => {
    const q = new XQueue<Job>('in', 64);
    const ledger = new Ledger();
    const jobs = makeJobs(N);
    const producing = produce(q, jobs, ledger);
    // Replace each stopped worker, as a flow supervisor would.
    let generation = 0;
    let stopped = false;
    const replaceWhenStopped = async (): Promise<void> => {
      while (!stopped) {
        const worker = runtime.spawn(`worker-${generation++}`, poisonConsumer(q, ledger), { policy: policy('stop') });
        await worker.terminated();
      }
    };
    const supervising = replaceWhenStopped().catch((e: unknown) => e);
    await producing;
    await waitFor(() => ledger.completions.size === N, 'every job to complete');
    stopped = true;
    expectEveryJobCompletedOnce(jobs, ledger, 3);
    expect(generation).toBeGreaterThanOrEqual(31); // 30 stops, one worker still running
    await runtime.stop();
    expect(await supervising).toBeUndefined();
  });
});
