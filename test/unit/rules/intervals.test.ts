import { IntervalSet } from '../../../src/rules/intervals';
import { RuleConfigError } from '../../../src/rules/errors';

const inSet = (list: string[], value: string) => IntervalSet.parse(list).containsText(value);

describe('numeric range sets (intervals)', () => {
  it.each([
    ['[1, 10)', '1', true],
    ['[1, 10)', '10', false],
    ['(1,10]', '1', false],
    ['(1,10]', '10', true],
    ['[5,)', '5', true],
    ['(5,)', '5', false],
    ['(,5)', '4', true],
    ['[,5]', '5', true],
    ['(,5]', '5', true],
    ['[5,5]', '5', true],
    ['(5,5)', '5', false],
  ])('%s holds %s: %s', (interval, value, expected) => {
    expect(inSet([interval], value)).toBe(expected);
  });

  it('is the union of its intervals', () => {
    expect(inSet(['(,0)', '[3, 10)'], '-1')).toBe(true);
    expect(inSet(['(,0)', '[3, 10)'], '4')).toBe(true);
    expect(inSet(['(,0)', '[3, 10)'], '12')).toBe(false);
  });

  it('parses integer values strictly: 9.0 and " 9" are outside, +9 is inside', () => {
    expect(inSet(['[0,10]'], '9.0')).toBe(false);
    expect(inSet(['[0,10]'], ' 9')).toBe(false);
    expect(inSet(['[0,10]'], '+9')).toBe(true);
  });

  it('becomes a real set when any bound has a dot, and then trims and accepts exponents', () => {
    const set = IntervalSet.parse(['[1.5,10)', '[20,30]']);
    expect(set.real).toBe(true);
    expect(set.containsText(' 2.5 ')).toBe(true);
    expect(set.containsText('2.5e1')).toBe(true);
    expect(set.containsText('1.4')).toBe(false);
  });

  it('ignores characters outside the brackets', () => {
    expect(inSet(['x(1,10]y'], '10')).toBe(true);
  });

  it('compares 64-bit integers exactly beyond the double range', () => {
    expect(inSet(['[9223372036854775806,)'], '9223372036854775807')).toBe(true);
    expect(inSet(['[9223372036854775807,)'], '9223372036854775806')).toBe(false);
  });

  it.each([['(,)'], ['[10,1]'], ['[a,2]'], ['1,2'], ['[1]']])('rejects %s at start-up', (bad) => {
    expect(() => IntervalSet.parse([bad], { ruleset: 'r' })).toThrow(RuleConfigError);
  });

  it('rejects a non-string entry', () => {
    expect(() => IntervalSet.parse([5])).toThrow(/not a string/);
  });
});
