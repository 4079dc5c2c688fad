/**
 * How many cases the fuzz suites run: a few hundred in `npm test`, the nightly size when
 * XROUTE_FUZZ=nightly. XROUTE_FUZZ_SEED replays one run (fast-check prints the seed of a failure).
 */
export const NIGHTLY = process.env.XROUTE_FUZZ === 'nightly';

export function fuzzRuns(everyRun: number, nightly: number): number {
  return NIGHTLY ? nightly : everyRun;
}

export function fuzzSeed(): number | undefined {
  const seed = process.env.XROUTE_FUZZ_SEED;
  return seed === undefined ? undefined : Number(seed);
}

/** Text that must never reach a user: JavaScript's own error wording and stack frames. */
export const INTERNAL_JS_TEXT = /is not a function|Cannot read propert|Cannot set propert|is not iterable|is not defined|Maximum call stack|undefined is not|null is not|\bat \S+ \(.*:\d+:\d+\)|TypeError|RangeError|ReferenceError|SyntaxError: Unexpected/;
