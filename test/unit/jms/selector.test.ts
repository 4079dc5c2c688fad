/**
 * The JMS message selector, table-driven from the rules of the JMS 1.1 specification, section 3.8.1.
 * Each row: selector, message values, expected result (true / false / null = unknown).
 */
import { JmsSelector, recordSource, SelectorSyntaxError, SelectorValue } from '../../../src/jms/selector';

type Row = [selector: string, values: Record<string, SelectorValue>, expected: boolean | null];

function evaluate(selector: string, values: Record<string, SelectorValue>): boolean | null {
  return JmsSelector.compile(selector).evaluate(recordSource(values));
}

const order = { colour: 'red', qty: 5, price: 2.5, flag: true, name: 'abc_1%', JMSType: 'order', JMSPriority: 4, JMSDeliveryMode: 'PERSISTENT' };

describe('comparison', () => {
  const rows: Row[] = [
    ["colour = 'red'", order, true],
    ["colour = 'blue'", order, false],
    ["colour <> 'blue'", order, true],
    ['qty = 5', order, true],
    ['qty > 4', order, true],
    ['qty >= 5', order, true],
    ['qty < 5', order, false],
    ['qty <= 4', order, false],
    ['qty <> 5', order, false],
    ['price = 2.5', order, true],
    ['price > 2', order, true],
    ['qty = 5.0', order, true],
    ['flag = TRUE', order, true],
    ['flag <> FALSE', order, true],
    ['flag', order, true],
    ['TRUE', {}, true],
    ['FALSE', {}, false],
    ["JMSType = 'order'", order, true],
    ["JMSDeliveryMode = 'PERSISTENT'", order, true],
    ['JMSPriority > 3', order, true],
    ["Colour = 'red'", order, null],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });

  it('compares values of different types as FALSE, never converting (a string "5" is not the number 5)', () => {
    expect(evaluate('qty = 5', { qty: '5' })).toBe(false);
    expect(evaluate('qty > 1', { qty: '5' })).toBe(false);
    expect(evaluate("qty = '5'", { qty: 5 })).toBe(false);
    expect(evaluate('flag = 1', { flag: true })).toBe(false);
  });

  it('compares strings and booleans only for (in)equality: < on string identifiers is FALSE', () => {
    expect(evaluate('a < b', { a: 'x', b: 'y' })).toBe(false);
    expect(evaluate('a > b', { a: true, b: false })).toBe(false);
  });

  it('is case-sensitive for identifiers and string values, case-insensitive for keywords', () => {
    expect(evaluate("colour = 'RED'", order)).toBe(false);
    expect(evaluate("colour = 'red' and qty = 5 oR false", order)).toBe(true);
  });
});

describe('NULL and three-valued logic', () => {
  const rows: Row[] = [
    ['missing = 1', {}, null],
    ["missing = 'x'", {}, null],
    ['missing <> 1', {}, null],
    ['NOT missing = 1', {}, null],
    // AND
    ['TRUE AND missing = 1', {}, null],
    ['FALSE AND missing = 1', {}, false],
    ['missing = 1 AND FALSE', {}, false],
    ['TRUE AND TRUE', {}, true],
    ['missing = 1 AND missing = 2', {}, null],
    // OR
    ['TRUE OR missing = 1', {}, true],
    ['missing = 1 OR TRUE', {}, true],
    ['FALSE OR missing = 1', {}, null],
    ['FALSE OR FALSE', {}, false],
    // NOT
    ['NOT TRUE', {}, false],
    ['NOT FALSE', {}, true],
    // IS NULL
    ['missing IS NULL', {}, true],
    ['missing IS NOT NULL', {}, false],
    ['qty IS NULL', { qty: 1 }, false],
    ['qty IS NOT NULL', { qty: 1 }, true],
    ['JMSCorrelationID IS NULL', { JMSCorrelationID: null }, true],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });

  it('selects a message only when the selector is TRUE (unknown does not select)', () => {
    const s = JmsSelector.compile('missing = 1');
    expect(s.matches(recordSource({}))).toBe(false);
    expect(JmsSelector.compile('NOT (missing = 1)').matches(recordSource({}))).toBe(false);
  });

  it('treats a non-boolean identifier used as a condition as unknown', () => {
    expect(evaluate('colour', { colour: 'red' })).toBeNull();
    expect(evaluate('NOT colour', { colour: 'red' })).toBeNull();
  });
});

