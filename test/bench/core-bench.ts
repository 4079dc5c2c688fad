/**
 * Benchmark of the runtime core (issue 2).
 *  - Throughput through one XQueue hop (producer -> XQueue -> consumer actor removing at once) and through a
 *    chain of 4 components (4 actors, each consuming one XQueue and putting into the next; each message is
 *    removed upstream only when the next hop has removed it, so completion travels back to the producer).
 *    Baselines: raw nact dispatch (a stateful nact actor, or a chain of 4, receiving dispatched messages)
 *    and a plain async loop (`await handler(msg)`, or 4 nested async functions).
 *    All variants run interleaved in one process for several rounds (the order alternates); values are
 *    medians, and each ratio is the median of the per-round ratios (robust on a shared, noisy machine).
 *  - Peak growth of the memory held (heap + buffers) while a producer outruns a 10x slower consumer, measured in a child process
 *    (core-overload.ts) for a clean figure, against unbounded nact dispatch.
 * Targets: one hop >= 1.5x raw nact dispatch; a counted hop >= 0.97x the same hop uncounted (issue 28: counting costs at most
 *   3 %); memory growth under overload <= 100 MB.
 */
import { dispatch, spawn, start, stop } from 'nact';
import { ActorRuntime, Behaviour } from '../../src/runtime/actor';
import { MessageTally, XQueue } from '../../src/xqueue/xqueue';
import { ComponentTotals } from '../../src/runtime/component';
import { FlowMeter, InOut } from '../../src/runtime/flow-meter';
import type { BenchRow } from './bench-types';
import { median } from './interleaved';
import { runChild } from './child-process';
import type { OverloadResult } from './core-overload';

export interface CoreBenchOptions {
  /** Messages per throughput run. */
  messages: number;
  /** Messages in the overload (RSS) run. */
  overloadMessages: number;
  /** Rounds of the interleaved throughput runs (default 5). */
  rounds?: number;
}

interface Item {
  readonly n: number;
}

const CAPACITY = 1024;
const STAGES = 4;

type Variant = (n: number) => Promise<number>; // returns elapsed ms

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function untilAttached(queues: XQueue<Item>[]): Promise<void> {
  while (queues.some((q) => q.stats().consumers === 0)) await new Promise((r) => setImmediate(r));
}

/** Puts n messages, waiting for a cell only when the queue is full. */
async function produce(q: XQueue<Item>, n: number, onDone?: () => void, tally?: MessageTally): Promise<void> {
  for (let i = 0; i < n; i++) {
    const item = { n: i };
    if (q.offer(item, onDone, undefined, tally) < 0) await q.put(item, onDone, { tally });
  }
}

/**
 * One hop as a flow counts it (a receiver's output link): the producer and the consumer each counted in their
 * component totals (ComponentTotals, what /status, /metrics and `xroute status` read: in, done, failed, in flight as
 * in - done - failed), and the flow's meter sampling them and the link's stats for the rates, last message time and
 * oldest age, at the flow's interval. The totals sum the queue's consumer and producer records when read; the
 * uncounted hop moves the same records (they hold the queue's own totals) with no totals to read them.
 */
const xqueueOneHopCounted: Variant = (n) => oneHop(n, true);
const xqueueOneHop: Variant = (n) => oneHop(n, false);

/** The flow's meter over one hop's two components and its link (as Flow.counters() reads them). */
function hopMeter(q: XQueue<Item>, producer: ComponentTotals, consumer: ComponentTotals): FlowMeter {
  const counts = (t: ComponentTotals): InOut => ({ in: t.in, out: t.done + t.failed });
  return new FlowMeter(() => {
    const s = q.stats();
    return new Map([
      ['c:producer', counts(producer)],
      ['c:consumer', counts(consumer)],
      ['l:hop', { in: s.totalAdded, out: s.totalRemoved + s.totalFailed }],
    ]);
  });
}

