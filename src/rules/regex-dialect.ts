/**
 * The original's regular-expression dialect (Jakarta ORO "Perl5", default options) on top of
 * JavaScript RegExp (docs/evaluator/rules.md). Patterns are translated once, at start-up:
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
 *
 * Linear time. Patterns are applied to message data that comes from outside, so no message may make one
 * backtrack for seconds ((a+)+$ against 40 'a' and a 'b' took over a minute). V8's non-backtracking
 * engine takes over any expression that backtracks excessively; it runs every construct except
 * lookaround and backreferences (and, in this V8, case-insensitive matching). So the translation avoids
 * them where Perl needs none: (?i) becomes explicit letter classes, and Perl's `$` ("end, or just before a
 * final newline") becomes JS's end of input, the final-newline case being a second search of the input
 * without its final \n (see Perl5RegExp). A pattern that still needs the backtracking engine (a
 * lookahead, a backreference, a counted repetition beyond what the linear engine unrolls) runs each
 * search under a time budget instead: past it, the search ends with a RegexBudgetError and only that
 * message fails.
 */
import { XrouteError } from '../foundation/xroute-error';
import * as v8 from 'v8';
import * as vm from 'vm';
import { ConfigWhere, RegexSyntaxError } from './errors';
import { scanGroups, translateEscape } from './perl5-escapes';

// The first flag lets irregexp hand an expression over to the linear engine after too many backtracks;
// the second allows the `l` flag, used only to ask V8 whether an expression can run in linear time.
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
v8.setFlagsFromString('--enable-experimental-regexp-engine');

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

// Perl's multi-line anchors, written out because JS's m flag differs: JS `^` also matches after a final
// newline and both JS anchors treat \r, \u2028 and \u2029 as line ends. Perl's /m `^` is the start of
// input or just after a \n that is not the last character; its `$` is just before any \n or the end.
// They need lookaround, so a /m pattern that uses them runs on the backtracking engine under the time budget.
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

function takeLeadingModifiers(source: string, mods: Modifiers, fail: (reason: string) => never): number {
  let pos = 0;
  for (;;) {
    const m = /^\(\?([imsx]+)\)/.exec(source.slice(pos));
    if (m === null) return pos;
    if (/x.*x/.test(m[1])) fail(`${m[0]} (blanks ignored inside classes too) is not supported; (?x) is`);
    for (const f of m[1]) mods[f as keyof Modifiers] = true;
    pos += m[0].length;
  }
}

interface Translation {
  source: string;
  flags: string;
  /** The source's `$` (JS end of input) stands for Perl's "end, or just before a final newline". */
  perlEnd: boolean;
}

