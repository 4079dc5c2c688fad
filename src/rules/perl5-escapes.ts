/**
 * Perl 5 backslash escapes in a pattern, translated to JavaScript RegExp source (no `u` flag) or refused
 * (docs/evaluator/rules.md, "Regular expressions: what is supported"). JavaScript reads an escape it does not
 * know as the letter itself (`\h` is "h"), so every escape Perl gives a meaning is handled here: translated
 * when JavaScript can say the same, refused with the construct's name otherwise. A letter Perl does not know
 * either (`\q`, `\y`) stays the letter, as in Perl.
 */

/** The pattern's capturing groups, as far as an escape needs them. */
export interface GroupInfo {
  /** Capturing groups in the whole pattern. */
  readonly total: number;
  /** Capturing groups opened before source index i. */
  openedBefore(i: number): number;
}

export interface EscapeOutput {
  /** JavaScript source: an atom outside a class, class members inside one. */
  readonly text: string;
  /** Index just after the escape in the Perl source. */
  readonly end: number;
  /** The one character the escape stands for, when it stands for exactly one (case folding needs it). */
  readonly code?: number;
}

type Ranges = ReadonlyArray<readonly [number, number]>;

// Perl's \h and \v (perlrecharclass "Whitespace"), checked against perl 5.36 over U+0000..U+FFFF.
const HORIZONTAL_SPACE: Ranges = [
  [0x09, 0x09],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const VERTICAL_SPACE: Ranges = [
  [0x0a, 0x0d],
  [0x85, 0x85],
  [0x2028, 0x2029],
];
// \R: \r\n as one unit (never split by backtracking, as Perl's atomic \R), or one vertical space.
const LINEBREAK = '(?:\\r\\n|\\r(?!\\n)|[\\n\\x0B\\f\\x85\\u2028\\u2029])';

/** `\xHH` or `\uHHHH` for one UTF-16 code unit. */
function codeUnitEscape(code: number): string {
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function members(ranges: Ranges): string {
  return ranges.map(([lo, hi]) => (lo === hi ? codeUnitEscape(lo) : `${codeUnitEscape(lo)}-${codeUnitEscape(hi)}`)).join('');
}

function complement(ranges: Ranges): Ranges {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}

const classOf = (ranges: Ranges, inClass: boolean): string => (inClass ? members(ranges) : `[${members(ranges)}]`);

/**
 * One character by its code point: an escape, or outside a class a surrogate pair grouped so that a
 * quantifier applies to the whole character. Inside a class a code point beyond U+FFFF is refused.
 */
function character(code: number, inClass: boolean, end: number, fail: (reason: string) => never, construct: string): EscapeOutput {
  if (code > 0x10ffff) fail(`${construct} is beyond U+10FFFF`);
  if (code <= 0xffff) return { text: codeUnitEscape(code), end, code };
  if (inClass) fail(`${construct} (a character beyond U+FFFF) inside a character class is not supported`);
  const c = String.fromCodePoint(code);
  return { text: `(?:${codeUnitEscape(c.charCodeAt(0))}${codeUnitEscape(c.charCodeAt(1))})`, end };
}

/** Reads `{...}` at `open`; undefined when there is none or it is not closed. */
function braced(source: string, open: number): { body: string; end: number } | undefined {
  if (source[open] !== '{') return undefined;
  const close = source.indexOf('}', open + 1);
  return close < 0 ? undefined : { body: source.slice(open + 1, close), end: close + 1 };
}

/**
 * Translates the escape whose backslash is at `i` (the caller handles \A, \z and \Z outside classes).
 * `fail` throws the dialect's syntax error with the given reason.
 */
export function translateEscape(source: string, i: number, inClass: boolean, groups: GroupInfo, fail: (reason: string) => never): EscapeOutput {
  const e = source[i + 1];
  const after = i + 2;
  const shown = (end: number) => source.slice(i, end);
  const unsupported = (end: number, what: string): never => fail(`${shown(end)} (${what}) is not supported`);
  switch (e) {
    case 'a':
      return character(0x07, inClass, after, fail, '\\a');
    case 'e':
      return character(0x1b, inClass, after, fail, '\\e');
    case 'c': {
      const x = source[after];
      if (x === undefined || x < ' ' || x > '~' || x === '{') fail('\\c must be followed by a printable ASCII character other than {');
      return character(x.toUpperCase().charCodeAt(0) ^ 64, inClass, after + 1, fail, shown(after + 1));
    }
    case 'x': {
      const b = braced(source, after);
      if (b !== undefined) {
        const digits = b.body.trim().replace(/_/g, '');
        if (!/^[0-9A-Fa-f]*$/.test(digits)) fail(`${shown(b.end)} is not a hexadecimal character code`);
        return character(digits === '' ? 0 : parseInt(digits, 16), inClass, b.end, fail, shown(b.end));
      }
      const m = /^[0-9A-Fa-f]{0,2}/.exec(source.slice(after)) as RegExpExecArray;
      return character(m[0] === '' ? 0 : parseInt(m[0], 16), inClass, after + m[0].length, fail, shown(after + m[0].length));
    }
    case 'o': {
      const b = braced(source, after);
      if (b === undefined) return fail('\\o needs braces, as in \\o{101}');
      const digits = b.body.trim().replace(/_/g, '');
      if (!/^[0-7]+$/.test(digits)) fail(`${shown(b.end)} is not an octal character code`);
      return character(parseInt(digits, 8), inClass, b.end, fail, shown(b.end));
    }
    case 'N': {
      if (source[after] === '{' && braced(source, after) === undefined) return fail('\\N{ is not closed');
      // under (?x) `\N {1}` is \N with a quantifier, but `\N {U+41}` is an error in Perl
      const spaced = /^(?:\s|\(\?#[^)]*\))+\{([^}]*)\}/.exec(source.slice(after));
      if (spaced !== null && !/^\s*\d*\s*(,\s*\d*\s*)?$/.test(spaced[1])) return fail('\\N must be followed directly by {U+hex} or a quantifier');
      const b = braced(source, after);
      const named = b !== undefined ? /^U\+([0-9A-Fa-f]+)$/.exec(b.body) : null;
      if (b !== undefined && named !== null) return character(parseInt(named[1], 16), inClass, b.end, fail, shown(b.end));
      // \N{3,4} is \N with a quantifier; \N{NAME} is a named character
      if (b !== undefined && !/^\s*\d*\s*(,\s*\d*\s*)?$/.test(b.body)) return unsupported(b.end, 'a named character');
      if (inClass) return fail('\\N inside a character class must be \\N{U+hex}');
      return { text: '[^\\n]', end: after };
    }
    case 'h':
      return { text: classOf(HORIZONTAL_SPACE, inClass), end: after };
    case 'H':
      return { text: classOf(complement(HORIZONTAL_SPACE), inClass), end: after };
    case 'v':
      return { text: classOf(VERTICAL_SPACE, inClass), end: after };
    case 'V':
      return { text: classOf(complement(VERTICAL_SPACE), inClass), end: after };
    case 'p':
    case 'P': {
      const b = braced(source, after);
      return unsupported(b?.end ?? after + 1, 'a Unicode property');
    }
    default:
  }
  if (e >= '0' && e <= '9') return numeric(source, i, inClass, groups, fail);
  if (inClass) return { text: '\\' + e, end: after }; // the rest are literal inside a class, in Perl and JS alike
  switch (e) {
    case 'R':
      return { text: LINEBREAK, end: after };
    case 'g':
      return relativeOrNumberedReference(source, i, groups, fail);
    case 'k':
      return unsupported(i + (/^\\k(?:<[^>]*>|'[^']*'|\{[^}]*\})?/.exec(source.slice(i)) as RegExpExecArray)[0].length, 'a named backreference');
    case 'K':
      return unsupported(after, 'keep the text matched so far out of the match');
    case 'X':
      return unsupported(after, 'an extended grapheme cluster');
    case 'G':
      return unsupported(after, 'the end of the previous match');
    case 'C':
      return unsupported(after, 'a single byte');
    case 'b':
    case 'B':
      if (source[after] === '{') return unsupported(braced(source, after)?.end ?? after + 1, 'a Unicode boundary type');
      return { text: '\\' + e, end: after };
    default:
      return { text: '\\' + e, end: after };
  }
}

/** \0.., \1.. : a backreference when that group exists, else Perl's octal rules (docs/evaluator/rules.md). */
function numeric(source: string, i: number, inClass: boolean, groups: GroupInfo, fail: (reason: string) => never): EscapeOutput {
  const digits = (/^\d+/.exec(source.slice(i + 1)) as RegExpExecArray)[0];
  const octal = (): EscapeOutput => {
    const o = (/^[0-7]{1,3}/.exec(digits) as RegExpExecArray)[0];
    return character(parseInt(o, 8), inClass, i + 1 + o.length, fail, source.slice(i, i + 1 + o.length));
  };
  if (digits[0] === '0') return octal();
  if (inClass) return /^[0-7]/.test(digits) ? octal() : { text: digits[0], end: i + 2 };
  const n = Number(digits);
  if (n <= groups.total) return { text: `(?:\\${n})`, end: i + 1 + digits.length };
  if (digits.length === 1 || !/^[0-7]/.test(digits)) return fail(`\\${digits} refers to group ${digits}, which the pattern does not have`);
  return octal();
}

/** \g1, \g{1}, \g-1, \g{-1}: backreferences by number or relative number; \g{name} is refused. */
function relativeOrNumberedReference(source: string, i: number, groups: GroupInfo, fail: (reason: string) => never): EscapeOutput {
  const rest = source.slice(i + 2);
  const m = /^(?:\{\s*(-?\d+)\s*\}|(-?\d+))/.exec(rest);
  if (m === null) {
    const b = braced(source, i + 2);
    return fail(
      b !== undefined ? `${source.slice(i, b.end)} (a named backreference) is not supported` : '\\g must be followed by a group number, as in \\g1 or \\g{-1}',
    );
  }
  const shown = source.slice(i, i + 2 + m[0].length);
  const k = Number(m[1] ?? m[2]);
  const n = k < 0 ? groups.openedBefore(i) + 1 + k : k;
  if (k === 0 || n < 1 || n > groups.total) fail(`${shown} refers to a group that the pattern does not have`);
  return { text: `(?:\\${n})`, end: i + 2 + m[0].length };
}

/**
 * The capturing groups of a Perl pattern: every `(` outside a class that is not escaped and not `(?`,
 * with Perl's class rules (`[]a]`, `[^]a]`, POSIX `[:name:]`) and, under (?x), comments skipped.
 */
export function scanGroups(source: string, extended: boolean): GroupInfo {
  const opens: number[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && source[i + 1] === ':') {
        const end = source.indexOf(':]', i + 2);
        if (end > 0) i = end + 1;
      } else if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
    } else if (extended && c === '#') {
      const nl = source.indexOf('\n', i);
      i = nl < 0 ? source.length : nl;
    } else if (c === '(' && source[i + 1] !== '?' && source[i + 1] !== '*') opens.push(i);
  }
  return {
    total: opens.length,
    openedBefore: (i) => opens.filter((p) => p < i).length,
  };
}
