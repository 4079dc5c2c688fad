/**
 * ActorContext.guard (src/runtime/actor.ts): a callback from outside the actor runs guarded, a throw becoming a crash of
 * the actor; with `self` it runs as that object's method (a socket's listener with no closure around it; issue 32).
 */
import { ActorContext, ActorRef, ActorRuntime } from '../../../src/runtime/actor';
import { policy } from './helpers';

let runtime: ActorRuntime;
beforeEach(() => {
  runtime = new ActorRuntime('guard');
});
afterEach(async () => {
  await runtime.stop();
});

/** Spawns an actor (stopped at its first crash) and resolves with it and its context once it started. */
function started(): Promise<{ ref: ActorRef<never>; ctx: ActorContext<never> }> {
  return new Promise((resolve) => {
    const ref: ActorRef<never> = runtime.spawn('guarded', () => ({ start: (ctx: ActorContext<never>) => resolve({ ref, ctx }) }), { policy: policy('stop') });
  });
}

class Counter {
  seen: number[] = [];
  add(n: number): void {
    this.seen.push(n);
  }
}

describe('ActorContext.guard', () => {
  it('calls a method given with its object as `this`, with the arguments the caller passed', async () => {
    const { ctx } = await started();
    const counter = new Counter();
    const listener = ctx.guard(counter.add, counter);
    listener(1);
    listener(2);
    expect(counter.seen).toEqual([1, 2]);
  });

  it('turns a throw of the guarded method into a crash of the actor, not of the caller', async () => {
    const { ref, ctx } = await started();
    const thrower = {
      fail(): void {
        throw new Error('boom');
      },
    };
    const listener = ctx.guard(thrower.fail, thrower);
    expect(() => listener()).not.toThrow();
    await ref.terminated();
    expect([ref.status(), (ref.lastError() as Error).message]).toEqual(['stopped', 'boom']);
  });
});