describe('arithmetic', () => {
  const rows: Row[] = [
    ['qty + 1 = 6', order, true],
    ['qty - 1 = 4', order, true],
    ['qty * 2 = 10', order, true],
    ['qty / 2 = 2', order, true], // long division truncates
    ['qty / 2.0 = 2.5', order, true], // promoted to double
    ['-qty = -5', order, true],
    ['+qty = 5', order, true],
    ['- -qty = 5', order, true],
    ['qty + 2 * 3 = 11', order, true], // * binds tighter than +
    ['(qty + 2) * 3 = 21', order, true],
    ['10 - 4 - 3 = 3', {}, true], // left associative
    ['12 / 3 / 2 = 2', {}, true],
    ['price * 2 = 5', order, true],
    ['qty / 0 = 1', order, null], // integer division by zero
    ['missing + 1 = 1', {}, null],
    ['colour + 1 = 1', order, null], // arithmetic on a string is unknown
    ['9223372036854775807 + 1 = -9223372036854775808', {}, true], // long wraps around
    ['0x10 = 16', {}, true],
    ['010 = 8', {}, true],
    ['5L = 5', {}, true],
    ['1.5e1 = 15', {}, true],
    ['.5 = 0.5', {}, true],
    ['2f = 2', {}, true],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });
});

describe('BETWEEN', () => {
  const rows: Row[] = [
    ['qty BETWEEN 1 AND 5', order, true],
    ['qty BETWEEN 5 AND 10', order, true],
    ['qty BETWEEN 6 AND 10', order, false],
    ['qty NOT BETWEEN 6 AND 10', order, true],
    ['qty NOT BETWEEN 1 AND 10', order, false],
    ['price BETWEEN 2 AND 3', order, true],
    ['missing BETWEEN 1 AND 2', {}, null],
    ['missing NOT BETWEEN 1 AND 2', {}, null],
    ['qty BETWEEN missing AND 10', order, null],
    ['qty BETWEEN missing AND 1', order, false], // FALSE AND unknown = FALSE
    ["qty BETWEEN 1 AND 5 AND colour = 'red'", order, true],
    ['colour BETWEEN 1 AND 2', order, false],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });
});

describe('IN', () => {
  const rows: Row[] = [
    ["colour IN ('red', 'green')", order, true],
    ["colour IN ('blue')", order, false],
    ["colour NOT IN ('blue', 'green')", order, true],
    ["colour NOT IN ('red')", order, false],
    ["missing IN ('a')", {}, null],
    ["missing NOT IN ('a')", {}, null],
    ["qty IN ('5')", order, false],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });
});

describe('LIKE', () => {
  const rows: Row[] = [
    ["phone LIKE '12%3'", { phone: '123' }, true],
    ["phone LIKE '12%3'", { phone: '12993' }, true],
    ["phone LIKE '12%3'", { phone: '1234' }, false],
    ["word LIKE 'l_se'", { word: 'lose' }, true],
    ["word LIKE 'l_se'", { word: 'loose' }, false],
    ["underscored LIKE '\\_%' ESCAPE '\\'", { underscored: '_foo' }, true],
    ["underscored LIKE '\\_%' ESCAPE '\\'", { underscored: 'bar' }, false],
    ["name LIKE 'abc!_1!%' ESCAPE '!'", order, true],
    ["name LIKE 'abc!_1!%' ESCAPE '!'", { name: 'abcx1%' }, false],
    ["phone NOT LIKE '12%3'", { phone: '123' }, false],
    ["phone NOT LIKE '12%3'", { phone: '1234' }, true],
    ["missing LIKE '%'", {}, null],
    ["missing NOT LIKE '%'", {}, null],
    ["qty LIKE '5'", order, false],
    ["s LIKE 'a.c'", { s: 'abc' }, false], // regex characters are literal
    ["s LIKE 'eu-%/[x]{2}^$|\\'", { s: 'eu-west/[x]{2}^$|\\' }, true],
    ["s LIKE '%'", { s: 'multi\nline' }, true],
    ["s LIKE 'it''s'", { s: "it's" }, true], // '' is a quote inside a literal
    // the escape character escapes only _, % and itself; elsewhere it is an ordinary pattern character (ActiveMQ)
    ["s LIKE 'a!' ESCAPE '!'", { s: 'a!' }, true],
    ["s LIKE '!a' ESCAPE '!'", { s: '!a' }, true],
    ["s LIKE 'a!!' ESCAPE '!'", { s: 'a!' }, true],
    ["s LIKE '_D__' ESCAPE '_'", { s: 'XD_' }, true],
    ["s LIKE '%D%' ESCAPE '%'", { s: 'XD' }, true],
    ["s LIKE '%D%%' ESCAPE '%'", { s: 'XD' }, false],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });
});