/** Translates Perl5 syntax to a JS RegExp source and flags; throws RegexSyntaxError. */
function translatePerl5(source: string, options: Perl5Options = {}, where: ConfigWhere = {}): Translation {
  const fail = (reason: string): never => {
    throw new RegexSyntaxError(where, source, reason);
  };
  const mods: Modifiers = { i: false, m: options.multiline === true, s: options.dotAll === true, x: false };
  let i = takeLeadingModifiers(source, mods, fail);
  let out = '';
  let inClass = false;
  let classBodyStart = -1;
  let classOut = -1;
  let perlEnd = false;
  // A quantifier was just written: a `+` now would make it possessive, a `?` lazy.
  let afterQuantifier = false;
  let lastQuantifier = '';
  const groups = scanGroups(source, mods.x);
  // Case-insensitivity by explicit classes keeps the pattern runnable by the linear engine; the i flag
  // stays only where the letters cannot be listed (non-ASCII text, numeric escapes).
  let caseless = mods.i && canSpellOutCase(source);
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) fail('trailing backslash');
      afterQuantifier = false;
      // Without a JS m flag (never set: see MULTILINE_START), JS ^ and $ are the start and end of input.
      if (!inClass && (next === 'A' || next === 'z' || next === 'Z')) {
        out += next === 'A' ? '^' : '$';
        if (next === 'Z') perlEnd = true;
        i += 2;
        continue;
      }
      const esc = translateEscape(source, i, inClass, groups, fail);
      i = esc.end;
      if (inClass && esc.code === undefined && esc.text.length > 2) {
        // a class such as \h written out as members: a - before or after it is literal, as in Perl
        out = literalTrailingDash(out) + esc.text;
        if (source[i] === '-' && source[i + 1] !== ']') {
          out += '\\-';
          i++;
        }
      } else if (inClass || !caseless) out += esc.text;
      else if (esc.code !== undefined) out += isCaseLetter(String.fromCharCode(esc.code)) ? bothCases(String.fromCharCode(esc.code)) : esc.text;
      else out += esc.text.length === 2 && isCaseLetter(next) && !'bBdDsSwWnrtf'.includes(next) ? bothCases(next) : esc.text;
      continue;
    }
    if (inClass) {
      const posix = c === '[' ? /^\[:(\^?[A-Za-z]+):\]/.exec(source.slice(i)) : null;
      if (posix !== null) {
        const end = i + posix[0].length - 2;
        const name = posix[1];
        const mapped = POSIX_CLASSES[name];
        if (mapped === undefined) fail(name.startsWith('^') ? `the negated POSIX class [:${name}:] is not supported` : `unknown POSIX class [:${name}:]`);
        out = literalTrailingDash(out) + mapped; // Perl: `[a-[:digit:]]` has a literal -
        i = end + 2;
        if (source[i] === '-' && source[i + 1] !== ']') {
          out += '\\-';
          i++;
        }
        continue;
      }
      if (c === ']') {
        // Perl: a ']' right after '[' or '[^' is a literal member; in JS '[]' is an empty class.
        if (i === classBodyStart) out += '\\]';
        else {
          if (caseless) {
            const other = otherCaseMembers(out.slice(classOut));
            if (other === undefined) caseless = false;
            else if (other !== '') out = literalTrailingDash(out) + other; // `[a-]` + `A` must not become the range `-A`
          }
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
    const quantified: boolean = afterQuantifier;
    afterQuantifier = false;
    switch (c) {
      case '*':
      case '+':
      case '?':
        if (quantified && c === '+') fail(`the possessive quantifier ${lastQuantifier}+ is not supported`);
        out += c;
        lastQuantifier = c;
        afterQuantifier = !(quantified && c === '?'); // `a*?` is lazy; a quantifier after it is an error either way
        i++;
        continue;
      case '{': {
        const q = /^\{\d+(?:,\d*)?\}/.exec(source.slice(i));
        if (q === null) break; // `{` that does not start a quantifier is literal, as `a{,2}` in ORO
        out += q[0];
        lastQuantifier = q[0];
        afterQuantifier = true;
        i += q[0].length;
        continue;
      }
      case '[':
        inClass = true;
        out += '[';
        i++;
        if (source[i] === '^') {
          out += '^';
          i++;
        }
        classBodyStart = i;
        classOut = out.length;
        continue;
      case '$':
        if (mods.m) out += MULTILINE_END;
        else {
          out += '$';
          perlEnd = true;
        }
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
        if (source[i + 1] === '*') {
          const verb = /^\(\*([A-Za-z_]*)(:?)/.exec(source.slice(i)) as RegExpExecArray;
          fail(`(*${verb[1]}${verb[2] === '' ? '' : ':...'}) (a backtracking control verb or alphabetic assertion) is not supported`);
        }
        if (source[i + 1] === '?') {
          const kind = source[i + 2];
          if (kind === '#') {
            const close = source.indexOf(')', i);
            if (close < 0) fail('unterminated comment group');
            i = close + 1;
            continue;
          }
          if (kind !== ':' && kind !== '=' && kind !== '!') fail(unsupportedGroup(source.slice(i)));
        }
        out += c;
        i++;
        continue;
      default:
    }
    out += caseless && isCaseLetter(c) ? bothCases(c) : c;
    i++;
  }
  if (inClass) fail('unterminated character class');
  if (options.fullMatch === true) out = `^(?:${out})$`;
  // A class that could not be spelled out turned `caseless` off half-way: keep the i flag then.
  const iFlag = mods.i && !(caseless && canSpellOutCase(source));
  // No JS m flag: the multi-line anchors are written out above.
  const flags = (options.global === true ? 'g' : '') + (iFlag ? 'i' : '') + (mods.s ? 's' : '');
  return { source: out, flags, perlEnd };
}

/** Why a `(?` group other than (?: (?= (?! (?# is refused, naming the construct (docs/evaluator/rules.md). */
function unsupportedGroup(group: string): string {
  const k = group[2] ?? '';
  const shown = group.slice(0, 3);
  if (k === '<')
    return group[3] === '=' || group[3] === '!' ? `lookbehind ${group.slice(0, 4)}...) is not supported` : 'named groups (?<name>...) are not supported';
  if (k === '>') return 'the atomic group (?>...) is not supported';
  if (k === '|') return 'the branch reset group (?|...) is not supported';
  if (k === '(') return 'the conditional (?(...)...) is not supported';
  if (k === "'" || k === 'P') return `named groups and recursion ${shown}... are not supported`;
  if (k === 'R' || k === '&' || /^[-+]?\d/.test(group.slice(2))) return `recursion ${shown}...) is not supported`;
  if (k === '{' || k === '?') return `code ${shown}...}) is not supported`;
  if (/^[\^a-zA-Z-]/.test(k))
    return `inline modifiers ${/^\(\?[^:)]*[:)]?/.exec(group)?.[0]} are only supported at the start of the pattern, and only (?i) (?m) (?s) (?x)`;
  return `the group ${shown} is not supported`;
}

/** The class body written so far with a final literal `-` escaped, so that members appended after it stay members. */
function literalTrailingDash(out: string): string {
  if (!out.endsWith('-')) return out;
  let slashes = 0;
  while (out[out.length - 2 - slashes] === '\\') slashes++;
  return slashes % 2 === 0 ? out.slice(0, -1) + '\\-' : out;
}

const isCaseLetter = (c: string): boolean => c.toLowerCase() !== c.toUpperCase();
const bothCases = (c: string): string => `[${c.toLowerCase()}${c.toUpperCase()}]`;

/** ASCII letters fold exactly to their two cases; other text, and escapes naming characters by number, do not. */
function canSpellOutCase(source: string): boolean {
  return !/[\u0080-\uffff]|\\[xuc0-9g]/.test(source); // \g1 is a backreference, compared under the i flag
}

/**
 * The other-case letters a translated class body lacks (e.g. `a-fX` gives `A-Fx`), or undefined when
 * the body holds something other than plain characters, ranges and class escapes.
 */
function otherCaseMembers(body: string): string | undefined {
  const members: number[][] = [];
  let i = 0;
  const readOne = (): number | undefined => {
    const c = body[i++];
    if (c !== '\\') return c.charCodeAt(0);
    const e = body[i++];
    if ('dDwWsS'.includes(e)) return -1; // a class escape holds both cases already
    if ('nrtfvb0'.includes(e)) return 0; // a control character, no letter
    const width = e === 'x' ? 2 : e === 'u' ? 4 : 0; // written by POSIX classes and translated escapes
    if (width > 0) {
      i += width;
      return parseInt(body.slice(i - width, i), 16);
    }
    return e === 'c' ? undefined : e.charCodeAt(0);
  };
  while (i < body.length) {
    const lo = readOne();
    if (lo === undefined) return undefined;
    if (body[i] === '-' && i + 1 < body.length && lo >= 0) {
      i++;
      const hi = readOne();
      if (hi === undefined || hi < 0) return undefined;
      members.push([lo, hi]);
    } else if (lo >= 0) members.push([lo, lo]);
  }
  let extra = '';
  for (const [lo, hi] of members) {
    for (let code = lo; code <= hi && code < 128; code++) {
      const c = String.fromCharCode(code);
      if (!isCaseLetter(c)) continue;
      extra += c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    }
  }
  return extra;
}

/**
 * A RegExp with what JavaScript's own lacks here: Perl's `$` and a time budget.
 *
 * `perlEnd`: the source's `$` is Perl's, the end of the input or just before a final newline. JS's `$`
 * (end of input) answers for every input that does not end with \n; one that does is searched twice,
 * whole and without its final \n, and the leftmost match wins (the longer one when both start at the
 * same place, as a greedy pattern would).
 *
 * `budgetMs`: the expression needs the backtracking engine, so each search runs under a watchdog that
 * ends it after budgetMs with a RegexBudgetError; the rule then fails for that message only.
 *
 * Every RegExp use (test, replace, match, matchAll) goes through exec.
 */
class Perl5RegExp extends RegExp {
  /** The same expression as a plain RegExp, which V8 runs on its fast paths (a subclass is searched through exec). */
  private readonly plain: RegExp;

  constructor(
    source: string,
    flags: string,
    private readonly perlEnd: boolean,
    private readonly budgetMs: number | undefined,
  ) {
    super(source, flags);
    this.plain = new RegExp(source, flags);
  }

  /** This expression, or its plain twin when JS's own semantics are Perl's for this input and no budget applies. */
  forInput(input: string): RegExp {
    return this.budgetMs === undefined && input.charCodeAt(input.length - 1) !== 10 ? this.plain : this;
  }

  override test(input: string): boolean {
    const text = String(input);
    if (this.global || this.sticky) return super.test(text);
    return this.forInput(text) === this ? this.exec(text) !== null : this.plain.test(text);
  }

  // split() and matchAll() build a copy through the species constructor: a plain RegExp.
  static override get [Symbol.species](): RegExpConstructor {
    return RegExp;
  }

  override exec(input: string): RegExpExecArray | null {
    const text = String(input);
    if (this.budgetMs === undefined) return this.perl5Exec(text);
    return withinBudget(this.budgetMs, this.source, () => this.perl5Exec(text));
  }

  private perl5Exec(text: string): RegExpExecArray | null {
    if (!this.perlEnd || text.charCodeAt(text.length - 1) !== 10) return super.exec(text);
    const tracksIndex = this.global || this.sticky;
    const start = this.lastIndex;
    const whole = super.exec(text);
    const afterWhole = this.lastIndex;
    if (tracksIndex && start > text.length - 1) return whole;
    if (tracksIndex) this.lastIndex = start;
    const cut = super.exec(text.slice(0, -1));
    const wholeFirst = cut === null || (whole !== null && (whole.index < cut.index || (whole.index === cut.index && whole[0].length >= cut[0].length)));
    if (wholeFirst) {
      if (tracksIndex) this.lastIndex = whole === null ? 0 : afterWhole;
      return whole;
    }
    cut.input = text;
    return cut;
  }
}

/** A search of a backtracking-only pattern ran out of its time budget; the message, not the flow, fails. */
class RegexBudgetError extends XrouteError {
  constructor(
    readonly pattern: string,
    readonly budgetMs: number,
    options?: ErrorOptions,
  ) {
    super(
      `regular expression /${pattern}/ was stopped after ${budgetMs} ms: it needs the backtracking engine and this input makes it backtrack without end`,
      options,
    );
    this.name = 'RegexBudgetError';
  }
}

// vm's timeout is the one way to interrupt a running regex in this thread: V8 terminates the script,
// including the search it called, and vm turns that into an error.
const budgetContext = vm.createContext({ search: undefined as (() => unknown) | undefined });
const runSearch = new vm.Script('search()');

function withinBudget<T>(budgetMs: number, pattern: string, search: () => T): T {
  let result: T | undefined;
  budgetContext.search = () => {
    result = search();
  };
  try {
    for (let attempt = 1; ; attempt++) {
      const cpuBefore = process.cpuUsage();
      try {
        runSearch.runInContext(budgetContext, { timeout: budgetMs });
        return result as T;
      } catch (e) {
        if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
        // The watchdog measures wall time. A search that spent most of it descheduled (a loaded machine) did
        // not backtrack without end: it gets one more try; a search that burnt its budget does not.
        const cpu = process.cpuUsage(cpuBefore);
        if (attempt === 1 && (cpu.user + cpu.system) / 1000 < budgetMs / 2) continue;
        throw new RegexBudgetError(pattern, budgetMs, { cause: e });
      }
    }
  } finally {
    budgetContext.search = undefined;
  }
}

/** Time budget of one search by a pattern that only the backtracking engine runs. */
export const BACKTRACKING_BUDGET_MS = 50;

function runsInLinearTime(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags + 'l');
    return true;
  } catch {
    return false;
  }
}

