/**
 * Number formatting for XSLT 1.0: `format-number()` with decimal formats (JDK DecimalFormat
 * patterns, as XSLT 1.0 specifies) and `xsl:number`'s format tokens (`1`, `01`, `a`, `A`, `i`,
 * `I`) with grouping.
 */
import { XrouteError } from '../foundation/xroute-error';

export interface DecimalFormat {
  readonly decimalSeparator: string;
  readonly groupingSeparator: string;
  readonly infinity: string;
  readonly minusSign: string;
  readonly nan: string;
  readonly percent: string;
  readonly perMille: string;
  readonly zeroDigit: string;
  readonly digit: string;
  readonly patternSeparator: string;
}

export const DEFAULT_DECIMAL_FORMAT: DecimalFormat = {
  decimalSeparator: '.',
  groupingSeparator: ',',
  infinity: 'Infinity',
  minusSign: '-',
  nan: 'NaN',
  percent: '%',
  perMille: '\u2030',
  zeroDigit: '0',
  digit: '#',
  patternSeparator: ';',
};

export class NumberFormatError extends XrouteError {
  constructor(reason: string) {
    super(reason);
    this.name = 'NumberFormatError';
  }
}

interface SubPattern {
  prefix: string;
  suffix: string;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  grouping: number;
  multiplier: number;
  /** A decimal separator with no fraction digits after it (`0.`): written always, as JDK DecimalFormat does. */
  separatorAlways: boolean;
}

function parseSubPattern(p: string, f: DecimalFormat): SubPattern {
  const isBody = (ch: string): boolean => ch === f.digit || ch === f.zeroDigit || ch === f.groupingSeparator || ch === f.decimalSeparator;
  let i = 0;
  while (i < p.length && !isBody(p[i]!)) i++;
  const prefix = p.slice(0, i);
  let j = i;
  while (j < p.length && isBody(p[j]!)) j++;
  const body = p.slice(i, j);
  const suffix = p.slice(j);
  if (body === '') throw new NumberFormatError(`the picture ${JSON.stringify(p)} has no digits`);
  const dot = body.indexOf(f.decimalSeparator);
  const intPart = dot < 0 ? body : body.slice(0, dot);
  const fracPart = dot < 0 ? '' : body.slice(dot + 1);
  const lastGroup = intPart.lastIndexOf(f.groupingSeparator);
  const count = (s: string, ch: string): number => s.split(ch).length - 1;
  const affixes = prefix + suffix;
  return {
    prefix,
    suffix,
    minInt: count(intPart, f.zeroDigit),
    minFrac: count(fracPart, f.zeroDigit),
    maxFrac: count(fracPart, f.zeroDigit) + count(fracPart, f.digit),
    grouping: lastGroup < 0 ? 0 : intPart.length - lastGroup - 1,
    multiplier: affixes.includes(f.percent) ? 100 : affixes.includes(f.perMille) ? 1000 : 1,
    separatorAlways: dot >= 0 && count(fracPart, f.zeroDigit) + count(fracPart, f.digit) === 0,
  };
}

