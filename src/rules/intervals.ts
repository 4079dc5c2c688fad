/**
 * Numeric range sets ("range patterns", docs/evaluator/rules.md): a list of interval strings such as
 * `[1, 10)`, `(,5]` or `[1.5,10)`. If any bound of any interval contains `.`, the whole set is a
 * real (double) set, otherwise a 64-bit integer set. A value is in the set when any interval holds it.
 */
import { ConfigWhere, RuleConfigError } from './errors';
import { parseJavaDouble, parseJavaLong } from './java-numbers';

interface Bound<T> {
  value: T;
  inclusive: boolean;
}

interface Interval<T> {
  lower?: Bound<T>;
  upper?: Bound<T>;
}

interface RawInterval {
  left: string;
  leftInclusive: boolean;
  right: string;
  rightInclusive: boolean;
}

/** Splits one interval string the way the original does (first `(` else `[`, then `,`, then `)` else `]`). */
function splitInterval(text: string): RawInterval | undefined {
  if (text.length < 4) return undefined;
  let open = text.indexOf('(');
  let leftInclusive = false;
  if (open < 0) {
    open = text.indexOf('[');
    leftInclusive = true;
  }
  if (open < 0) return undefined;
  const comma = text.indexOf(',', open + 1);
  if (comma < 0) return undefined;
  let close = text.indexOf(')', comma + 1);
  let rightInclusive = false;
  if (close < 0) {
    close = text.indexOf(']', comma + 1);
    rightInclusive = true;
  }
  if (close < 0) return undefined;
  return { left: text.slice(open + 1, comma).trim(), leftInclusive, right: text.slice(comma + 1, close).trim(), rightInclusive };
}

function inside<T>(iv: Interval<T>, x: T): boolean {
  const { lower, upper } = iv;
  if (lower !== undefined && (lower.inclusive ? x < lower.value : x <= lower.value)) return false;
  if (upper !== undefined && (upper.inclusive ? x > upper.value : x >= upper.value)) return false;
  return true;
}

export class IntervalSet {
  private constructor(
    /** true when the set holds doubles; false for 64-bit integers. */
    readonly real: boolean,
    private readonly realIntervals: ReadonlyArray<Interval<number>>,
    private readonly intIntervals: ReadonlyArray<Interval<bigint>>,
    /** The integer intervals again as numbers, when every bound is a safe integer (the fast path). */
    private readonly safeIntIntervals: ReadonlyArray<Interval<number>> | undefined,
    readonly source: readonly string[],
  ) {}

  /** Parses a list of interval strings; throws RuleConfigError naming `where` on any bad entry. */
  static parse(list: unknown, where: ConfigWhere = {}): IntervalSet {
    const entries = Array.isArray(list) ? list : [list];
    if (entries.length === 0) throw new RuleConfigError(where, 'empty interval list', 'at least one interval such as "[1,10)"');
    const raws: RawInterval[] = [];
    for (const entry of entries) {
      if (typeof entry !== 'string') throw new RuleConfigError(where, `interval ${JSON.stringify(entry)} is not a string`, 'an interval such as "[1,10)"');
      const raw = splitInterval(entry);
      if (raw === undefined)
        throw new RuleConfigError(where, `cannot parse interval ${JSON.stringify(entry)}`, 'an interval such as "[1,10)", "(,5]" or "[5,)"');
      if (raw.left === '' && raw.right === '') throw new RuleConfigError(where, `interval ${JSON.stringify(entry)} has no bound`, 'at least one bound');
      raws.push(raw);
    }
    const real = raws.some((r) => r.left.includes('.') || r.right.includes('.'));
    const check = <T>(entry: string, iv: Interval<T>): Interval<T> => {
      if (iv.lower !== undefined && iv.upper !== undefined && iv.lower.value > iv.upper.value) {
        throw new RuleConfigError(where, `interval ${JSON.stringify(entry)} has its left bound above its right bound`, 'left <= right');
      }
      return iv;
    };
    const bound = <T>(text: string, inclusive: boolean, parse: (s: string) => T | undefined, entry: string): Bound<T> | undefined => {
      if (text === '') return undefined;
      const value = parse(text);
      if (value === undefined)
        throw new RuleConfigError(
          where,
          `bound ${JSON.stringify(text)} of interval ${JSON.stringify(entry)} is not a number`,
          real ? 'a number' : 'an integer',
        );
      return { value, inclusive };
    };
    const source = entries as string[];
    if (real) {
      const ivs = raws.map((r, k) =>
        check(source[k], {
          lower: bound(r.left, r.leftInclusive, parseJavaDouble, source[k]),
          upper: bound(r.right, r.rightInclusive, parseJavaDouble, source[k]),
        }),
      );
      return new IntervalSet(true, ivs, [], undefined, source);
    }
    const ivs = raws.map((r, k) =>
      check(source[k], { lower: bound(r.left, r.leftInclusive, parseJavaLong, source[k]), upper: bound(r.right, r.rightInclusive, parseJavaLong, source[k]) }),
    );
    const safe = (b: Bound<bigint> | undefined) =>
      b === undefined || (b.value >= BigInt(Number.MIN_SAFE_INTEGER) && b.value <= BigInt(Number.MAX_SAFE_INTEGER));
    const allSafe = ivs.every((iv) => safe(iv.lower) && safe(iv.upper));
    const toNumber = (b: Bound<bigint> | undefined): Bound<number> | undefined =>
      b === undefined ? undefined : { value: Number(b.value), inclusive: b.inclusive };
    const safeIvs = allSafe ? ivs.map((iv) => ({ lower: toNumber(iv.lower), upper: toNumber(iv.upper) })) : undefined;
    return new IntervalSet(false, [], ivs, safeIvs, source);
  }

  /**
   * Whether the text value lies in the set. The value is parsed strictly as a 64-bit integer for an
   * integer set ("9.0" and " 9" fail) or as a Java double for a real set; unparsable text is outside.
   */
  containsText(text: string): boolean {
    if (this.real) {
      const x = parseJavaDouble(text);
      return x !== undefined && this.containsNumber(x);
    }
    // Fast path: short plain decimals are exact as JS numbers.
    if (this.safeIntIntervals !== undefined && text.length <= 15 && /^[+-]?\d+$/.test(text)) {
      const x = Number(text);
      for (const iv of this.safeIntIntervals) if (inside(iv, x)) return true;
      return false;
    }
    const x = parseJavaLong(text);
    return x !== undefined && this.containsBigInt(x);
  }

  /** For a real set: whether a double lies in it. */
  containsNumber(x: number): boolean {
    if (!this.real) return Number.isInteger(x) && this.containsBigInt(BigInt(x));
    for (const iv of this.realIntervals) if (inside(iv, x)) return true;
    return false;
  }

  containsBigInt(x: bigint): boolean {
    if (this.real) return this.containsNumber(Number(x));
    for (const iv of this.intIntervals) if (inside(iv, x)) return true;
    return false;
  }
}
