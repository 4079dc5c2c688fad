import { compileSubstitution } from '../../../src/rules/substitution';
import { RuleConfigError } from '../../../src/rules/errors';

process.env.TZ = 'UTC';

const sub = (expr: string, text: string, options = {}) => compileSubstitution(expr, options).apply(text);

describe('TextSubstitution: regex form', () => {
  it('accepts any delimiter', () => {
    expect(sub('s|a|b|g', 'aaa')).toBe('bbb');
    expect(sub('s#a/b#X#', 'a/b')).toBe('X');
  });

  it('takes the replacement up to the last delimiter (s/a/b/c/g replaces with b/c)', () => {
    expect(sub('s/a/b/c/g', 'a')).toBe('b/c');
  });

  it('replaces only the first match without g', () => {
    expect(sub('s/A/Z/', 'AAA')).toBe('ZAA');
  });

  it('ignores every flag letter but g and m, including i (s/A/b/gi on AaA gives bab)', () => {
    expect(sub('s/A/b/gi', 'AaA')).toBe('bab');
    expect(sub('s/(?i)A/b/g', 'AaA')).toBe('bbb');
  });

  it('applies m line by line, keeping the last line and empty lines (bug fixed)', () => {
    expect(sub('s/^/> /gm', 'l1\nl2\nl3')).toBe('> l1\n> l2\n> l3');
    expect(sub('s/^/> /gm', 'l1\n\nl3\nl4')).toBe('> l1\n> \n> l3\n> l4');
  });

  it('cannot end the pattern with an escaped backslash under / but can with another delimiter (quirk kept)', () => {
    expect(sub('s|\\\\|X|g', 'a\\b')).toBe('aXb');
    expect(() => compileSubstitution('s/\\\\/X/')).toThrow(RuleConfigError);
  });

  it.each([['s/ab'], ['s///'], ['y/a/b/'], ['s//x/'], ['s/a/b']])('rejects %s at start-up', (bad) => {
    expect(() => compileSubstitution(bad, { where: { ruleset: 'r', key: 'Substitution[0]' } })).toThrow(RuleConfigError);
  });

  it('treats s|x|+=1|e as an ordinary substitution because /e is tested literally (quirk kept)', () => {
    expect(sub('s|x|+=1|e', 'x')).toBe('+=1');
  });

  it('turns newlines into | with the \\x0a regex escape', () => {
    expect(sub('s/\\x0a/|/g', 'a\nb')).toBe('a|b');
  });
});

describe('TextSubstitution: special literal forms', () => {
  it.each([
    ['s/\\n/\\r/g', 'a\nb', 'a\rb'],
    ['s/\\r/\\n/g', 'a\rb', 'a\nb'],
    ['s/\\r\\n/\\n/g', 'a\r\nb', 'a\nb'],
    ['s/\\n/\\r\\n/g', 'a\nb', 'a\r\nb'],
    ['s/\\r/\\r\\n/g', 'a\rb', 'a\r\nb'],
    ['s/\\x02/,/g', 'a\x02b\x02c', 'a,b,c'],
    ['s/,/\\x02/g', 'a,b', 'a\x02b'],
  ])('%s', (expr, input, output) => {
    expect(sub(expr, input)).toBe(output);
  });
});

describe('TextSubstitution: expression forms', () => {
  it.each([
    ['s//+=3/e', '5', '8'],
    ['s//+=3/e', '5.5', undefined],
    ['s//+=3.0/e', '5', '8.0'],
    ['s//+=0.5/e', '10000000', '1.00000005E7'],
    ['s//-=1/e', '-3', '-4'],
    ['s//*=2/e', '4611686018427387904', '-9223372036854775808'],
    ['s///=2/e', '7', '3'],
    ['s///=2/e', '-7', '-3'],
    ['s///=2.0/e', '7', '3.5'],
    ['s//%=3/e', '-7', '-1'],
    ['s//%=2.5/e', '7', '2.0'],
    ['s//~=yyyy-MM-dd/e', '2020-01-02', '1577923200000'],
    ['s//#=yyyy-MM-dd HH:mm/e', '0', '1970-01-01 00:00'],
    ['s//#=yyyy-MM-dd/e', 'x', undefined],
    ['s//?=[0,100]15/e', '50', '15'],
    ['s//?=[0,100]15/e', '150', '150'],
    ['s//?=(,0)0.5/e', '-3', '0'],
    ['s//?=[0.5,1)9/e', '0.7', '9.0'],
    ['s//?=[0.5,1)9/e', '2', '2.0'],
    ['s//:=lower/e', 'AbC', 'abc'],
    ['s//:=upper/e', 'AbC', 'ABC'],
    ['s//:=encode/e', "a b&c=d/é*~!'()", 'a+b%26c%3Dd%2F%C3%A9*%7E%21%27%28%29'],
    ['s//:=decode/e', 'a+b%26c', 'a b&c'],
    ['s//:=md5/e', 'hello', '5d41402abc4b2a76b9719d911017c592'],
    ['s//:=chop/e', 'a\n', 'a'],
    ['s//:=chop/e', 'a\r\n', 'a\r'],
    ['s//:=abs/e', '-5', '5'],
    ['s//:=abs/e', '-5.5', '5.5'],
    ['s//:=sqrt/e', '16', '4.0'],
    ['s//:=sqrt/e', '-1', undefined],
    ['s//:=log/e', '0', undefined],
    ['s//:=pow 2/e', '3', '9.0'],
    ['s//:=eval/e', '1 + 2 * 3', '7'],
    ['s//:=replace/e', 'hello world!o!0', 'hell0 w0rld'],
    ['s//:=sub/e', 'hello world!o(.)!0$1', 'hell0 world'],
    ['s//:=gsub/e', 'hello world!o(.)!0$1', 'hell0 w0rld'],
    ['s//:=replace |/e', 'a-b|-|+', 'a+b'],
    ['s//:=replace/e', '!x!y', ''],
    ['s//:=replace/e', 'abc!!y', 'abc'],
    ['s/x/:=lower/e', 'AB', 'ab'],
  ])('%s on %j gives %j', (expr, input, output) => {
    expect(sub(expr, input)).toBe(output);
  });

  it('throws on a malformed % escape in decode (EXCEPTION for the rule)', () => {
    expect(() => sub('s//:=decode/e', '%zz')).toThrow();
  });

  it('returns the injected clock for :=time', () => {
    expect(sub('s//:=time/e', 'ignored', { clock: () => 1234 })).toBe('1234');
  });

  it('draws :=rand from [0, N)', () => {
    expect(sub('s//:=rand 10/e', '', { random: () => 0.55 })).toBe('5');
    expect(sub('s//:=rand 2.0/e', '', { random: () => 0.25 })).toBe('0.5');
  });

  it.each([['s//:= lower/e'], ['s//:=foo/e'], ['s/x/y/e'], ['s///=0/e'], ['s//%=0/e'], ['s//+=x/e'], ['s//:=lower x/e']])('rejects %s at start-up', (bad) => {
    expect(() => compileSubstitution(bad)).toThrow(RuleConfigError);
  });
});
