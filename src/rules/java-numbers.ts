/**
 * Java number parsing and printing, as the original's expressions and intervals see numbers:
 * Long.parseLong (strict, 64-bit), Double.parseDouble (trims, exponents, NaN, Infinity) and
 * Double.toString (docs/evaluator/rules.md).
 */

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** Long.parseLong: optional sign, decimal digits only, no spaces, must fit 64 bits. */
export function parseJavaLong(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const v = BigInt(text);
  return v < LONG_MIN || v > LONG_MAX ? undefined : v;
}

const DOUBLE_RE = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/;

/** Double.parseDouble: leading/trailing whitespace trimmed, exponents, NaN, Infinity, f/d suffix. */
export function parseJavaDouble(text: string): number | undefined {
  const t = text.trim();
  if (!DOUBLE_RE.test(t)) return undefined;
  if (t.endsWith('NaN')) return NaN;
  const core = /[fFdD]$/.test(t) ? t.slice(0, -1) : t;
  return Number(core);
}

/** 64-bit two's complement wrap-around, as Java long arithmetic. */
export function wrapLong(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

/** Double.toString: "8.0", "3.5", "1.00000005E7", "1.0E-4", "NaN", "-0.0". */
export function javaDoubleToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(x);
    return s.includes('.') ? s : s + '.0';
  }
  const [mantissa, exponent] = x.toExponential().split('e');
  return (mantissa.includes('.') ? mantissa : mantissa + '.0') + 'E' + (exponent.startsWith('+') ? exponent.slice(1) : exponent);
}

/** Float.toString for a float held in a double: the shortest decimal that reads back as the same float ("1.1", not "1.100000023841858"). */
export function javaFloatToString(x: number): string {
  if (!Number.isFinite(x) || x === 0) return javaDoubleToString(x);
  for (let digits = 1; digits <= 9; digits++) {
    const shortest = Number(x.toPrecision(digits));
    if (Math.fround(shortest) === x) return javaDoubleToString(shortest);
  }
  return javaDoubleToString(x);
}
