/**
 * How many cases the fuzz suites run: a few hundred in `npm test`, the nightly size when
 * XROUTE_FUZZ=nightly. XROUTE_FUZZ_SEED replays one run (fast-check prints the seed of a failure).
 */
import { appendFileSync } from 'node:fs';

export const NIGHTLY = process.env.XROUTE_FUZZ === 'nightly';

export function fuzzRuns(everyRun: number, nightly: number): number {
  return NIGHTLY ? nightly : everyRun;
}

/**
 * With XROUTE_FUZZ_TRACE=<file>, each case is appended to that file before it runs: a case that kills
 * the process (out of memory) leaves no fast-check report, but it is the file's last line.
 */
export function traceCase(value: unknown): void {
  const file = process.env.XROUTE_FUZZ_TRACE;
  if (file !== undefined) appendFileSync(file, JSON.stringify(value) + '\n');
}

export function fuzzSeed(): number | undefined {
  const seed = process.env.XROUTE_FUZZ_SEED;
  return seed === undefined ? undefined : Number(seed);
}

/** Text that must never reach a user: JavaScript's own error wording and stack frames. */
export const INTERNAL_JS_TEXT =
  /is not a function|Cannot read propert|Cannot set propert|is not iterable|is not defined|Maximum call stack|undefined is not|null is not|\bat \S+ \(.*:\d+:\d+\)|TypeError|RangeError|ReferenceError|SyntaxError: Unexpected/;
