/**
 * The original's regular-expression dialect (Jakarta ORO "Perl5", default options) on top of
 * JavaScript RegExp (evaluator.md §5.5, §7.2). Patterns are translated once, at start-up:
 *
 *   - leading inline modifiers (?i) (?m) (?s) (?x) become JS flags ((?x) whitespace is stripped here);
 *   - `$` outside a class, without (?m), means "end of input or just before a final \n"; with (?m) (or a
 *     substitution's m flag) `^` and `$` are Perl's line anchors, for \n only;
 *   - `.` without (?s) excludes only \n (JS would also exclude \r, \u2028 and \u2029);
 *   - \A, \Z and \z become explicit start/end assertions;
 *   - POSIX classes [[:digit:]] become explicit ranges; `[]a]` keeps its Perl meaning;
 *   - lookbehind, named groups and inline modifiers after the start are rejected, as ORO rejects them.
 *
 * Matching is "find" (search anywhere), which is what RegExp.test does. Replacement text uses ORO's
 * Perl5 syntax ($1, $10 greedy, \U..\E, \u, \l, \x = x) and global replacement skips an empty match
 * right after a non-empty one, as ORO does.
 */
import { ConfigWhere, RegexSyntaxError } from './errors';

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: '0-9a-zA-Z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  cntrl: '\\x00-\\x1f\\x7f',
  print: '\\x20-\\x7e',
  graph: '\\x21-\\x7e',
  word: '\\w',
  ascii: '\\x00-\\x7f',
};

const START_OF_INPUT = '(?<![\\s\\S])';
const END_OF_INPUT = '(?![\\s\\S])';
// Without the m flag, JS `$` is the end of input; these forms are used only in that mode.
const END_OR_BEFORE_FINAL_NEWLINE = '(?=\\n?$)';
// Perl's multi-line anchors, written out because JS's m flag differs: JS `^` also matches after a final
// newline and both JS anchors treat \r, \u2028 and \u2029 as line ends. Perl's /m `^` is the start of
// input or just after a \n that is not the last character; its `$` is just before any \n or the end.
const MULTILINE_START = '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))';
const MULTILINE_END = '(?=\\n|(?![\\s\\S]))';

export interface Perl5Options {
  /** Force "single line" mode: `.` matches \n (the SimpleParser compiles this way). */
  dotAll?: boolean;
  /** Anchor at both ends (Java's `matches()`, used by `=~` in expressions). */
  fullMatch?: boolean;
  /** Add the `g` flag (for global replacement). */
  global?: boolean;
  /** Perl's /m for the whole pattern (a substitution's m flag), as a leading (?m) does. */
  multiline?: boolean;
}

interface Modifiers {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
}

function takeLeadingModifiers(source: string, mods: Modifiers): number {
  let pos = 0;
  for (;;) {
    const m = /^\(\?([imsx]+)\)/.exec(source.slice(pos));
    if (m === null) return pos;
    for (const f of m[1]) mods[f as keyof Modifiers] = true;
    pos += m[0].length;
  }
}

/** Translates Perl5 syntax to a JS RegExp source and flags; throws RegexSyntaxError. */
export function translatePerl5(source: string, options: Perl5Options = {}, where: ConfigWhere = {}): { source: string; flags: string } {
  const fail = (reason: string): never => {
    throw new RegexSyntaxError(where, source, reason);
  };
  const mods: Modifiers = { i: false, m: options.multiline === true, s: options.dotAll === true, x: false };
  let i = takeLeadingModifiers(source, mods);
  let out = '';
  let inClass = false;
  let classBodyStart = -1;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) fail('trailing backslash');
      i += 2;
      if (!inClass && next === 'A') out += mods.m ? START_OF_INPUT : '^';
      else if (!inClass && next === 'z') out += mods.m ? END_OF_INPUT : '$';
      else if (!inClass && next === 'Z') out += mods.m ? '(?=\\n?(?![\\s\\S]))' : END_OR_BEFORE_FINAL_NEWLINE;
      else out += c + next;
      continue;
    }
    if (inClass) {
      if (c === '[' && source[i + 1] === ':') {
        const end = source.indexOf(':]', i + 2);
        if (end < 0) fail('unterminated POSIX class');
        const name = source.slice(i + 2, end);
        const mapped = POSIX_CLASSES[name];
        if (mapped === undefined) fail(`unknown POSIX class [:${name}:]`);
        out += mapped;
        i = end + 2;
        continue;
      }
      if (c === ']') {
        // Perl: a ']' right after '[' or '[^' is a literal member; in JS '[]' is an empty class.
        if (i === classBodyStart) out += '\\]';
        else {
          out += ']';
          inClass = false;
        }
        i++;
        continue;
      }
      out += c;
      i++;
      continue;
    }
    if (mods.x && (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f')) {
      i++;
      continue;
    }
    if (mods.x && c === '#') {
      const nl = source.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
      continue;
    }
    switch (c) {
      case '[':
        inClass = true;
        out += '[';
        i++;
        if (source[i] === '^') {
          out += '^';
          i++;
        }
        classBodyStart = i;
        continue;
      case '$':
        out += mods.m ? MULTILINE_END : END_OR_BEFORE_FINAL_NEWLINE;
        i++;
        continue;
      case '^':
        out += mods.m ? MULTILINE_START : '^';
        i++;
        continue;
      case '.':
        out += mods.s ? '.' : '[^\\n]';
        i++;
        continue;
      case '(':
        if (source[i + 1] === '?') {
          const kind = source[i + 2];
          if (kind === '<') fail(source[i + 3] === '=' || source[i + 3] === '!' ? 'lookbehind is not supported' : 'named groups are not supported');
          if (kind === '#') {
            const close = source.indexOf(')', i);
            if (close < 0) fail('unterminated comment group');
            i = close + 1;
            continue;
          }
          if (kind !== ':' && kind !== '=' && kind !== '!') fail(`unsupported group (?${kind ?? ''}; inline modifiers are only supported at the start`);
        }
        out += c;
        i++;
        continue;
      default:
        out += c;
        i++;
    }
  }
  if (inClass) fail('unterminated character class');
  if (options.fullMatch === true) out = `${mods.m ? START_OF_INPUT : '^'}(?:${out})${mods.m ? END_OF_INPUT : '$'}`;
  // No JS m flag: the multi-line anchors are written out above.
  const flags = (options.global === true ? 'g' : '') + (mods.i ? 'i' : '') + (mods.s ? 's' : '');
  return { source: out, flags };
}

