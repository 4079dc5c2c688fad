/**
 * How the latency bench settles a p99 ratio (issue 32): the two sides carry the same open-loop load in short blocks
 * that alternate (xroute, raw, raw, xroute, ...), so drift, garbage collection of the bench itself and a neighbour's
 * burst hit both sides alike; the ratio is that of the p99s of all measured blocks pooled per side, and its spread
 * is a bootstrap over the block pairs (each pair is one block of each side, adjacent in time): pairs are drawn with
 * replacement, the ratio of the drawn blocks' pooled p99s is taken, and the 2.5 and 97.5 percentiles of those
 * ratios are the interval. A p99 moves with the few stalls of its window; the interval says how much.
 */
import { percentile } from './latency';

/** A p99 ratio with its spread across the block pairs it pooled. */
export interface BlockedRatio {
  /** Pooled p99 of xroute's blocks over pooled p99 of the raw client's. */
  readonly ratio: number;
  /** 95 % bootstrap interval of `ratio` over the block pairs. */
  readonly lo: number;
  readonly hi: number;
  /** The lowest and highest ratio of one pair's p99s. */
  readonly pairMin: number;
  readonly pairMax: number;
  readonly pairs: number;
}

/** Bins of 0.5 % width from 1 µs: the bootstrap reads its percentiles from summed histograms (a sort per draw is too slow). */
const BIN_WIDTH = Math.log(1.005);
const BIN_FLOOR_MS = 0.001;
const BINS = 4_000;

function binOf(ms: number): number {
  if (!(ms > BIN_FLOOR_MS)) return 0;
  return Math.min(BINS - 1, Math.floor(Math.log(ms / BIN_FLOOR_MS) / BIN_WIDTH));
}

function histogram(samples: readonly number[]): Uint32Array {
  const h = new Uint32Array(BINS);
  for (const s of samples) h[binOf(s)]++;
  return h;
}

/** The p-th quantile of the histograms `hs[i]` for i in `pick`, as the upper edge of its bin. */
function histogramQuantile(hs: readonly Uint32Array[], pick: readonly number[], p: number): number {
  const sum = new Float64Array(BINS);
  let n = 0;
  for (const i of pick) {
    const h = hs[i];
    for (let b = 0; b < BINS; b++) sum[b] += h[b];
    n += sumOf(h);
  }
  const rank = Math.max(1, Math.ceil(n * p));
  let seen = 0;
  for (let b = 0; b < BINS; b++) {
    seen += sum[b];
    if (seen >= rank) return BIN_FLOOR_MS * Math.exp((b + 1) * BIN_WIDTH);
  }
  return NaN;
}

function sumOf(h: Uint32Array): number {
  let n = 0;
  for (let b = 0; b < h.length; b++) n += h[b];
  return n;
}

/** A small seeded generator (mulberry32): the same samples give the same interval. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function p99Of(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    0.99,
  );
}

/**
 * The ratio of the p99s of `ours` and `raw` (each a list of blocks, pair i = ours[i] and raw[i]), with its
 * bootstrap interval over the pairs (`draws` resamples) and the range of the single pairs' ratios.
 */
export function blockedP99Ratio(ours: readonly (readonly number[])[], raw: readonly (readonly number[])[], draws = 1_000): BlockedRatio {
  if (ours.length !== raw.length || ours.length === 0)
    throw new Error(`expected the same number of blocks on both sides, got ${ours.length} and ${raw.length}`);
  const pairs = ours.length;
  const ratio = p99Of(ours.flat()) / p99Of(raw.flat());
  const pairRatios = ours.map((o, i) => p99Of(o) / p99Of(raw[i]));
  const ho = ours.map(histogram);
  const hr = raw.map(histogram);
  const random = seeded(32);
  const drawn: number[] = [];
  const pick = new Array<number>(pairs);
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < pairs; i++) pick[i] = Math.floor(random() * pairs);
    drawn.push(histogramQuantile(ho, pick, 0.99) / histogramQuantile(hr, pick, 0.99));
  }
  drawn.sort((a, b) => a - b);
  return {
    ratio,
    lo: percentile(drawn, 0.025),
    hi: percentile(drawn, 0.975),
    pairMin: Math.min(...pairRatios),
    pairMax: Math.max(...pairRatios),
    pairs,
  };
}
