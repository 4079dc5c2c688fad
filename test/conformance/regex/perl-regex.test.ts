/**
 * The Perl5 regex dialect (src/rules/regex-dialect.ts) against perl itself, over the patterns and subjects of
 * perl's own t/re/re_tests (re-tests-corpus.json, see README.md). perl answers every case in one process
 * (perl-oracle.pl); xroute answers through the same entry points the rules use: compilePerl5 for a match,
 * compileSubstitution for `s/pattern/<$1>/g`. Each case ends as one of:
 *   - agree: the same match (index, text, groups) or the same substituted text, or both refuse the pattern;
 *   - refused: xroute refuses the pattern at start-up with a reason naming the construct, listed in
 *     docs/evaluator/rules.md (REFUSALS below);
 *   - a documented difference (DIFFERENCES below, each listed in docs/differences.md);
 *   - silent: anything else. The suite fails on a single silent case.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { compilePerl5, groupCount, neverMatchesEmpty } from '../../../src/rules/regex-dialect';
import { compileSubstitution } from '../../../src/rules/substitution';
import { RegexSyntaxError } from '../../../src/rules/errors';

interface Case {
  line: number;
  pattern: string;
  subject: string;
}
interface Match {
  index: number;
  text: string;
  groups: (string | null)[];
}
type PerlAnswer = { error: string } | { match: Match | null; groups: number; substituted: string };

const root = path.join(__dirname, '../../..');
const corpus = (JSON.parse(readFileSync(path.join(__dirname, 're-tests-corpus.json'), 'utf8')) as { cases: Case[] }).cases;
const flat = (file: string) => readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
const rulesDoc = flat('docs/evaluator/rules.md');
const differencesDoc = flat('docs/differences.md');

/** Every refusal reason the dialect gives, and the words docs/evaluator/rules.md lists it under. */
const REFUSALS: ReadonlyArray<{ reason: RegExp; doc: string }> = [
  { reason: /^lookbehind \(\?<[=!]\.\.\.\) is not supported$/, doc: 'lookbehind `(?<=...)`, `(?<!...)`' },
  { reason: /^named groups/, doc: 'named groups `(?<name>...)`, `(?P<name>...)`' },
  { reason: /^inline modifiers .* are only supported at the start/, doc: 'inline modifiers after the start' },
  { reason: /^\(\?xx\)/, doc: '`(?xx)`' },
  { reason: /^the atomic group/, doc: 'atomic groups `(?>...)`' },
  { reason: /^the branch reset group/, doc: 'branch reset `(?\\|...)`' }, // the docs' table escapes the |
  { reason: /^the conditional/, doc: 'conditionals `(?(1)...)`' },
  { reason: /^recursion/, doc: 'recursion `(?R)`, `(?1)`, `(?&name)`' },
  { reason: /^code /, doc: 'code `(?{...})`' },
  { reason: /\(a backtracking control verb or alphabetic assertion\)/, doc: 'verbs `(*FAIL)`, `(*ACCEPT)`, `(*pla:...)`' },
  { reason: /^the possessive quantifier/, doc: 'possessive quantifiers `a++`, `a*+`, `a?+`, `a{n}+`' },
  { reason: /^the negated POSIX class/, doc: 'negated POSIX classes `[[:^digit:]]`' },
  { reason: /\(a Unicode property\)/, doc: 'Unicode properties `\\p{..}`, `\\P{..}`' },
  { reason: /\(a Unicode boundary type\)/, doc: '`\\b{wb}` and the other boundary types' },
  { reason: /\(a named character\)|^\\N must be followed|^\\N\{ is not closed/, doc: 'named characters `\\N{NAME}`' },
  { reason: /\(an extended grapheme cluster\)/, doc: '`\\X`' },
  { reason: /\(keep the text matched so far/, doc: '`\\K`' },
  { reason: /\(the end of the previous match\)/, doc: '`\\G`' },
  { reason: /\(a named backreference\)/, doc: 'named backreferences `\\k<name>`, `\\g{name}`' },
  {
    reason: /refers to (group \d+|a group), which the pattern does not have|refers to a group that the pattern does not have/,
    doc: 'a backreference to a group the pattern does not have',
  },
  { reason: /^a quantifier \{n,m\} with n greater than m$/, doc: '`{n,m}` with n greater than m' },
  { reason: /^a quantifier \(\* \+ \? \{n\}\) follows nothing/, doc: 'a quantifier after nothing, an anchor or another quantifier' },
  { reason: /^a range out of order/, doc: 'a class range out of order' },
  {
    reason: /^unmatched [()]$|^unterminated (character class|comment group)$|^trailing backslash$|^the group \(\?/,
    doc: 'unbalanced `(` `)` `[`, `(?#` without `)`, `(?` followed by anything else',
  },
  { reason: /^unknown POSIX class/, doc: 'unknown POSIX classes `[[:foo:]]`' },
  { reason: /^\\N inside a character class/, doc: '`\\N` inside a class' },
];

/** The deliberate differences from perl, each listed in docs/differences.md, and how a case shows it. */
interface Difference {
  readonly doc: string;
  /** Whether the difference explains this case (perl's and xroute's answers both given). */
  readonly explains: (c: Case, perl: unknown, xroute: unknown) => boolean;
}
const DIFFERENCES: Readonly<Record<string, Difference>> = {
  asciiRules: {
    doc: 'text beyond ASCII: `\\w`, `\\d`, `\\s`, `\\b`, POSIX classes and `(?i)` follow JavaScript',
    explains: (c) => [...c.subject].some((ch) => ch.charCodeAt(0) > 0x7f) && /\\[wWdDsSbB]|\[:|^\(\?[a-z]*i/.test(c.pattern),
  },
  literalBraces: {
    doc: '`a{,2}` and `a{ 1 , 2 }` are literal text',
    explains: (c) => /\{\s*,|\{\s+\d|\d\s+[,}]|,\s+\d/.test(c.pattern),
  },
  unsetBackreference: {
    doc: 'a backreference to a group that has not matched matches the empty string',
    explains: (c) => /\\[1-9]|\\g/.test(c.pattern),
  },
  repeatedGroupCaptures: {
    doc: 'a group inside a repetition or a negative lookahead that did not take part in the last try is unset',
    explains: (_c, perl, xroute) => {
      const p = perl as Match | null;
      const x = xroute as Match | null;
      return p !== null && x !== null && p.index === x.index && p.text === x.text && x.groups.every((g, k) => g === null || g === p.groups[k]);
    },
  },
};
// In s///g, ORO's rules for empty matches (an empty match right after a non-empty one is skipped; after an
// empty match the search goes on one character further) where perl retries a non-empty match at the same place.
const EMPTY_MATCHES: Difference = {
  doc: 'a global replacement skips an empty match right after a non-empty one, and after an empty match searches on from the next character',
  explains: (c, perl) => nativeReplace(c) === perl || !neverMatchesEmpty(compilePerl5(c.pattern)),
};
const { repeatedGroupCaptures: _capturesNeedAMatch, ...substDifferences } = DIFFERENCES;
const SUBST_DIFFERENCES: Readonly<Record<string, Difference>> = { emptyMatches: EMPTY_MATCHES, ...substDifferences };

type Outcome = 'agree' | 'refused' | 'silent' | { difference: string };

function xrouteMatch(c: Case): Match | null {
  const m = compilePerl5(c.pattern).exec(c.subject);
  return m === null ? null : { index: m.index, text: m[0], groups: m.slice(1).map((g) => g ?? null) };
}

function replacementFor(c: Case): string {
  return groupCount(compilePerl5(c.pattern)) > 0 ? '<$1>' : '<>';
}

function xrouteSubstitute(c: Case): string | undefined {
  const d = ['|', '#', '!', ',', '~', '%', ';', '@', '"', "'"].find((x) => !c.pattern.includes(x)) as string;
  return compileSubstitution(`s${d}${c.pattern}${d}${replacementFor(c)}${d}g`).apply(c.subject);
}

/** JavaScript's own global replace with the dialect's expression: what xroute gives without ORO's empty-match rule. */
function nativeReplace(c: Case): string {
  const re = compilePerl5(c.pattern, { global: true });
  const groups = groupCount(re);
  return c.subject.replace(re, (...m: unknown[]) => (groups > 0 ? `<${(m[1] as string | undefined) ?? ''}>` : '<>'));
}

function refusal(c: Case): RegexSyntaxError | undefined {
  try {
    compilePerl5(c.pattern);
    return undefined;
  } catch (e) {
    if (e instanceof RegexSyntaxError) return e;
    throw e;
  }
}

function explained(c: Case, perl: unknown, xroute: unknown, candidates: Readonly<Record<string, Difference>>): Outcome {
  const hit = Object.entries(candidates).find(([, d]) => d.explains(c, perl, xroute));
  return hit === undefined ? 'silent' : { difference: hit[0] };
}

function perlAnswers(cases: Case[]): PerlAnswer[] {
  const run = spawnSync('perl', [path.join(__dirname, 'perl-oracle.pl')], { input: JSON.stringify(cases), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`perl-oracle.pl failed (${run.status}): ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString('utf8')) as PerlAnswer[];
}

const answers = perlAnswers(corpus);
const results = corpus.map((c, k) => {
  const perl = answers[k];
  const refused = refusal(c);
  if ('error' in perl) {
    const outcome: Outcome = refused !== undefined ? 'agree' : 'silent';
    return { c, perl, refused, match: outcome, subst: outcome };
  }
  if (refused !== undefined) return { c, perl, refused, match: 'refused' as Outcome, subst: 'refused' as Outcome };
  const x = xrouteMatch(c);
  const match: Outcome = isDeepStrictEqual(x, perl.match) ? 'agree' : explained(c, perl.match, x, DIFFERENCES);
  const s = xrouteSubstitute(c);
  let subst: Outcome = s === perl.substituted ? 'agree' : explained(c, perl.substituted, s, SUBST_DIFFERENCES);
  if (subst === 'silent' && match !== 'agree') subst = match; // the match's difference shows in the replacement too
  return { c, perl, refused, match, subst, xroute: { match: x, substituted: s } };
});

function figures(kind: 'match' | 'subst') {
  const f = { cases: results.length, agree: 0, refused: 0, differences: 0, silent: 0, byDifference: {} as Record<string, number> };
  for (const r of results) {
    const o = r[kind];
    if (o === 'agree') f.agree++;
    else if (o === 'refused') f.refused++;
    else if (o === 'silent') f.silent++;
    else {
      f.differences++;
      f.byDifference[o.difference] = (f.byDifference[o.difference] ?? 0) + 1;
    }
  }
  return f;
}

describe('regex conformance: perl t/re/re_tests through the Perl5 dialect', () => {
  afterAll(() => {
    const m = figures('match');
    const s = figures('subst');
    const line = (name: string, f: ReturnType<typeof figures>) =>
      `${name}: cases ${f.cases}, agree ${f.agree}, refused ${f.refused}, documented differences ${f.differences} ${JSON.stringify(f.byDifference)}, silent ${f.silent}`;
    console.log(`regex conformance (perl ${spawnSync('perl', ['-e', 'print $^V']).stdout.toString()})\n${line('match', m)}\n${line('s///g', s)}`);
  });

  it('holds the corpus derived from re_tests', () => {
    expect(corpus.length).toBeGreaterThan(1500);
  });

  it('no match differs silently from perl', () => {
    const silent = results
      .filter((r) => r.match === 'silent')
      .map((r) => ({ line: r.c.line, pattern: r.c.pattern, subject: r.c.subject, perl: r.perl, xroute: r.xroute?.match ?? r.refused?.reason ?? 'accepted' }));
    expect(silent).toEqual([]);
  });

  it('no s///g differs silently from perl', () => {
    const silent = results
      .filter((r) => r.subst === 'silent')
      .map((r) => ({
        line: r.c.line,
        pattern: r.c.pattern,
        subject: r.c.subject,
        perl: r.perl,
        xroute: r.xroute?.substituted ?? r.refused?.reason ?? 'accepted',
      }));
    expect(silent).toEqual([]);
  });

  it('every refusal names its construct, and the construct is listed in docs/evaluator/rules.md', () => {
    const unnamed = results.filter((r) => r.refused !== undefined && !REFUSALS.some((k) => k.reason.test((r.refused as RegexSyntaxError).reason)));
    expect(unnamed.map((r) => [r.c.pattern, r.refused?.reason])).toEqual([]);
    const used = REFUSALS.filter((k) => results.some((r) => r.refused !== undefined && k.reason.test(r.refused.reason)));
    expect(used.map((k) => k.doc).filter((doc) => !rulesDoc.includes(doc))).toEqual([]);
  });

  it('every difference in use is listed in docs/differences.md', () => {
    const listed = [...Object.values(DIFFERENCES), EMPTY_MATCHES].map((d) => d.doc);
    expect(listed.filter((doc) => !differencesDoc.includes(doc))).toEqual([]);
  });
});