/** Compiles a Perl5 pattern into a JS RegExp with the original's semantics (see the module comment). */
export function compilePerl5(source: string, options: Perl5Options = {}, where: ConfigWhere = {}): RegExp {
  const t = translatePerl5(source, options, where);
  try {
    const budget = runsInLinearTime(t.source, t.flags) ? undefined : BACKTRACKING_BUDGET_MS;
    return t.perlEnd || budget !== undefined ? new Perl5RegExp(t.source, t.flags, t.perlEnd, budget) : new RegExp(t.source, t.flags);
  } catch (e) {
    throw new RegexSyntaxError(where, source, syntaxReason((e as Error).message), e);
  }
}

// JavaScript's wording for the syntax errors a Perl pattern can still reach once translated.
const JS_SYNTAX_REASONS: ReadonlyArray<[RegExp, string]> = [
  [/Nothing to repeat/, 'a quantifier (* + ? {n}) follows nothing, an anchor or another quantifier'],
  [/Unterminated group/, 'unmatched ('],
  [/Unmatched '\)'/, 'unmatched )'],
  [/Range out of order in character class/, 'a range out of order in a character class'],
  [/numbers out of order in \{\} quantifier/, 'a quantifier {n,m} with n greater than m'],
  [/Incomplete quantifier|Lone quantifier brackets/, 'an incomplete quantifier'],
];