describe('precedence', () => {
  const rows: Row[] = [
    ['TRUE OR TRUE AND FALSE', {}, true], // AND before OR
    ['(TRUE OR TRUE) AND FALSE', {}, false],
    ['NOT FALSE AND FALSE', {}, false], // NOT before AND
    ['NOT (FALSE AND FALSE)', {}, true],
    ['messageType=6 OR messageType = 8', { messageType: 8 }, true],
    ['messageType=6 OR messageType = 8', { messageType: 7 }, false],
  ];
  it.each(rows.map(([selector, values, expected]) => ({ selector, values, expected })))('$selector → $expected', ({ selector, values, expected }) => {
    expect(evaluate(selector, values)).toBe(expected);
  });
});

describe('syntax errors are configuration errors with position and reason', () => {
  const rows: [selector: string, position: number, reason: RegExp][] = [
    ['', 1, /empty/],
    ["colour = 'red", 10, /unterminated string/],
    ['colour = ', 10, /end of selector/],
    ['colour == 1', 9, /expected a value/],
    ['qty != 1', 5, /'<>'/],
    ['colour = "red"', 10, /single quotes/],
    ['colour IN (1, 2)', 12, /string literals only/],
    ['colour LIKE name', 13, /string literal pattern/],
    ["colour LIKE 'a' ESCAPE 'ab'", 24, /exactly one character/],
    ['qty BETWEEN 1', 14, /expected AND/],
    ['(qty = 1', 9, /'\)'/],
    ['qty = 1)', 8, /unexpected '\)'/],
    ['5', 1, /needs a condition/],
    ['qty + 1', 1, /needs a condition/],
    ["'a' < 'b'", 1, /compare only with = and <>/],
    ["'a' + 1 = 2", 1, /numeric operands/],
    ['NULL = 1', 1, /IS \[NOT\] NULL/],
    ['qty IS 1', 8, /expected NULL/],
    ['qty = 1 #', 9, /unexpected character/],
    ['9223372036854775808 = 1', 1, /out of range/],
    ['019 = 1', 1, /octal/],
    ['12abc = 1', 1, /invalid numeric literal/],
    ['qty NOT 5', 9, /BETWEEN, IN or LIKE after NOT/],
  ];
  it.each(rows)('rejects %j at position %d', (selector, position, reason) => {
    let error: unknown;
    try {
      JmsSelector.compile(selector);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SelectorSyntaxError);
    const e = error as SelectorSyntaxError;
    expect({ position: e.position, reason: e.reason }).toEqual({ position, reason: expect.stringMatching(reason) });
    expect(e.message).toContain(`position ${position}`);
  });

  it('accepts -9223372036854775808, the smallest long, only with its sign', () => {
    expect(evaluate('x = -9223372036854775808', { x: -(2n ** 63n) })).toBe(true);
  });

  it('accepts a boolean identifier combined with AND', () => {
    expect(evaluate('flag AND TRUE', { flag: true })).toBe(true);
  });
});

describe('a source that gives JMS types (jmsTyped)', () => {
  const typed = (values: Record<string, SelectorValue>) => ({ jmsTyped: true, get: (name: string) => values[name] });

  it('keeps a number holding a whole number a double: floating division', () => {
    expect(JmsSelector.compile('d / 2 = 61.5').evaluate(typed({ d: 123 }))).toBe(true);
  });

  it('keeps a bigint an integer: truncating division', () => {
    expect(JmsSelector.compile('d / 2 = 61').evaluate(typed({ d: 123n }))).toBe(true);
  });

  it('sees an absent identifier as NULL', () => {
    expect(JmsSelector.compile('x IS NULL').evaluate(typed({}))).toBe(true);
  });
});
