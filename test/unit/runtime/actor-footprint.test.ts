/**
 * What each actor keeps (issue 32): a pool's 512 children keep their ActorRef and ActorContext for their lifetime, and
 * every garbage collection walks them, so their methods live on a prototype shared by all actors, not in closures
 * made per actor (src/runtime/actor.ts, CellRef and CellContext).
 */
import { ActorContext, ActorRef, ActorRuntime } from '../../../src/runtime/actor';
import { waitFor } from './helpers';

let runtime: ActorRuntime;
beforeEach(() => {
  runtime = new ActorRuntime('footprint');
});
afterEach(async () => {
  await runtime.stop();
});

/** Spawns `name` and resolves with its ref and the context its behaviour was started with. */
async function spawned(name: string): Promise<{ ref: ActorRef<string>; ctx: ActorContext<string> }> {
  let ctx: ActorContext<string> | undefined;
  const ref = runtime.spawn<string>(name, () => ({
    start(c) {
      ctx = c;
    },
  }));
  await waitFor(() => ctx !== undefined, `${name} started`);
  return { ref, ctx: ctx as ActorContext<string> };
}

/** The names of the functions an object holds as its own properties (closures made for it alone). */
function ownFunctions(o: object): string[] {
  return Object.entries(o)
    .filter(([, v]) => typeof v === 'function')
    .map(([k]) => k);
}

describe('an actor footprint', () => {
  it('keeps no function of its own in its context: two actors share every context method', async () => {
    const a = await spawned('a');
    const b = await spawned('b');
    expect(ownFunctions(a.ctx)).toEqual([]);
    expect([a.ctx.tell, a.ctx.guard, a.ctx.consume, a.ctx.waker, a.ctx.setTimeout]).toEqual([
      b.ctx.tell,
      b.ctx.guard,
      b.ctx.consume,
      b.ctx.waker,
      b.ctx.setTimeout,
    ]);
  });

  it('keeps no function of its own in its ref: two actors share every ref method', async () => {
    const a = await spawned('a');
    const b = await spawned('b');
    expect(ownFunctions(a.ref)).toEqual([]);
    expect([a.ref.tell, a.ref.stop, a.ref.status, a.ref.held, a.ref.terminated]).toEqual([b.ref.tell, b.ref.stop, b.ref.status, b.ref.held, b.ref.terminated]);
  });

  it('makes its stop promise only when asked: terminated() asked for first after the stop still resolves', async () => {
    const a = await spawned('a');
    await a.ref.stop();
    await expect(a.ref.terminated()).resolves.toBeUndefined();
  });

  it('still names itself in its context and ref, with the ref as the context’s self', async () => {
    const a = await spawned('a');
    expect([a.ctx.name, a.ctx.path, a.ref.name, a.ref.path, a.ctx.self === a.ref, a.ctx.incarnation]).toEqual(['a', 'a', 'a', 'a', true, 0]);
  });
});
