/**
 * The Perl5 dialect against perl itself: every case in test/fixtures/perl5/perl5-cases.json was answered by
 * perl (regenerate with `node test/fixtures/perl5/generate-cases.js`). Matches compare whether, where and
 * what matched and the groups; substitutions compare the result of `s/pattern/replacement/flags`.
 * Cases marked `deviation` are where xroute keeps the original's verified behaviour: xroute gives the
 * original's result and perl still answers otherwise.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { compilePerl5 } from '../../../src/rules/regex-dialect';
import { compileSubstitution } from '../../../src/rules/substitution';

interface MatchAnswer {
  matched: boolean;
  index?: number;
  text?: string;
  groups?: (string | null)[];
}
type Case =
  | { kind: 'match'; pattern: string; input: string; perl: MatchAnswer; deviation?: string; original?: MatchAnswer }
  | { kind: 'subst'; pattern: string; replacement: string; flags: string; input: string; perl: { result: string }; deviation?: string; original?: string };

const table = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/perl5/perl5-cases.json'), 'utf8')) as { cases: Case[] };
const matches = table.cases.filter((c): c is Extract<Case, { kind: 'match' }> => c.kind === 'match');
const substs = table.cases.filter((c): c is Extract<Case, { kind: 'subst' }> => c.kind === 'subst');
const show = (s: string) => JSON.stringify(s);

function xrouteMatch(pattern: string, input: string): MatchAnswer {
  const m = compilePerl5(pattern).exec(input);
  if (m === null) return { matched: false };
  return { matched: true, index: m.index, text: m[0], groups: m.slice(1).map((g) => g ?? null) };
}

describe('Perl5 dialect: matches agree with perl', () => {
  it.each(matches.filter((c) => c.deviation === undefined).map((c) => [show(c.pattern), show(c.input), c] as const))('/%s/ on %s', (_p, _i, c) => {
    expect(xrouteMatch(c.pattern, c.input)).toEqual(c.perl);
  });
});

describe('Perl5 dialect: substitutions agree with perl', () => {
  const plain = substs.filter((c) => c.deviation === undefined);
  it.each(plain.map((c) => [`s/${c.pattern}/${c.replacement}/${c.flags}`, show(c.input), c] as const))('%s on %s', (_s, _i, c) => {
    expect(compileSubstitution(`s/${c.pattern}/${c.replacement}/${c.flags}`).apply(c.input)).toBe(c.perl.result);
  });
});

describe('Perl5 dialect: documented deviations keep the original', () => {
  it.each(matches.filter((c) => c.deviation !== undefined).map((c) => [show(c.pattern), show(c.input), c] as const))('/%s/ on %s', (_p, _i, c) => {
    expect(xrouteMatch(c.pattern, c.input)).toEqual(c.original);
    expect(c.perl).not.toEqual(c.original);
  });
  const deviations = substs.filter((c) => c.deviation !== undefined);
  it.each(deviations.map((c) => [`s/${c.pattern}/${c.replacement}/${c.flags}`, show(c.input), c] as const))('%s on %s', (_s, _i, c) => {
    expect(compileSubstitution(`s/${c.pattern}/${c.replacement}/${c.flags}`).apply(c.input)).toBe(c.original);
    expect(c.perl.result).not.toBe(c.original);
  });
});

it('the table holds at least 50 perl-checked cases', () => {
  expect(table.cases.length).toBeGreaterThanOrEqual(50);
});
