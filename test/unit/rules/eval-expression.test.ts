import { evaluateExpression } from '../../../src/rules/eval-expression';

describe('the eval expression language', () => {
  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['1 - -3', '4'],
    ['-(2)', '-2'],
    ['7 / 2', '3'],
    ['-7 / 2', '-3'],
    ['7.0 / 2', '3.5'],
    ['7 % 3', '1'],
    ['1 == 1.0', '1'],
    ['2 > 1 && 1 > 2 || 3 >= 3', '1'],
    ["'abc' == 'abc'", '1'],
    ["'abc' =~ 'b'", '0'],
    ["'abc' =~ 'a.*'", '1'],
    ["'abc' !~ 'x'", '1'],
    ["5 > 3 ? 'big' : 'small'", 'big'],
    ["1 > 2 ? 'a' : 2 > 1 ? 'b' : 'c'", 'b'],
    ['1 > 2 ? 10 : 20', '20'],
    ['9223372036854775807 + 1', '-9223372036854775808'],
    ['1 + ', '1'],
  ])('%s gives %s', (expression, result) => {
    expect(evaluateExpression(expression)).toBe(result);
  });

  it('gives no result for division or remainder by zero', () => {
    expect(evaluateExpression('1 / 0')).toBeUndefined();
    expect(evaluateExpression('1 % 0')).toBeUndefined();
  });

  it('gives no result for an expression that does not start with a digit, dot, sign, parenthesis or quote', () => {
    expect(evaluateExpression('abc')).toBeUndefined();
  });

  it("keeps whitespace inside quoted strings (bug fixed: 'a b' == 'ab' is false)", () => {
    expect(evaluateExpression("'a b' == 'ab'")).toBe('0');
    expect(evaluateExpression("1 > 0 ? 'a b' : 'c'")).toBe('a b');
  });
});