/** Compiles a Perl5 pattern into a JS RegExp with the original's semantics (see the module comment). */
export function compilePerl5(source: string, options: Perl5Options = {}, where: ConfigWhere = {}): RegExp {
  const t = translatePerl5(source, options, where);
  try {
    return new RegExp(t.source, t.flags);
  } catch (e) {
    throw new RegexSyntaxError(where, source, (e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}

/** Number of capturing groups of a compiled expression. */
export function groupCount(re: RegExp): number {
  return (new RegExp(re.source + '|', re.flags.replace('g', '')).exec('') as RegExpExecArray).length - 1;
}

/**
 * A compiled replacement: takes the match (index 0) and its groups (1..n) as an array-like, which is
 * both a RegExpExecArray and the `arguments` of a String.replace callback.
 */
export type Replacer = ((m: ArrayLike<string | undefined>) => string) & { readonly literal?: string };

type CaseOp = 'U' | 'L' | 'E' | 'u' | 'l';
type ReplacementPart = { lit: string } | { group: number } | { op: CaseOp };

/** A replacement that is always the same text; marked so global replacement can use the native path. */
export function literalReplacer(text: string): Replacer {
  return Object.assign(() => text, { literal: text });
}

/**
 * True when the expression can never match the empty string anywhere: it does not match "" and has
 * no construct that could match empty depending on context (lookaround, word boundaries, anchors).
 * Then ORO's empty-match rule cannot apply and native global replacement is exact.
 */
export function neverMatchesEmpty(re: RegExp): boolean {
  if (startsWithRequiredLiteral(re.source)) return true;
  if (/\(\?[=!<]|\\[bB]|\^|\$/.test(re.source)) return false;
  return !new RegExp(re.source, re.flags.replace('g', '')).test('');
}

/**
 * A pattern without alternation whose first element is a plain character that must occur (no `?`, `*`
 * or `{0` after it) cannot match the empty string, whatever assertions follow (e.g. `-[^\n]*(?=\n?$)`,
 * the translation of Perl's `-.*$`).
 */
function startsWithRequiredLiteral(source: string): boolean {
  const c = source[0];
  if (c === undefined || '\\^$.|?*+()[]{}'.includes(c) || source.includes('|')) return false;
  const next = source[1];
  return next !== '?' && next !== '*' && !(next === '{' && /^\{0/.test(source.slice(1)));
}

/** Parses ORO Perl5 replacement text (§7.2). `groups` is the pattern's group count. */
export function compilePerl5Replacement(text: string, groups: number): Replacer {
  const parts: ReplacementPart[] = [];
  let lit = '';
  const flush = () => {
    if (lit !== '') parts.push({ lit });
    lit = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i];
      if (next === 'U' || next === 'L' || next === 'E' || next === 'u' || next === 'l') {
        flush();
        parts.push({ op: next });
      } else lit += next; // \n is "n", \$ is "$", \\ is "\": no control escapes in ORO replacements
    } else if (c === '$') {
      let j = i + 1;
      while (j < text.length && text[j] >= '0' && text[j] <= '9') j++;
      if (j > i + 1) {
        flush();
        parts.push({ group: Number(text.slice(i + 1, j)) });
        i = j - 1;
      }
      // a '$' not followed by digits is dropped: "${1}" gives "{1}", a final '$' gives ""
    } else lit += c;
  }
  flush();
  const hasCase = parts.some((p) => 'op' in p);
  const value = (m: ArrayLike<string | undefined>, g: number): string => (g <= groups ? (m[g] ?? '') : '');
  if (!hasCase) {
    if (parts.length === 0) return literalReplacer('');
    if (parts.length === 1) {
      const p = parts[0];
      if ('lit' in p) return literalReplacer(p.lit);
      const g = (p as { group: number }).group;
      return (m) => value(m, g);
    }
    return (m) => {
      let s = '';
      for (let k = 0; k < parts.length; k++) {
        const p = parts[k];
        s += 'lit' in p ? p.lit : value(m, (p as { group: number }).group);
      }
      return s;
    };
  }
  return (m) => {
    let s = '';
    let mode: 'U' | 'L' | undefined;
    let once: 'u' | 'l' | undefined;
    for (const p of parts) {
      if ('op' in p) {
        if (p.op === 'E') mode = undefined;
        else if (p.op === 'U' || p.op === 'L') mode = p.op;
        else once = p.op;
        continue;
      }
      let piece = 'lit' in p ? p.lit : value(m, p.group);
      if (mode === 'U') piece = piece.toUpperCase();
      else if (mode === 'L') piece = piece.toLowerCase();
      if (once !== undefined && piece !== '') {
        piece = (once === 'u' ? piece[0].toUpperCase() : piece[0].toLowerCase()) + piece.slice(1);
        once = undefined;
      }
      s += piece;
    }
    return s;
  };
}

/**
 * Compiles "replace the first match (`global` false) or every match of `re`", ORO style: in global
 * mode an empty match that starts where the previous non-empty match ended is not replaced
 * (`s/b*\/-/g` on "abc" gives "-a-c-", where JS alone gives "-a--c-"). `re` must carry the `g` flag
 * exactly when `global` is true. A literal replacement with a pattern that can never match empty
 * takes JavaScript's native path, which is then exact.
 */
export function compileReplace(re: RegExp, replacer: Replacer, groups: number, global: boolean): (input: string) => string {
  if (!global) {
    // A literal replacement of the first match is exactly the native replace (no match array to build).
    if (replacer.literal !== undefined) {
      const nativeFirst = replacer.literal.replace(/\$/g, '$$$$');
      return (input) => input.replace(re, nativeFirst);
    }
    return (input) => {
      const m = re.exec(input);
      return m === null ? input : input.slice(0, m.index) + replacer(m) + input.slice(m.index + m[0].length);
    };
  }
  if (replacer.literal !== undefined && neverMatchesEmpty(re)) {
    const nativeText = replacer.literal.replace(/\$/g, '$$$$');
    return (input) => input.replace(re, nativeText);
  }
  const offsetIndex = groups + 1;
  return (input) => {
    let lastNonEmptyEnd = -1;
    return input.replace(re, function (match: string) {
      // eslint-disable-next-line prefer-rest-params
      const args = arguments as unknown as ArrayLike<string | undefined>;
      const offset = args[offsetIndex] as unknown as number;
      if (match.length === 0) {
        if (offset === lastNonEmptyEnd) return '';
      } else lastNonEmptyEnd = offset + match.length;
      return replacer(args);
    });
  };
}

/** One-off form of compileReplace. */
export function perl5Replace(input: string, re: RegExp, replacer: Replacer, groups: number, global: boolean): string {
  return compileReplace(re, replacer, groups, global)(input);
}

/**
 * Java `Matcher.replaceAll/replaceFirst` replacement syntax ($n with as many digits as form an
 * existing group, \x literal), used by the `sub`/`gsub` expression forms. A reference to a missing
 * group or a malformed `$` throws, as Java does.
 */
export function compileJavaReplacement(text: string, groups: number): Replacer {
  const parts: Array<string | number> = [];
  let lit = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      if (i + 1 >= text.length) throw new Error('character to be escaped is missing');
      lit += text[++i];
    } else if (c === '$') {
      if (!(text[i + 1] >= '0' && text[i + 1] <= '9')) throw new Error(`illegal group reference in ${JSON.stringify(text)}`);
      let g = Number(text[++i]);
      if (g > groups) throw new Error(`no group ${g}`);
      while (i + 1 < text.length && text[i + 1] >= '0' && text[i + 1] <= '9' && g * 10 + Number(text[i + 1]) <= groups) g = g * 10 + Number(text[++i]);
      if (lit !== '') parts.push(lit);
      lit = '';
      parts.push(g);
    } else lit += c;
  }
  if (lit !== '') parts.push(lit);
  return (m) => parts.map((p) => (typeof p === 'string' ? p : (m[p] ?? ''))).join('');
}
