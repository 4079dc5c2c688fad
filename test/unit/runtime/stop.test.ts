/** Stopping: deepest first, every behaviour's stop runs, and nothing is left to keep the process alive. */
import { ActorRuntime, Behaviour, BehaviourFactory } from '../../../src/runtime/actor';
import { XQueue } from '../../../src/xqueue/xqueue';
import { VirtualClock } from '../../support/virtual-clock';
import { policy, waitFor } from './helpers';

/** Timers and immediates currently keeping the event loop alive. */
function liveTimers(): { Timeout: number; Immediate: number } {
  const info = process.getActiveResourcesInfo();
  return { Timeout: info.filter((r) => r === 'Timeout').length, Immediate: info.filter((r) => r === 'Immediate').length };
}

/** Lets the immediates queued by earlier work run (one turn of the event loop). */
function flushImmediates(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** Paths of the actors that have started, in order (tests wait for these instead of sleeping). */
const started: string[] = [];

/** A behaviour that starts timers, spawns the given children and records its start and stop. */
function node(stops: string[], children: Record<string, BehaviourFactory<never>> = {}): BehaviourFactory<never> {
  return () => ({
    start(ctx) {
      started.push(ctx.path);
      ctx.setInterval(() => undefined, 1000);
      ctx.setTimeout(() => undefined, 60_000);
      for (const [name, factory] of Object.entries(children)) ctx.spawn(name, factory);
    },
    stop(ctx) {
      stops.push(ctx.path);
    },
  });
}

describe('ActorRuntime.stop', () => {
  it('stops every actor, children before their parents', async () => {
    const runtime = new ActorRuntime('test');
    const stops: string[] = [];
    runtime.spawn('flow', node(stops, { receiver: node(stops, { conn: node(stops) }), persister: node(stops) }));
    runtime.spawn('other', node(stops));
    await waitFor(() => ['flow', 'flow/persister', 'flow/receiver', 'flow/receiver/conn', 'other'].every((p) => started.includes(p)), 'every actor started');
    await runtime.stop();
    expect([...stops].sort()).toEqual(['flow', 'flow/persister', 'flow/receiver', 'flow/receiver/conn', 'other']);
    const at = (p: string) => stops.indexOf(p);
    expect(at('flow/receiver/conn')).toBeLessThan(at('flow/receiver'));
    expect(at('flow/receiver')).toBeLessThan(at('flow'));
    expect(at('flow/persister')).toBeLessThan(at('flow'));
  });

  it('leaves no timer or immediate behind (the process can exit by itself)', async () => {
    await flushImmediates();
    const before = liveTimers();
    const clock = new VirtualClock();
    const runtime = new ActorRuntime('test', undefined, clock);
    const stops: string[] = [];
    const q = new XQueue<{ n: number }>('in', 8);
    runtime.spawn('flow', node(stops, { worker: node(stops) }));
    // a consumer holding a message, and an actor waiting in a long restart back-off
    runtime.spawn('consumer', (): Behaviour<never> => ({ start: (ctx) => void ctx.consume(q, () => undefined) }));
    const crashing = runtime.spawn(
      'crashing',
      (): Behaviour<'crash'> => ({
        receive() {
          throw new Error('crash');
        },
      }),
      { policy: policy('restart', { backoff: { minMs: 30_000, maxMs: 30_000 } }) },
    );
    q.offer({ n: 1 });
    crashing.tell('crash');
    await waitFor(() => crashing.status() === 'restarting' && clock.pending === 5 && q.inFlight === 1 && stops.length === 0, 'everything busy');
    await runtime.stop();
    expect(clock.pending).toBe(0); // the intervals, the timeouts and the restart back-off, all cleared
    await flushImmediates(); // anything still scheduled would re-arm here
    // Nothing of Node's grew (a timer or an immediate of the test process outside the runtime may have ended meanwhile:
    // a clean clone's first run once saw one immediate before and none after).
    const after = liveTimers();
    expect({ Timeout: Math.max(after.Timeout, before.Timeout), Immediate: Math.max(after.Immediate, before.Immediate) }).toEqual(before);
    expect(q.stats()).toMatchObject({ depth: 1, inFlight: 0, consumers: 0 });
  });

  it('stops an actor that is waiting in restart back-off without restarting it', async () => {
    const runtime = new ActorRuntime('test');
    let starts = 0;
    const actor = runtime.spawn(
      'crashing',
      (): Behaviour<'crash'> => ({
        start() {
          starts++;
        },
        receive() {
          throw new Error('crash');
        },
      }),
      { policy: policy('restart', { backoff: { minMs: 30_000, maxMs: 30_000 } }) },
    );
    actor.tell('crash');
    await waitFor(() => actor.status() === 'restarting', 'restarting');
    await runtime.stop();
    expect(actor.status()).toBe('stopped');
    expect(starts).toBe(1);
  });

  it('lets the message being handled finish before stopping the actor', async () => {
    const runtime = new ActorRuntime('test');
    const events: string[] = [];
    let release!: () => void;
    const actor = runtime.spawn('slow', (): Behaviour<'work'> => ({
      async receive() {
        events.push('work started');
        await new Promise<void>((r) => (release = r));
        events.push('work finished');
      },
      stop() {
        events.push('stopped');
      },
    }));
    actor.tell('work');
    await waitFor(() => events.length === 1, 'work to start');
    const stopping = runtime.stop();
    release();
    await stopping;
    expect(events).toEqual(['work started', 'work finished', 'stopped']);
  });

  it('stops an actor whose message never finishes once a grace of 5 s has passed', async () => {
    const clock = new VirtualClock();
    const runtime = new ActorRuntime('test', undefined, clock);
    const events: string[] = [];
    const actor = runtime.spawn('stuck', (): Behaviour<'work'> => ({
      async receive() {
        events.push('work started');
        await new Promise<void>(() => undefined);
      },
      stop() {
        events.push('stopped');
      },
    }));
    actor.tell('work');
    await waitFor(() => events.length === 1, 'work to start');
    const stopping = runtime.stop();
    await clock.advanceWhenPending(4_999, 'the grace');
    expect([events, actor.status()]).toEqual([['work started'], 'stopping']);
    clock.advance(1);
    await stopping;
    expect([events, actor.status()]).toEqual([['work started', 'stopped'], 'stopped']);
  });

  it('refuses to spawn on a stopped runtime', async () => {
    const runtime = new ActorRuntime('test');
    await runtime.stop();
    expect(() => runtime.spawn('late', node([]))).toThrow(/stopped/);
  });
});
