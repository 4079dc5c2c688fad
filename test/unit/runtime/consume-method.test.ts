/**
 * ActorContext.consume with `self` (src/runtime/actor.ts): the handler runs as that object's method, with no bound
 * function made for it (a pool keeps 512 children's; issue 32), also after a crash the actor resumes from.
 */
import { ActorContext, ActorRuntime } from '../../../src/runtime/actor';
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { policy, waitFor } from './helpers';

let runtime: ActorRuntime;
beforeEach(() => {
  runtime = new ActorRuntime('consume-method');
});
afterEach(async () => {
  await runtime.stop();
});

/** A consumer whose handler is a method: it records what it took and removes it, and throws at the body `crash`. */
class Recorder {
  taken: string[] = [];
  crashed = false;
  onMessage(taken: Taken<string>, queue: XQueue<string>): void {
    if (taken.item === 'crash' && !this.crashed) {
      this.crashed = true;
      throw new Error('crash');
    }
    this.taken.push(taken.item);
    queue.remove(taken);
  }
}

/** Spawns an actor consuming `queue` with `recorder.onMessage` called on `recorder` (policy `strategy`). */
function consuming(queue: XQueue<string>, recorder: Recorder, strategy: 'resume' | 'stop'): void {
  runtime.spawn(
    'recorder',
    () => ({
      start(ctx: ActorContext<never>): void {
        ctx.consume(queue, recorder.onMessage, {}, recorder);
      },
    }),
    { policy: policy(strategy) },
  );
}

/** A recorder consuming a queue under `strategy`, once it took `items` put one after the other. */
async function recordedAfter(items: string[], strategy: 'resume' | 'stop'): Promise<Recorder> {
  const queue = new XQueue<string>('in', 4);
  const recorder = new Recorder();
  consuming(queue, recorder, strategy);
  for (const item of items) await queue.put(item);
  await waitFor(
    () => recorder.taken.length === items.length,
    () => `${items.length} messages taken, have ${JSON.stringify(recorder.taken)}`,
  );
  return recorder;
}

describe('ActorContext.consume with self', () => {
  it('calls the handler with the given object as `this`, for each message in order', async () => {
    const recorder = await recordedAfter(['a', 'b', 'c'], 'stop');
    expect(recorder.taken).toEqual(['a', 'b', 'c']);
  });

  it('keeps calling it on the same object after a crash the actor resumes from', async () => {
    const recorder = await recordedAfter(['a', 'crash', 'b'], 'resume');
    // The crashed message went back to its place and was taken again by the resumed consumer.
    expect([recorder.crashed, recorder.taken]).toEqual([true, ['a', 'crash', 'b']]);
  });
});