async function oneHop(n: number, counted: boolean): Promise<number> {
  const producerTally = counted ? new ComponentTotals() : undefined;
  const consumerTally = counted ? new ComponentTotals() : undefined;
  const runtime = new ActorRuntime('bench');
  const q = new XQueue<Item>('hop', CAPACITY);
  const meter = counted ? hopMeter(q, producerTally!, consumerTally!) : undefined;
  const all = deferred();
  let received = 0;
  runtime.spawn(
    'consumer',
    (): Behaviour<never> => ({
      start(ctx) {
        ctx.consume(q, (taken, queue) => {
          queue.remove(taken);
          if (++received === n) all.resolve();
        });
      },
    }),
    { tally: consumerTally },
  );
  await untilAttached([q]);
  meter?.start();
  const t0 = performance.now();
  await produce(q, n, undefined, producerTally);
  await all.promise;
  const ms = performance.now() - t0;
  meter?.stop();
  await runtime.stop();
  if (counted && (producerTally!.done !== n || consumerTally!.done !== n)) throw new Error(`counted ${producerTally!.done}/${consumerTally!.done} of ${n}`);
  return ms;
}

const xqueueChain: Variant = async (n) => {
  const runtime = new ActorRuntime('bench');
  const queues = Array.from({ length: STAGES }, (_, i) => new XQueue<Item>(`stage${i}`, CAPACITY));
  for (let i = 0; i < STAGES; i++) {
    const input = queues[i];
    const next = queues[i + 1];
    runtime.spawn(`stage${i}`, (): Behaviour<never> => ({
      start(ctx) {
        ctx.consume(input, (taken, queue) => {
          if (!next) {
            queue.remove(taken);
            return;
          }
          // Done here only when the next hop is done: completion travels back hop by hop.
          const onDone = () => void queue.remove(taken);
          if (next.offer(taken.item, onDone) < 0) return next.put(taken.item, onDone).then(() => undefined);
        });
      },
    }));
  }
  await untilAttached(queues);
  const all = deferred();
  let completed = 0;
  const t0 = performance.now();
  await produce(queues[0], n, () => {
    if (++completed === n) all.resolve();
  });
  await all.promise;
  const ms = performance.now() - t0;
  await runtime.stop();
  return ms;
};

const nactOneHop: Variant = async (n) => {
  const system = start();
  const all = deferred();
  const sink = spawn(
    system,
    (count: number, _msg: Item) => {
      if (count + 1 === n) all.resolve();
      return count + 1;
    },
    'sink',
    { initialState: 0 },
  );
  const t0 = performance.now();
  for (let i = 0; i < n; i++) dispatch(sink, { n: i });
  await all.promise;
  const ms = performance.now() - t0;
  stop(system);
  return ms;
};

const nactChain: Variant = async (n) => {
  const system = start();
  const all = deferred();
  let next = spawn(
    system,
    (count: number, _msg: Item) => {
      if (count + 1 === n) all.resolve();
      return count + 1;
    },
    `stage${STAGES - 1}`,
    { initialState: 0 },
  );
  for (let i = STAGES - 2; i >= 0; i--) {
    const target = next;
    next = spawn(
      system,
      (count: number, msg: Item) => {
        dispatch(target, msg);
        return count + 1;
      },
      `stage${i}`,
      { initialState: 0 },
    );
  }
  const t0 = performance.now();
  for (let i = 0; i < n; i++) dispatch(next, { n: i });
  await all.promise;
  const ms = performance.now() - t0;
  stop(system);
  return ms;
};

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written, never read: a sink the optimiser cannot drop, so the loop does its work
let sink = 0;
const loopOneHop: Variant = async (n) => {
  const handle = async (m: Item) => {
    sink += m.n & 1;
  };
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await handle({ n: i });
  return performance.now() - t0;
};

const loopChain: Variant = async (n) => {
  const last = async (m: Item) => {
    sink += m.n & 1;
  };
  let stage = last;
  for (let i = 0; i < STAGES - 1; i++) {
    const inner = stage;
    stage = async (m: Item) => {
      await inner(m);
    };
  }
  const first = stage;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await first({ n: i });
  return performance.now() - t0;
};

const VARIANTS = { xqueueOneHop, xqueueOneHopCounted, nactOneHop, loopOneHop, xqueueChain, nactChain, loopChain } as const;
type VariantName = keyof typeof VARIANTS;

/**
 * The counted hop against the uncounted one, in pairs of their own: each round runs the uncounted hop once untimed,
 * then uncounted, counted, counted, uncounted (ABBA). Measured among the other variants, the hop that ran right after
 * a nact variant paid for collecting nact's garbage, and the hop's own speed moved 2x with the state of the heap,
 * which swamped the few increments counting adds (a ratio of 0.78-0.93 from the same code); pairs of their own over
 * 2,000,000 messages per timing read 0.94-1.01.
 */
