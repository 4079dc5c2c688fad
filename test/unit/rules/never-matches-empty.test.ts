import { neverMatchesEmpty, compilePerl5 } from '../../../src/rules/regex-dialect';
import { compileSubstitution } from '../../../src/rules/substitution';

describe('neverMatchesEmpty (chooses the native replace fast path)', () => {
  it('is true for a pattern that starts with a required literal, even with a trailing assertion', () => {
    expect(neverMatchesEmpty(compilePerl5('-.*$'))).toBe(true);
  });

  it('is false for an optional first literal', () => {
    expect(neverMatchesEmpty(compilePerl5('-?x*'))).toBe(false);
  });

  it('is false with alternation, where another branch may be empty', () => {
    expect(neverMatchesEmpty(compilePerl5('-a|'))).toBe(false);
  });

  it('is false for a lone anchor', () => {
    expect(neverMatchesEmpty(compilePerl5('$'))).toBe(false);
  });
});

describe('substitutions on the fast path keep Perl results', () => {
  it('cuts from the first dash to the end of the line', () => {
    expect(compileSubstitution('s/-.*$//').apply('us-east-1')).toBe('us');
  });

  it('keeps the final newline Perl $ leaves before it', () => {
    expect(compileSubstitution('s/-.*$//').apply('us-east-1\n')).toBe('us\n');
  });
});
