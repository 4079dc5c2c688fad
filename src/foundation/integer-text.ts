/**
 * The one reading of an integer-valued configuration property. Values are strings, as in the original
 * ("10", " 10 ", "-1"); a JSON number is taken as the user surely meant. Every reader that checks a count,
 * a size or a time uses this, so that "10" means the same thing in a topology, a Supervision map, a
 * component and a ruleset.
 */

const INTEGER = /^\s*[+-]?\d+\s*$/;

/** The integer `value` holds, or undefined when it holds anything else (a fraction, a word, a number too large to be exact). */
export function integerValue(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The integer a configuration string holds when it is at least `min`, else undefined. */
export function integerAtLeast(value: unknown, min: number): number | undefined {
  const n = integerValue(value);
  return n !== undefined && n >= min ? n : undefined;
}
