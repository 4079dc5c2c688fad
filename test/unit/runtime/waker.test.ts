/**
 * An actor's own wake-up (ActorContext.waker in src/runtime/actor.ts; issue 32): a signal from outside its turns, such
 * as a node's inbox (actors/nodes/inbox.ts), runs in a turn of the actor as an XQueue pull does: in a microtask of the
 * waking turn when the actor is idle, else after what is queued, one envelope at a time, supervised, and within the
 * fast path's per-turn budget.
 */
import { ActorRuntime, Behaviour } from '../../../src/runtime/actor';
import { FAST_MESSAGES_PER_TURN } from '../../../src/runtime/fast-turn-budget';
import { XQueue } from '../../../src/xqueue/xqueue';
import { policy, waitFor } from './helpers';
import { eventLoopTurns } from '../../support/wait';

let runtime: ActorRuntime;
beforeEach(() => {
  runtime = new ActorRuntime('waker');
});
afterEach(async () => {
  await runtime.stop();
});

/** Spawns an actor whose start makes a waker recording `woken`; resolves with the waker once the actor runs. */
async function wakeable(seen: string[], extra: Partial<Behaviour<string>> = {}): Promise<{ wake: () => void; tell: (m: string) => void }> {
  let wake: (() => void) | undefined;
  const ref = runtime.spawn<string>('woken', () => ({
    start(ctx) {
      wake = ctx.waker(() => seen.push('woken'));
    },
    receive(msg) {
      seen.push(msg);
    },
    ...extra,
  }));
  await waitFor(() => wake !== undefined && ref.status() === 'running', 'the actor started');
  await eventLoopTurns(1);
  return { wake: wake as () => void, tell: (m) => ref.tell(m) };
}

describe('an actor woken by its own waker', () => {
  it('runs the wake before the event loop turns when the actor is idle', async () => {
    const seen: string[] = [];
    const { wake } = await wakeable(seen);
    setImmediate(() => seen.push('next turn'));
    wake();
    seen.push('waker returned');
    await eventLoopTurns(1);
    expect(seen).toEqual(['waker returned', 'woken', 'next turn']);
  });

  it('runs the wake after a message told before it (FIFO with nact turns)', async () => {
    const seen: string[] = [];
    const { wake, tell } = await wakeable(seen);
    tell('told');
    wake();
    await waitFor(() => seen.length === 2, 'both handled');
    expect(seen).toEqual(['told', 'woken']);
  });

  it('runs a wake that arrives while the actor handles a pull after that pull, not inside it', async () => {
    const q = new XQueue<number>('in', 8);
    const seen: string[] = [];
    runtime.spawn('consumer', () => ({
      start(ctx) {
        const wake = ctx.waker(() => seen.push('woken'));
        ctx.consume(q, (t, queue) => {
          seen.push(`take ${t.item}`);
          wake();
          seen.push(`end ${t.item}`);
          queue.remove(t);
        });
      },
    }));
    q.offer(1);
    await waitFor(() => seen.includes('woken'), 'the wake handled');
    expect(seen).toEqual(['take 1', 'end 1', 'woken']);
  });

  it('supervises a wake that throws, and ignores a wake of the crashed incarnation', async () => {
    const wakes: (() => void)[] = [];
    const seen: string[] = [];
    const ref = runtime.spawn(
      'crashing',
      (): Behaviour<never> => ({
        start(ctx) {
          const incarnation = ctx.incarnation;
          wakes.push(
            ctx.waker(() => {
              seen.push(`woken ${incarnation}`);
              if (incarnation === 0) throw new Error('the first incarnation crashes on its wake');
            }),
          );
        },
      }),
      { policy: policy('restart') },
    );
    await waitFor(() => wakes.length === 1 && ref.status() === 'running', 'the actor started');
    wakes[0]();
    await waitFor(() => wakes.length === 2 && ref.status() === 'running', 'the actor restarted');
    wakes[0]();
    wakes[1]();
    await waitFor(() => seen.length === 2, 'the second wake handled');
    await eventLoopTurns(1);
    expect({ seen, restarts: ref.restarts() }).toEqual({ seen: ['woken 0', 'woken 1'], restarts: 1 });
  });

  it('does not starve the event loop when two actors wake each other forever', async () => {
    let passes = 0;
    const wakes: (() => void)[] = [];
    const other = (i: number) => () => wakes[1 - i]();
    for (const i of [0, 1])
      runtime.spawn(`w${i}`, (): Behaviour<never> => ({
        start(ctx) {
          wakes[i] = ctx.waker(() => {
            passes++;
            other(i)();
          });
        },
      }));
    await waitFor(() => wakes.length === 2 && wakes.every((w) => w !== undefined), 'both actors started');
    await eventLoopTurns(1);
    let turnsSeen = 0;
    const ticker = (): void => {
      turnsSeen++;
      if (turnsSeen < 5) setImmediate(ticker);
    };
    setImmediate(ticker);
    const timer = new Promise<number>((r) => setImmediate(() => r(passes)));
    wakes[0]();
    const passesAtFirstTurn = await timer;
    await waitFor(() => turnsSeen === 5, 'five event-loop turns while the actors keep waking each other');
    expect(passesAtFirstTurn).toBeGreaterThan(1);
    expect(passesAtFirstTurn).toBeLessThanOrEqual(FAST_MESSAGES_PER_TURN);
  });
});
