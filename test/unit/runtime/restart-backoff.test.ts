/**
 * Restart timing, MaxRetry within WithinSeconds, and behaviours whose start() or stop() throw. The runtime runs on a
 * virtual clock: delays are exact to the millisecond and a window of seconds passes in no wall time.
 */
import { ActorRuntime, Behaviour } from '../../../src/runtime/actor';
import { Backoff } from '../../../src/foundation/backoff';
import { memoryLogger, LogEntry } from '../../../src/logging/logger';
import { VirtualClock } from '../../support/virtual-clock';
import { policy, waitFor } from './helpers';

let runtime: ActorRuntime;
let clock: VirtualClock;
let logs: LogEntry[];
beforeEach(() => {
  logs = [];
  clock = new VirtualClock();
  runtime = new ActorRuntime('test', memoryLogger(logs), clock);
});
afterEach(() => runtime.stop());

/** A behaviour that records when (virtual time) each incarnation started and crashes on the message 'crash'. */
function crashOnDemand(starts: number[]): () => Behaviour<'crash'> {
  return () => ({
    start(ctx) {
      starts.push(ctx.clock.now());
    },
    receive(msg) {
      if (msg === 'crash') throw new Error('asked to crash');
    },
  });
}

describe('restart with back-off', () => {
  it('restarts after delays that follow the Backoff policy (doubling up to the maximum)', async () => {
    const backoff = { minMs: 40, maxMs: 200 };
    const starts: number[] = [];
    const crashes: number[] = [];
    const actor = runtime.spawn('worker', crashOnDemand(starts), { policy: policy('restart', { backoff }) });
    await waitFor(() => starts.length === 1, 'first start');
    for (let i = 1; i <= 5; i++) {
      crashes.push(clock.now());
      actor.tell('crash');
      await waitFor(() => clock.pending === 1, `the delay before restart ${i}`);
      clock.advance((clock.nextDelay() ?? 0) - 1);
      expect([starts.length, clock.pending]).toEqual([i, 1]); // not a millisecond early
      clock.advance(1);
      await waitFor(() => starts.length === i + 1, `restart ${i}`);
    }
    const reference = new Backoff(backoff);
    expect(crashes.map((t, i) => starts[i + 1] - t)).toEqual(crashes.map(() => reference.next()));
    expect(crashes.map((t, i) => starts[i + 1] - t)).toEqual([40, 80, 160, 200, 200]);
    expect(actor.restarts()).toBe(5);
  });

  it('starts the back-off over once the actor has been quiet for WithinSeconds', async () => {
    const starts: number[] = [];
    const actor = runtime.spawn('worker', crashOnDemand(starts), { policy: policy('restart', { backoff: { minMs: 30, maxMs: 1000 }, withinMs: 150 }) });
    await waitFor(() => starts.length === 1, 'first start');
    actor.tell('crash');
    await clock.runUntil(() => starts.length === 2, 'restart 1');
    actor.tell('crash');
    await clock.runUntil(() => starts.length === 3, 'restart 2'); // second delay: 60 ms
    clock.advance(151);
    const crashAt = clock.now();
    actor.tell('crash');
    await clock.runUntil(() => starts.length === 4, 'restart 3');
    expect(starts[3] - crashAt).toBe(30); // not the 120 ms the third consecutive delay would be
  });

  it('gives each restart a fresh behaviour from the factory and a higher incarnation', async () => {
    const incarnations: number[] = [];
    const instances = new Set<object>();
    const actor = runtime.spawn(
      'worker',
      (): Behaviour<'crash'> => {
        const b: Behaviour<'crash'> = {
          start(ctx) {
            incarnations.push(ctx.incarnation);
            instances.add(b);
          },
          receive() {
            throw new Error('crash');
          },
        };
        return b;
      },
      { policy: policy('restart') },
    );
    await waitFor(() => incarnations.length === 1, 'first start');
    actor.tell('crash');
    actor.tell('crash');
    await clock.runUntil(() => incarnations.length === 3, 'two restarts');
    expect(incarnations).toEqual([0, 1, 2]);
    expect(instances.size).toBe(3);
  });

  it('clears the timers of the crashed incarnation', async () => {
    let ticks = 0;
    const actor = runtime.spawn(
      'worker',
      (): Behaviour<'crash'> => ({
        start(ctx) {
          if (ctx.incarnation === 0) ctx.setInterval(() => ticks++, 5);
        },
        receive() {
          throw new Error('crash');
        },
      }),
      { policy: policy('restart') },
    );
    await waitFor(() => clock.pending === 1, 'the interval to be set');
    clock.advance(5);
    expect(ticks).toBe(1);
    actor.tell('crash');
    await clock.runUntil(() => actor.restarts() === 1, 'restart');
    const after = ticks;
    clock.advance(60_000);
    expect([ticks, clock.pending]).toEqual([after, 0]);
  });
});

