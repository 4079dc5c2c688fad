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

/**
 * Compares two runs that each measure and return their own rate (for benches with set-up per run,
 * such as a broker queue or a pool): `rounds` rounds, alternating which runs first.
 */
export async function compareRates(rounds: number, subject: () => Promise<number>, baseline: () => Promise<number>): Promise<RateComparison> {
  const subjectRates: number[] = [];
  const baselineRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let s: number;
    let b: number;
    if (round % 2 === 0) {
      s = await subject();
      b = await baseline();
    } else {
      b = await baseline();
      s = await subject();
    }
    subjectRates.push(s);
    baselineRates.push(b);
    ratios.push(s / b);
  }
  return { subject: median(subjectRates), baseline: median(baselineRates), ratio: median(ratios) };
}
