/**
 * Benchmark of reloading a running flow (issue 27, docs/operations.md#changing-a-running-flow) on RabbitMQ: the
 * evaluate-route example (AmqpReceiver -> CollectNode -> MessageEvaluator -> AmqpPersister, XAMode 1) kept busy by
 * a publisher offering more than it can take (its input queue holds a backlog throughout).
 *  - swap time of one component, from the start of its drain to its successor RUNNING (ComponentChange.swapMs):
 *    the evaluator (a ruleset change) and the receiver (a Priority change), median and p99 over `reloads` each;
 *  - throughput during a reload as a fraction of steady state: windows of `windowMs` alternate, one without a
 *    reload, one that starts with one (evaluator and receiver in turn); the median of each kind of window.
 */
import { waitFor } from '../support/component-harness';
import { ReloadRig } from '../integration/amqp/reload-kit';
import type { BenchRow } from './bench-types';
import { percentile } from './latency';

export interface ReloadBenchOptions {
  /** Reloads of each kind (evaluator, receiver). */
  readonly reloads: number;
  /** Length of each measured window. */
  readonly windowMs: number;
  /** Messages per second the publisher offers (more than the flow takes, to keep a backlog). */
  readonly offered: number;
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export async function benchReload(options: ReloadBenchOptions): Promise<BenchRow[]> {
  const rig = await ReloadRig.start(options.offered);
  try {
    const { flow, out, publisher } = rig;
    publisher.start();
    await waitFor(() => out.count >= 2_000, 'the flow warmed up', 60_000);
    const swaps = { evaluator: [] as number[], receiver: [] as number[] };
    const steady: number[] = [];
    const reloading: number[] = [];
    /** Messages per second reaching the output over one window that starts with `during`. */
    const window = async (during: () => Promise<void>): Promise<number> => {
      const t0 = performance.now();
      const c0 = out.count;
      await during();
      const left = options.windowMs - (performance.now() - t0);
      if (left > 0) await new Promise((r) => setTimeout(r, left));
      return ((out.count - c0) * 1000) / (performance.now() - t0);
    };
    for (let i = 1; i <= options.reloads * 2; i++) {
      steady.push(await window(async () => undefined));
      const evaluator = i % 2 === 1;
      reloading.push(
        await window(async () => {
          const file = evaluator
            ? rig.topology.write(`V${i}:##body##`)
            : rig.topology.write(`V${i - 1}:##body##`, (j) => (j.rcvr_in.Priority = String(i % 10)));
          const receipt = await flow.reload(file);
          const name = evaluator ? 'pstr_eval' : 'rcvr_in';
          const swapMs = receipt.components.find((c) => c.name === name)?.swapMs;
          if (receipt.outcome !== 'applied' || swapMs === undefined) throw new Error(`reload ${i} ${receipt.outcome}: ${receipt.error ?? 'no swap time'}`);
          (evaluator ? swaps.evaluator : swaps.receiver).push(swapMs);
        }),
      );
    }
    const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
    const steadyRate = median(steady);
    return [
      { name: 'reload: evaluator swap median', unit: 'ms', value: median(swaps.evaluator) },
      { name: `reload: evaluator swap p99 (of ${swaps.evaluator.length})`, unit: 'ms', value: percentile(sorted(swaps.evaluator), 0.99) },
      { name: 'reload: receiver swap median', unit: 'ms', value: median(swaps.receiver) },
      { name: `reload: receiver swap p99 (of ${swaps.receiver.length})`, unit: 'ms', value: percentile(sorted(swaps.receiver), 0.99) },
      { name: 'reload: steady throughput (backlog)', unit: 'msg/s', value: Math.round(steadyRate) },
      {
        name: `reload: throughput in ${options.windowMs} ms windows with a reload / steady`,
        unit: 'ratio',
        value: Math.round((median(reloading) / steadyRate) * 100) / 100,
      },
    ];
  } finally {
    await rig.cleanup();
  }
}