function syntaxReason(jsMessage: string): string {
  const known = JS_SYNTAX_REASONS.find(([re]) => re.test(jsMessage));
  return known !== undefined ? known[1] : jsMessage.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
}

/** True when V8 can run the compiled expression without backtracking (no time budget is needed). */
export function isLinearTime(re: RegExp): boolean {
  return runsInLinearTime(re.source, re.flags);
}

/** The expression to search `input` with: a plain RegExp wherever that gives the same answer (faster). */
function searchFor(re: RegExp, input: string): RegExp {
  return re instanceof Perl5RegExp ? re.forInput(input) : re;
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

/** Parses ORO Perl5 replacement text (docs/evaluator/rules.md). `groups` is the pattern's group count. */
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
      return (input) => input.replace(searchFor(re, input), nativeFirst);
    }
    return (input) => {
      const m = searchFor(re, input).exec(input);
      return m === null ? input : input.slice(0, m.index) + replacer(m) + input.slice(m.index + m[0].length);
    };
  }
  if (replacer.literal !== undefined && neverMatchesEmpty(re)) {
    const nativeText = replacer.literal.replace(/\$/g, '$$$$');
    return (input) => input.replace(searchFor(re, input), nativeText);
  }
  const offsetIndex = groups + 1;
  return (input) => {
    let lastNonEmptyEnd = -1;
    return input.replace(searchFor(re, input), (...matched: unknown[]) => {
      const args = matched as ArrayLike<string | undefined>;
      const match = matched[0] as string;
      const offset = matched[offsetIndex] as number;
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
