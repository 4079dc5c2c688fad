/**
 * How every bench compares xroute with a baseline on a shared, noisy machine: both run in the same
 * process, interleaved in rounds, alternating which goes first (so neither always inherits the
 * other's garbage or a warmer cache); the ratio is the median of the per-round ratios.
 */

import { median } from '../support/median';

export { median };

export type Step<T> = (item: T) => void | Promise<void>;

export interface InterleavedResult {
  /** Nanoseconds per item over all rounds. */
  readonly subjectNs: number;
  readonly baselineNs: number;
  /** Median over rounds of subject time / baseline time (< 1: the subject is faster). */
  readonly timeRatio: number;
}

/** Runs `step` over `items` (made before the clock starts) and returns the elapsed nanoseconds. */
async function timeSteps<T>(step: Step<T>, items: readonly T[]): Promise<number> {
  const start = process.hrtime.bigint();
  for (const item of items) {
    const r = step(item);
    if (r !== undefined) await r;
  }
  return Number(process.hrtime.bigint() - start);
}

/**
 * Compares `subject` with `baseline`: a warm-up of each, then `rounds` rounds of `perRound` fresh
 * items each (`make(i)` with a distinct i), the two sides alternating which runs first.
 */
export async function compareInterleaved<T>(opts: {
  subject: Step<T>;
  baseline: Step<T>;
  make: (i: number) => T;
  rounds: number;
  perRound: number;
  warmUp?: number;
}): Promise<InterleavedResult> {
  const { subject, baseline, make, rounds, perRound } = opts;
  const batch = (offset: number, count: number): T[] => Array.from({ length: count }, (_, i) => make(offset + i));
  const warm = opts.warmUp ?? Math.min(perRound, 2000);
  await timeSteps(subject, batch(0, warm));
  await timeSteps(baseline, batch(0, warm));
  let subjectNs = 0;
  let baselineNs = 0;
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const offset = round * perRound;
    let s: number;
    let b: number;
    if (round % 2 === 0) {
      s = await timeSteps(subject, batch(offset, perRound));
      b = await timeSteps(baseline, batch(offset, perRound));
    } else {
      b = await timeSteps(baseline, batch(offset, perRound));
      s = await timeSteps(subject, batch(offset, perRound));
    }
    subjectNs += s;
    baselineNs += b;
    ratios.push(s / b);
  }
  const total = rounds * perRound;
  return { subjectNs: subjectNs / total, baselineNs: baselineNs / total, timeRatio: median(ratios) };
}

export interface RateComparison {
  /** Median rates (items per second) of the subject and the baseline. */
  readonly subject: number;
  readonly baseline: number;
  /** Median over rounds of subject rate / baseline rate (> 1: the subject is faster). */
  readonly ratio: number;
}

/** Per measured figure: the medians of the subject's and the baseline's values, and the median of their per-round ratios. */
export type RunComparison<K extends string> = Record<K, RateComparison>;

/**
 * Compares two runs that each measure and return their own figures (for benches with set-up per run, such as a
 * broker queue or a pool): `rounds` rounds of one subject run and one baseline run, alternating which runs first.
 * Each figure (a rate, a CPU time per item) is compared on its own: the median of the per-round ratios.
 */
export async function compareRuns<K extends string>(
  rounds: number,
  subject: () => Promise<Record<K, number>>,
  baseline: () => Promise<Record<K, number>>,
): Promise<RunComparison<K>> {
  const subjects: Record<K, number>[] = [];
  const baselines: Record<K, number>[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      subjects.push(await subject());
      baselines.push(await baseline());
    } else {
      baselines.push(await baseline());
      subjects.push(await subject());
    }
  }
  const keys = Object.keys(subjects[0] ?? {}) as K[];
  const result = {} as Record<K, RateComparison>;
  for (const k of keys)
    result[k] = {
      subject: median(subjects.map((r) => r[k])),
      baseline: median(baselines.map((r) => r[k])),
      ratio: median(subjects.map((r, i) => r[k] / baselines[i][k])),
    };
  return result;
}

/** compareRuns of one figure, a rate. */
export async function compareRates(rounds: number, subject: () => Promise<number>, baseline: () => Promise<number>): Promise<RateComparison> {
  const rate = async (run: () => Promise<number>) => ({ rate: await run() });
  return (
    await compareRuns(
      rounds,
      () => rate(subject),
      () => rate(baseline),
    )
  ).rate;
}
