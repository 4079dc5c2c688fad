import { compilePerl5, compilePerl5Replacement, groupCount, perl5Replace } from '../../../src/rules/regex-dialect';
import { RegexSyntaxError, RuleConfigError } from '../../../src/rules/errors';

const finds = (pattern: string, text: string) => compilePerl5(pattern).test(text);

function substitute(pattern: string, replacement: string, text: string, global = true): string {
  const re = compilePerl5(pattern, { global });
  const groups = groupCount(re);
  return perl5Replace(text, re, compilePerl5Replacement(replacement, groups), groups, global);
}

describe('Perl5 (ORO) regex dialect on JavaScript', () => {
  it('searches anywhere in the text instead of matching the whole text', () => {
    expect(finds('rro', 'error')).toBe(true);
  });

  it('anchors ^ at the start of the input only, without (?m)', () => {
    expect(finds('^b', 'a\nb')).toBe(false);
    expect(finds('(?m)^b', 'a\nb')).toBe(true);
  });

  it('lets $ match just before a final newline, as Perl does', () => {
    expect(finds('^0$', '0\n')).toBe(true);
    expect(finds('^0$', '0\n\n')).toBe(false);
    expect(finds('^0$', '0\nx')).toBe(false);
  });

  it('keeps $ per line under (?m)', () => {
    expect(finds('(?m)^a$', 'a\nb')).toBe(true);
  });

  it('does not let . match a newline unless (?s) is given, but lets it match \\r', () => {
    expect(finds('a.b', 'a\nb')).toBe(false);
    expect(finds('(?s)a.b', 'a\nb')).toBe(true);
    expect(finds('a.b', 'a\rb')).toBe(true);
  });

  it('turns a leading (?i) into case-insensitive matching', () => {
    expect(finds('(?i)abc', 'xABCx')).toBe(true);
    expect(finds('abc', 'ABC')).toBe(false);
  });

  it('strips whitespace and comments under (?x)', () => {
    expect(finds('(?x) a b  c # letters', 'abc')).toBe(true);
  });

  it('maps POSIX classes to explicit ranges', () => {
    expect(finds('^[[:digit:]]+$', '0123')).toBe(true);
    expect(finds('^[[:alpha:][:space:]]+$', 'ab cd')).toBe(true);
    expect(finds('[[:upper:]]', 'abc')).toBe(false);
  });

  it('rejects an unknown POSIX class as a typed config error', () => {
    expect(() => compilePerl5('[[:nope:]]')).toThrow(RegexSyntaxError);
  });

  it('keeps a ] right after [ as a class member, as Perl does', () => {
    expect(finds('[]a]', ']')).toBe(true);
  });

  it('supports \\A, \\Z (final newline allowed) and \\z', () => {
    expect(finds('\\Aab\\Z', 'ab\n')).toBe(true);
    expect(finds('\\Aab\\z', 'ab\n')).toBe(false);
    expect(finds('(?m)\\Ab', 'a\nb')).toBe(false);
  });

  it('supports lookahead but rejects lookbehind', () => {
    expect(finds('a(?=b)', 'ab')).toBe(true);
    expect(() => compilePerl5('(?<=a)b')).toThrow('lookbehind (?<=...) is not supported');
  });

  it('rejects a possessive quantifier', () => {
    expect(() => compilePerl5('a++')).toThrow(RegexSyntaxError);
  });

  it('treats a{,2} as literal text', () => {
    expect(finds('^a{,2}$', 'a{,2}')).toBe(true);
  });

  it('supports \\xHH, \\d, \\w, \\b, {m,n} and lazy quantifiers', () => {
    expect(finds('\\x41\\d\\w\\b', 'A1z')).toBe(true);
    expect(finds('^a{2,3}$', 'aaa')).toBe(true);
    expect(substitute('<.+?>', '', '<a><b>x', false)).toBe('<b>x');
  });

  it('reports a bad regex as a RegexSyntaxError that is a RuleConfigError naming where it is', () => {
    let error: unknown;
    try {
      compilePerl5('(unclosed', {}, { component: 'eval', ruleset: 'r1', key: 'JMSPropertyGroup[0].a' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleConfigError);
    expect((error as RuleConfigError).ruleset).toBe('r1');
    expect((error as Error).message).toMatch(/ruleset "r1", key JMSPropertyGroup\[0\]\.a: bad regular expression "\(unclosed"/);
  });

  it('anchors a full match with fullMatch', () => {
    const re = compilePerl5('b', { fullMatch: true });
    expect(re.test('abc')).toBe(false);
    expect(re.test('b')).toBe(true);
  });
});

describe('ORO replacement text', () => {
  it('reads $10 as group 10 (greedy digits) and a missing group as empty', () => {
    expect(substitute('(a)', '[$10]', 'a')).toBe('[]');
    expect(substitute('(a)(b)', '$2$1', 'ab')).toBe('ba');
  });

  it('reads $0 as the whole match', () => {
    expect(substitute('b+', '<$0>', 'abbc')).toBe('a<bb>c');
  });

  it('does not support ${1}: it gives the literal {1}', () => {
    expect(substitute('(a)', '${1}', 'a')).toBe('{1}');
  });

  it('upper- and lower-cases with \\U, \\L, \\E, \\u and \\l', () => {
    expect(substitute('(\\w+) (\\w+)', '\\U$1\\E \\u$2', 'hello world')).toBe('HELLO World');
    expect(substitute('(\\w+)', '\\L$1', 'ABC')).toBe('abc');
    expect(substitute('(\\w+)', '\\l$1', 'ABC')).toBe('aBC');
  });

  it('gives the escaped character literally: \\n is n, \\$ is $, \\\\ is \\', () => {
    expect(substitute('x', '\\n\\t\\$\\\\', 'x')).toBe('nt$\\');
  });

  it('drops a final $', () => {
    expect(substitute('x', 'y$', 'x')).toBe('y');
  });

  it('skips an empty match right after a non-empty one in global mode (s/b*/-/g on abc)', () => {
    expect(substitute('b*', '-', 'abc')).toBe('-a-c-');
    expect(substitute('x*', '-', 'abc')).toBe('-a-b-c-');
    expect(substitute('(.*)', '[$1]', 'ab')).toBe('[ab]');
  });

  it('replaces only the first match without global', () => {
    expect(substitute('A', 'Z', 'AAA', false)).toBe('ZAA');
  });
});

describe('(?i) with a character class that ends in -', () => {
  it('keeps the trailing - a member: hostnames match', () => {
    expect(finds('(?i)^[a-z0-9.-]+$', 'MAIL-01.example.com')).toBe(true);
  });

  it('does not turn the trailing - into a range: a colon is not a member', () => {
    expect(finds('(?i)^[a-z0-9.-]+$', 'a:b')).toBe(false);
  });

  it('accepts [a-z0-9_-] under (?i) and matches identifiers in either case', () => {
    expect(finds('(?i)^[a-z0-9_-]+$', 'Ab_-9')).toBe(true);
    expect(finds('(?i)^[a-z0-9_-]+$', 'a^b')).toBe(false);
  });
});

describe('Perl escapes JavaScript does not know', () => {
  it.each([
    ['^a\\h+b$', 'a \tb', 'ahhb'],
    ['^a\\H$', 'ax', 'a '],
    ['^a\\v$', 'a\x0b', 'av'],
    ['^a\\V$', 'ax', 'a\n'],
    ['^a\\Rb$', 'a\r\nb', 'aRb'],
    ['^a\\N$', 'ax', 'a\n'],
    ['^a\\x{100}$', 'a\u0100', 'a' + 'x'.repeat(100)],
    ['^\\x4$', '\x04', 'x4'],
    ['^\\o{101}$', 'A', 'o{101}'],
    ['^\\N{U+41}$', 'A', 'N{U+41}'],
    ['^\\e\\a$', '\x1b\x07', 'ea'],
    ['^\\c[$', '\x1b', 'c['],
    ['^(a)\\g1$', 'aa', 'ag1'],
    ['^(a)\\g{-1}$', 'aa', 'a'],
    ['^[\\h]$', '\xa0', 'h'],
    ['^[\\v]$', '\n', 'v'],
  ])('/%s/ matches %j and not %j', (pattern, yes, no) => {
    expect(finds(pattern, yes)).toBe(true);
    expect(finds(pattern, no)).toBe(false);
  });

  it('reads \\N{3} as \\N with a quantifier, as Perl does', () => {
    expect(compilePerl5('\\N{3}').exec('ab\ncdef')?.[0]).toBe('cde');
  });

  it('keeps \\R one unit: it never gives back the \\n of \\r\\n', () => {
    expect(finds('^\\R\\n$', '\r\n')).toBe(false);
  });

  it('compares a \\g backreference without case under (?i), as \\1', () => {
    expect(finds('(?i)^(a)\\g1$', 'aA')).toBe(true);
    expect(finds('(?i)^(a)\\1$', 'aA')).toBe(true);
  });

  it('case-folds a letter named by its code under (?i)', () => {
    expect(finds('(?i)^\\o{101}$', 'a')).toBe(true);
  });

  it.each([
    ['\\1', '\\1 refers to group 1, which the pattern does not have'],
    ['(a)\\2', '\\2 refers to group 2, which the pattern does not have'],
    ['\\g1', '\\g1 refers to a group that the pattern does not have'],
    ['\\g{name}', '\\g{name} (a named backreference) is not supported'],
    ['\\k<n>', '\\k<n> (a named backreference) is not supported'],
    ['\\p{L}', '\\p{L} (a Unicode property) is not supported'],
    ['\\PL', '\\PL (a Unicode property) is not supported'],
    ['\\X', '\\X (an extended grapheme cluster) is not supported'],
    ['a\\K', '\\K (keep the text matched so far out of the match) is not supported'],
    ['\\N{LATIN SMALL LETTER A}', '\\N{LATIN SMALL LETTER A} (a named character) is not supported'],
    ['\\Ga', '\\G (the end of the previous match) is not supported'],
    ['\\b{wb}', '\\b{wb} (a Unicode boundary type) is not supported'],
    ['a++', 'the possessive quantifier ++ is not supported'],
    ['a{2,3}+', 'the possessive quantifier {2,3}+ is not supported'],
    ['(?>a)', 'the atomic group (?>...) is not supported'],
    ['(?|(a)|(b))', 'the branch reset group (?|...) is not supported'],
    ['(a)(?(1)b|c)', 'the conditional (?(...)...) is not supported'],
    ['(a)(?1)', 'recursion (?1...) is not supported'],
    ['(*FAIL)', '(*FAIL) (a backtracking control verb or alphabetic assertion) is not supported'],
    ['[[:^digit:]]', 'the negated POSIX class [:^digit:] is not supported'],
  ])('refuses /%s/ at start-up, naming the construct', (pattern, reason) => {
    expect(() => compilePerl5(pattern, {}, { component: 'ev', ruleset: 'r1', key: 'PatternGroup' })).toThrow(
      `component "ev", ruleset "r1", key PatternGroup: bad regular expression ${JSON.stringify(pattern)}: ${reason}`,
    );
  });
});

describe('Perl class details the conformance suite found', () => {
  it('reads [: without a closing :] as literal members, as Perl does', () => {
    expect(finds('^[a[:]+$', ':[a')).toBe(true);
  });

  it('keeps a - next to a POSIX class or \\h a literal member', () => {
    expect(finds('^[a-[:digit:]]+$', 'a-5')).toBe(true);
    expect(finds('^[\\h-z]+$', ' -z')).toBe(true);
    expect(finds('^[\\h-z]+$', 'y')).toBe(false);
  });

  it('refuses (?xx) and a malformed \\N{', () => {
    expect(() => compilePerl5('(?xx)[a b]')).toThrow('(?xx) (blanks ignored inside classes too) is not supported');
    expect(() => compilePerl5('abc\\N{')).toThrow('\\N{ is not closed');
    expect(() => compilePerl5('(?x)\\N {U+41}')).toThrow('\\N must be followed directly by {U+hex} or a quantifier');
  });
});
