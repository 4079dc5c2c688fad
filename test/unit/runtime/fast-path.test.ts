/**
 * The actor runtime's fast path (src/runtime/actor.ts, ActorCell.deliver; issue 32): an idle consumer woken by its
 * XQueue runs in a microtask of the waking turn, not a nact `setImmediate` turn later, still one envelope at a time,
 * and within a per-turn budget so that producers and consumers feeding each other cannot starve the event loop.
 */
import { ActorRuntime, Behaviour } from '../../../src/runtime/actor';
import { FAST_MESSAGES_PER_TURN, FastTurnBudget } from '../../../src/runtime/fast-turn-budget';
import { XQueue } from '../../../src/xqueue/xqueue';
import { policy, waitFor } from './helpers';
import { eventLoopTurns } from '../../support/wait';

let runtime: ActorRuntime;
beforeEach(() => {
  runtime = new ActorRuntime('fast-path');
});
afterEach(async () => {
  await runtime.stop();
});

/** An actor that records each message it takes and removes it at once. */
function recorder(queue: XQueue<number>, seen: (number | string)[]): () => Behaviour<never> {
  return () => ({
    start(ctx) {
      ctx.consume(queue, (t, q) => {
        seen.push(t.item);
        q.remove(t);
      });
    },
  });
}

/** Resolves once the actor's consumer is attached and idle (it took the message offered to find out). */
async function idle(queue: XQueue<number>, seen: (number | string)[]): Promise<void> {
  queue.offer(-1);
  await waitFor(() => seen.includes(-1), 'the consumer took its first message');
}

describe('the fast path', () => {
  it('lets an idle consumer handle a message added to its queue before the event loop turns', async () => {
    const q = new XQueue<number>('in', 8);
    const seen: (number | string)[] = [];
    runtime.spawn('consumer', recorder(q, seen));
    await idle(q, seen);
    setImmediate(() => seen.push('next turn'));
    q.offer(1);
    await eventLoopTurns(1);
    expect(seen).toEqual([-1, 1, 'next turn']);
  });

  it('keeps FIFO order when more messages arrive than one turn handles on the fast path', async () => {
    const n = FAST_MESSAGES_PER_TURN * 3;
    const q = new XQueue<number>('in', n);
    const seen: (number | string)[] = [];
    runtime.spawn('consumer', recorder(q, seen));
    await idle(q, seen);
    for (let i = 0; i < n; i++) q.offer(i);
    await waitFor(() => seen.length === n + 1, 'every message taken');
    expect(seen.slice(1)).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('runs a consumer woken inside one of its own guarded callbacks as that callback returns, not inside it', async () => {
    const q = new XQueue<number>('in', 8);
    const seen: (number | string)[] = [];
    let callback!: () => void;
    runtime.spawn('consumer', () => ({
      start(ctx) {
        ctx.consume(q, (t, queue) => {
          seen.push(t.item);
          queue.remove(t);
        });
        callback = ctx.guard(() => {
          q.offer(1);
          seen.push('callback returns');
        });
      },
    }));
    await idle(q, seen);
    callback();
    seen.push('caller goes on');
    expect(seen).toEqual([-1, 'callback returns', 1, 'caller goes on']);
  });

  it('handles one envelope at a time: a message told during an asynchronous handler waits for it to finish', async () => {
    const q = new XQueue<number>('in', 8);
    const order: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const ref = runtime.spawn<string>('consumer', () => ({
      start(ctx) {
        ctx.consume(q, async (t, queue) => {
          order.push(`start ${t.item}`);
          if (t.item === 1) await released;
          order.push(`end ${t.item}`);
          queue.remove(t);
        });
      },
      receive(msg) {
        order.push(msg);
      },
    }));
    q.offer(0);
    await waitFor(() => order.includes('end 0'), 'the first message handled');
    q.offer(1);
    await waitFor(() => order.includes('start 1'), 'the second message started');
    ref.tell('told');
    await eventLoopTurns(1);
    release();
    await waitFor(() => order.includes('told'), 'the told message received');
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'told']);
  });

  it('supervises a crash of a handler it ran: the message goes back and the restarted consumer takes it', async () => {
    const q = new XQueue<number>('in', 8);
    const takes: string[] = [];
    const ref = runtime.spawn(
      'consumer',
      (): Behaviour<never> => ({
        start(ctx) {
          ctx.consume(q, (t, queue) => {
            takes.push(`${ctx.incarnation}:${t.item}`);
            if (ctx.incarnation === 0) throw new Error('first incarnation crashes');
            queue.remove(t);
          });
        },
      }),
      { policy: policy('restart') },
    );
    const outcomes: string[] = [];
    q.offer(7, (_item, outcome) => outcomes.push(outcome));
    await waitFor(() => outcomes.length === 1, 'the message removed');
    expect({ takes, outcomes, restarts: ref.restarts() }).toEqual({ takes: ['0:7', '1:7'], outcomes: ['done'], restarts: 1 });
  });

  it('does not starve the event loop when two consumers feed each other forever', async () => {
    const ping = new XQueue<number>('ping', 4);
    const pong = new XQueue<number>('pong', 4);
    let passes = 0;
    const relay = (from: XQueue<number>, to: XQueue<number>) => (): Behaviour<never> => ({
      start(ctx) {
        ctx.consume(from, (t, q) => {
          passes++;
          to.offer(t.item + 1);
          q.remove(t);
        });
      },
    });
    runtime.spawn('a', relay(ping, pong));
    runtime.spawn('b', relay(pong, ping));
    ping.offer(0);
    // Without the budget the relay never leaves the microtask queue once it runs: the event loop never turns again.
    await waitFor(() => passes > 0, 'the relay running');
    const before = passes;
    await eventLoopTurns(1);
    const afterOneTurn = passes;
    await eventLoopTurns(1);
    expect(afterOneTurn).toBeGreaterThan(before);
    expect(passes).toBeGreaterThan(afterOneTurn);
    ping.stop();
    pong.stop();
  });
});

describe('FastTurnBudget', () => {
  it('allows perTurn messages per turn of the event loop and is refilled in the next', async () => {
    const budget = new FastTurnBudget(3);
    const spent: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      spent.push(budget.available());
      if (budget.available()) budget.spend();
    }
    await eventLoopTurns(1);
    expect([spent, budget.available()]).toEqual([[true, true, true, false], true]);
  });
});
