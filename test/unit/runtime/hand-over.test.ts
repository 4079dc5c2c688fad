/** ActorRef.handOver, refuseReplace, refuseRemove, stopTaking and held: what a reload asks of a running incarnation. */
import { ActorRuntime, Behaviour, HandedOver } from '../../../src/runtime/actor';
import { XQueue } from '../../../src/xqueue/xqueue';
import { waitFor } from './helpers';

let runtime: ActorRuntime;

beforeEach(() => {
  runtime = new ActorRuntime('test');
});

afterEach(() => runtime.stop());

/** Takes every message of `q` and keeps it; hands over what it keeps when asked. */
function keeper(q: XQueue<string>, kept: string[]): () => Behaviour<never> {
  return () => ({
    start: (ctx) => void ctx.consume(q, (t) => void kept.push(t.item)),
    handOver: () => ({ kept: [...kept] }),
    refuseReplace: (_ctx, next) => (next === 'no' ? 'not now' : undefined),
    refuseRemove: () => (kept.length > 0 ? `keeps ${kept.length}` : undefined),
  });
}

function filled(items: string[]): XQueue<string> {
  const q = new XQueue<string>('q', 8);
  for (const item of items) q.offer(item);
  return q;
}

describe('ActorRef.handOver', () => {
  it('returns the behaviour state and keeps what it held taken through its stop', async () => {
    const q = filled(['a', 'b']);
    const kept: string[] = [];
    const ref = runtime.spawn('old', keeper(q, kept));
    await waitFor(() => kept.length === 2, 'a and b taken');
    const handed = await ref.handOver();
    await ref.stop();
    expect(handed?.state).toEqual({ kept: ['a', 'b'] });
    expect(handed?.consumers.map((c) => c.held)).toEqual([2]);
    expect({ inFlight: q.inFlight, depth: q.depth, putback: q.stats().totalPutback }).toEqual({ inFlight: 2, depth: 0, putback: 0 });
  });

  it('lets the next incarnation adopt what was held: its first consume of the queue takes it over, nothing is taken twice', async () => {
    const q = filled(['a', 'b']);
    const oldKept: string[] = [];
    const ref = runtime.spawn('old', keeper(q, oldKept));
    await waitFor(() => oldKept.length === 2, 'a and b taken');
    const handed = (await ref.handOver()) as HandedOver;
    await ref.stop();
    q.offer('c');
    const newKept: string[] = [];
    const next = runtime.spawn('new', keeper(q, newKept), { adopt: handed.consumers });
    await waitFor(() => newKept.length === 1, 'c taken by the new incarnation');
    expect({ newKept, held: next.held(), putback: q.stats().totalPutback }).toEqual({ newKept: ['c'], held: 3, putback: 0 });
  });

  it('puts back in order what the next incarnation does not adopt', async () => {
    const q = filled(['a', 'b']);
    const kept: string[] = [];
    const ref = runtime.spawn('old', keeper(q, kept));
    await waitFor(() => kept.length === 2, 'a and b taken');
    const handed = (await ref.handOver()) as HandedOver;
    await ref.stop();
    runtime.spawn('other', () => ({}), { adopt: handed.consumers });
    await waitFor(() => q.depth === 2, 'a and b back in the queue');
    expect(q.waitingCells().map((cell) => q.browse(cell))).toEqual(['a', 'b']);
  });

  it('is undefined for a behaviour without handOver, whose held messages go back at its stop', async () => {
    const q = filled(['a']);
    const taken: string[] = [];
    const ref = runtime.spawn('plain', (): Behaviour<never> => ({ start: (ctx) => void ctx.consume(q, (t) => void taken.push(t.item)) }));
    await waitFor(() => taken.length === 1, 'a taken');
    expect([ref.handsOver(), await ref.handOver()]).toEqual([false, undefined]);
    await ref.stop();
    expect(q.depth).toBe(1);
  });
});

describe('ActorRef.refuseReplace, stopTaking and held', () => {
  it('asks the running behaviour, once it has started', async () => {
    const ref = runtime.spawn('r', keeper(filled([]), []));
    expect([await ref.refuseReplace('no'), await ref.refuseReplace('yes')]).toEqual(['not now', undefined]);
  });

  it('asks the running behaviour whether it may be removed (refuseRemove)', async () => {
    const kept: string[] = [];
    const ref = runtime.spawn('r', keeper(filled(['a']), kept));
    await waitFor(() => kept.length === 1, 'a taken');
    expect(await ref.refuseRemove()).toBe('keeps 1');
  });

  it('has no objection to a removal when the behaviour does not say (no refuseRemove)', async () => {
    const ref = runtime.spawn('plain', () => ({}));
    expect(await ref.refuseRemove()).toBeUndefined();
  });

  it('takes nothing more after stopTaking, and counts what it holds', async () => {
    const q = filled(['a']);
    const kept: string[] = [];
    const ref = runtime.spawn('k', keeper(q, kept));
    await waitFor(() => kept.length === 1, 'a taken');
    ref.stopTaking();
    q.offer('b');
    const other: string[] = [];
    runtime.spawn('other', keeper(q, other));
    await waitFor(() => other.length === 1, 'b taken by the other consumer');
    expect({ kept, other, held: ref.held() }).toEqual({ kept: ['a'], other: ['b'], held: 1 });
  });
});