describe('MaxRetry within WithinSeconds', () => {
  it('escalates to the parent when the child crashes more than MaxRetry times within the window', async () => {
    const parentStarts: number[] = [];
    let child: ReturnType<typeof runtime.spawn<'crash'>> | undefined;
    const parent = runtime.spawn(
      'flow',
      (): Behaviour<never> => ({
        start(ctx) {
          parentStarts.push(ctx.incarnation);
          if (ctx.incarnation === 0) child = ctx.spawn('worker', crashOnDemand([]), { policy: policy('restart', { maxRetry: 2, withinMs: 10_000 }) });
        },
      }),
      { policy: policy('restart') },
    );
    await waitFor(() => child !== undefined, 'child spawned');
    const worker = child!;
    for (let i = 1; i <= 2; i++) {
      worker.tell('crash');
      await clock.runUntil(() => worker.restarts() === i, `child restart ${i}`);
    }
    expect(parent.restarts()).toBe(0);
    worker.tell('crash');
    await clock.runUntil(() => parent.restarts() === 1, 'the parent to restart');
    expect(worker.status()).toBe('failed');
    expect(worker.restarts()).toBe(2);
    const parentCrash = logs.find((e) => e.message === 'actor crashed' && e.meta.actor === 'flow');
    expect(String(parentCrash?.meta.error)).toMatch(/^child flow\/worker failed: .*crashed 3 times within 10s/);
  });

  it('does not escalate when the crashes are further apart than the window', async () => {
    const parentStarts: number[] = [];
    let child: ReturnType<typeof runtime.spawn<'crash'>> | undefined;
    runtime.spawn(
      'flow',
      (): Behaviour<never> => ({
        start(ctx) {
          parentStarts.push(ctx.incarnation);
          child = ctx.spawn('worker', crashOnDemand([]), { policy: policy('restart', { maxRetry: 1, withinMs: 60 }) });
        },
      }),
      { policy: policy('restart') },
    );
    await waitFor(() => child !== undefined, 'child spawned');
    const worker = child!;
    for (let i = 1; i <= 3; i++) {
      worker.tell('crash');
      await clock.runUntil(() => worker.restarts() === i, `child restart ${i}`);
      clock.advance(100);
    }
    expect(worker.status()).toBe('running');
    expect(parentStarts).toEqual([0]);
  });

  it('stops a top-level actor as failed when it exceeds MaxRetry', async () => {
    const actor = runtime.spawn('worker', crashOnDemand([]), { policy: policy('restart', { maxRetry: 1 }) });
    actor.tell('crash');
    await clock.runUntil(() => actor.restarts() === 1, 'restart');
    actor.tell('crash');
    await actor.terminated();
    expect(actor.status()).toBe('failed');
    await waitFor(
      () => logs.some((e) => e.message === 'top-level actor stopped after failure' && /crashed \d+ times within/.test(String(e.meta.error))),
      'the failure to be logged',
    );
  });
});

describe('a behaviour whose start() throws', () => {
  it('is restarted with back-off until start succeeds', async () => {
    const attempts: number[] = [];
    const actor = runtime.spawn(
      'worker',
      (): Behaviour<never> => ({
        start(ctx) {
          attempts.push(ctx.clock.now());
          if (ctx.incarnation < 3) throw new Error('cannot start yet');
        },
      }),
      { policy: policy('restart', { backoff: { minMs: 20, maxMs: 1000 } }) },
    );
    await clock.runUntil(() => attempts.length === 4, 'the fourth start');
    await waitFor(() => actor.status() === 'running', 'running');
    expect(attempts.slice(1).map((t, i) => t - attempts[i])).toEqual([20, 40, 80]);
    expect(actor.restarts()).toBe(3);
  });

  it('ends as failed when start keeps throwing beyond MaxRetry', async () => {
    let attempts = 0;
    const actor = runtime.spawn(
      'worker',
      (): Behaviour<never> => ({
        start() {
          attempts++;
          throw new Error('never starts');
        },
      }),
      { policy: policy('restart', { maxRetry: 2 }) },
    );
    await clock.runUntil(() => actor.status() === 'failed', 'the actor to fail');
    expect(actor.status()).toBe('failed');
    expect(attempts).toBe(3);
  });

  it('under stop, stops the actor', async () => {
    const actor = runtime.spawn(
      'worker',
      (): Behaviour<never> => ({
        start() {
          throw new Error('never starts');
        },
      }),
      { policy: policy('stop') },
    );
    await actor.terminated();
    expect(actor.status()).toBe('stopped');
  });

  it('gives back what it consumed before throwing', async () => {
    const { XQueue } = await import('../../../src/xqueue/xqueue');
    const q = new XQueue<{ n: number }>('in', 4);
    q.offer({ n: 1 });
    const actor = runtime.spawn(
      'worker',
      (): Behaviour<never> => ({
        start(ctx) {
          ctx.consume(q, () => undefined); // takes and never removes
          throw new Error('failed after attaching');
        },
      }),
      { policy: policy('stop') },
    );
    await actor.terminated();
    expect(q.stats()).toMatchObject({ depth: 1, inFlight: 0, consumers: 0 });
  });
});

describe('a behaviour whose stop() throws', () => {
  function throwingStop(stops: string[]): () => Behaviour<'crash'> {
    return () => ({
      receive() {
        throw new Error('crash');
      },
      stop(_ctx, reason) {
        stops.push(reason);
        throw new Error('stop failed');
      },
    });
  }

  it('still stops, and the failure is logged', async () => {
    const stops: string[] = [];
    const actor = runtime.spawn('worker', throwingStop(stops), { policy: policy('restart') });
    await waitFor(() => actor.status() === 'running', 'running');
    await actor.stop();
    expect(actor.status()).toBe('stopped');
    expect(stops).toEqual(['stop']);
    expect(logs.some((e) => e.level === 'warn' && e.message === 'behaviour stop failed' && /stop failed/.test(String(e.meta.error)))).toBe(true);
  });

  it('still restarts after a crash', async () => {
    const stops: string[] = [];
    const actor = runtime.spawn('worker', throwingStop(stops), { policy: policy('restart') });
    actor.tell('crash');
    await clock.runUntil(() => actor.restarts() === 1, 'restart');
    expect(stops).toEqual(['restart']);
    expect(actor.status()).toBe('running');
  });

  it('does not keep the runtime from stopping', async () => {
    runtime.spawn('a', throwingStop([]), { policy: policy('restart') });
    runtime.spawn('b', throwingStop([]), { policy: policy('restart') });
    await expect(runtime.stop()).resolves.toBeUndefined();
    expect(runtime.actors()).toEqual([]);
  });
});