export function formatNumber(value: number, picture: string, f: DecimalFormat = DEFAULT_DECIMAL_FORMAT): string {
  const parts = picture.split(f.patternSeparator);
  if (parts.length > 2) throw new NumberFormatError(`the picture ${JSON.stringify(picture)} has more than two sub-pictures`);
  const positive = parseSubPattern(parts[0]!, f);
  if (Number.isNaN(value)) return f.nan;
  const negative = value < 0 || Object.is(value, -0);
  const pattern = negative && parts[1] !== undefined ? parseSubPattern(parts[1], f) : positive;
  const prefix = negative && parts[1] === undefined ? f.minusSign + positive.prefix : pattern.prefix;
  const suffix = pattern.suffix;
  const abs = Math.abs(value) * positive.multiplier;
  if (!Number.isFinite(abs)) return prefix + f.infinity + suffix;
  let [whole, frac = ''] = abs.toFixed(positive.maxFrac).split('.');
  frac = frac.replace(/0+$/, '');
  while (frac.length < positive.minFrac) frac += '0';
  whole = whole!.replace(/^0+/, '');
  while (whole.length < positive.minInt) whole = '0' + whole;
  if (whole === '' && frac === '') whole = '0';
  if (positive.grouping > 0 && whole.length > positive.grouping) {
    const groups: string[] = [];
    for (let end = whole.length; end > 0; end -= positive.grouping) groups.unshift(whole.slice(Math.max(0, end - positive.grouping), end));
    whole = groups.join(f.groupingSeparator);
  }
  const digits = (s: string): string => (f.zeroDigit === '0' ? s : s.replace(/[0-9]/g, (d) => String.fromCharCode(f.zeroDigit.charCodeAt(0) + Number(d))));
  return prefix + digits(whole) + (frac === '' ? (positive.separatorAlways ? f.decimalSeparator : '') : f.decimalSeparator + digits(frac)) + suffix;
}

// --- xsl:number --------------------------------------------------------------------------------

export interface NumberFormatOptions {
  readonly format: string;
  readonly groupingSeparator?: string;
  readonly groupingSize?: number;
}

/** Formats the numbers xsl:number computed with its format string (tokens and separators). */
export function formatNumberSequence(numbers: readonly number[], options: NumberFormatOptions): string {
  const parts = options.format.match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu) ?? ['1'];
  const isToken = (s: string): boolean => /^[\p{L}\p{N}]/u.test(s);
  let prefix = '';
  let suffix = '';
  const tokens: string[] = [];
  const separators: string[] = [];
  parts.forEach((part, i) => {
    if (isToken(part)) tokens.push(part);
    else if (i === 0) prefix = part;
    else if (i === parts.length - 1) suffix = part;
    else separators.push(part);
  });
  if (tokens.length === 0) tokens.push('1');
  let out = prefix;
  numbers.forEach((n, i) => {
    if (i > 0) out += separators[Math.min(i - 1, separators.length - 1)] ?? '.';
    out += formatToken(n, tokens[Math.min(i, tokens.length - 1)]!, options);
  });
  return out + suffix;
}

function formatToken(n: number, token: string, options: NumberFormatOptions): string {
  if (token === 'a' || token === 'A') return alphabetic(n, token === 'A');
  if (token === 'i' || token === 'I') return n > 0 && n < 4000 ? roman(n, token === 'I') : String(n);
  let s = String(n);
  const zero = decimalTokenZero(token);
  if (zero !== undefined) s = s.padStart([...token].length, '0');
  const size = options.groupingSize ?? 0;
  if (options.groupingSeparator !== undefined && size > 0 && s.length > size) {
    const groups: string[] = [];
    for (let end = s.length; end > 0; end -= size) groups.unshift(s.slice(Math.max(0, end - size), end));
    s = groups.join(options.groupingSeparator);
  }
  return zero === undefined || zero === 48 ? s : s.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

/** The code point of zero in a decimal token (`1`, `01`, `٠١`: zeros then a one of one digit family, XSLT 1.0 §7.7.1). */
function decimalTokenZero(token: string): number | undefined {
  const chars = [...token];
  const zero = chars[chars.length - 1]!.codePointAt(0)! - 1;
  if (!/^\p{Nd}$/u.test(String.fromCodePoint(zero)) || !chars.slice(0, -1).every((c) => c.codePointAt(0) === zero)) return undefined;
  return zero;
}

function alphabetic(n: number, upper: boolean): string {
  if (n <= 0) return String(n);
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(((k - 1) % 26) + (upper ? 65 : 97)) + s;
  return s;
}

const ROMAN: ReadonlyArray<readonly [number, string]> = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

function roman(n: number, upper: boolean): string {
  let s = '';
  for (const [v, r] of ROMAN) {
    while (n >= v) {
      s += r;
      n -= v;
    }
  }
  return upper ? s.toUpperCase() : s;
}