async function countingPairs(messages: number, rounds: number): Promise<{ counted: number[]; uncounted: number[]; ratios: number[] }> {
  const counted: number[] = [];
  const uncounted: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < Math.max(rounds, 5); round++) {
    await xqueueOneHop(messages); // untimed: collects what the variants before left behind
    const u1 = await xqueueOneHop(messages);
    const c1 = await xqueueOneHopCounted(messages);
    const c2 = await xqueueOneHopCounted(messages);
    const u2 = await xqueueOneHop(messages);
    counted.push((2 * messages) / ((c1 + c2) / 1000));
    uncounted.push((2 * messages) / ((u1 + u2) / 1000));
    ratios.push((u1 + u2) / (c1 + c2));
  }
  return { counted, uncounted, ratios };
}

async function throughputRows(messages: number, rounds: number): Promise<BenchRow[]> {
  const names = Object.keys(VARIANTS) as VariantName[];
  for (const name of names) await VARIANTS[name](Math.min(messages, 20_000)); // warm-up
  const rates = new Map<VariantName, number[]>(names.map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const ms = await VARIANTS[name](messages);
      rates.get(name)!.push(messages / (ms / 1000));
    }
  }
  // Ten times the messages per timing: at 60 ns a hop, 200,000 messages take 13 ms, and one scavenge moves that by 8 %.
  const counting = await countingPairs(messages * 10, rounds);
  const row = (name: string, value: VariantName, baseline: VariantName, target?: string): BenchRow => {
    const v = rates.get(value)!;
    const b = rates.get(baseline)!;
    return {
      name,
      unit: 'msgs/s',
      value: Math.round(median(v)),
      baseline: Math.round(median(b)),
      ratio: Number(median(v.map((x, i) => x / b[i])).toFixed(3)),
      ...(target ? { target } : {}),
    };
  };
  return [
    row('core: one XQueue hop (producer -> XQueue -> consumer actor) vs raw nact dispatch', 'xqueueOneHop', 'nactOneHop', 'ratio >= 1.5'),
    row('core: one XQueue hop vs a plain async loop', 'xqueueOneHop', 'loopOneHop'),
    {
      name: 'core: one XQueue hop with per-component counting (what /metrics reads) vs the same hop uncounted',
      unit: 'msgs/s',
      value: Math.round(median(counting.counted)),
      baseline: Math.round(median(counting.uncounted)),
      ratio: Number(median(counting.ratios).toFixed(3)),
      target: 'ratio >= 0.97',
    },
    row('core: chain of 4 components over XQueues (completion propagated) vs a chain of 4 nact actors', 'xqueueChain', 'nactChain'),
    row('core: chain of 4 components over XQueues vs 4 nested async calls in a loop', 'xqueueChain', 'loopChain'),
  ];
}

async function overloadRow(messages: number): Promise<BenchRow> {
  const growthMb = (r: OverloadResult) => (r.peakKb - r.baselineKb) / 1024;
  const bounded = await runChild<OverloadResult>('core-overload', ['xqueue', String(messages)], ['--expose-gc']);
  const unbounded = await runChild<OverloadResult>('core-overload', ['nact', String(messages)], ['--expose-gc']);
  const value = growthMb(bounded);
  const baseline = growthMb(unbounded);
  return {
    name: `core: peak memory growth (heap + buffers), producer outrunning a 10x slower consumer, ${messages} msgs of 1 KiB, XQueue vs unbounded nact dispatch`,
    unit: 'MB',
    value: Number(value.toFixed(1)),
    baseline: Number(baseline.toFixed(1)),
    ratio: baseline > 0 ? Number((value / baseline).toFixed(3)) : undefined,
    target: 'value <= 100 MB',
  };
}

export async function benchCore(opts: CoreBenchOptions): Promise<BenchRow[]> {
  const rows = await throughputRows(opts.messages, opts.rounds ?? 5);
  rows.push(await overloadRow(opts.overloadMessages));
  return rows;
}

if (require.main === module) {
  benchCore({ messages: 200_000, overloadMessages: 1_000_000 }).then((rows) => console.table(rows));
}
