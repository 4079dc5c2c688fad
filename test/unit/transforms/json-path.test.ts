import { JsonPath, JsonPathProblem } from '../../../src/transforms/json-path';
import { literalText, parseJsonValue, stringifyJson } from '../../../src/transforms/json-text';

const ORDER = parseJsonValue('{"order":{"id":"A-7","items":[{"sku":"s1","qty":"1"},{"sku":"s2","qty":"5"}]},"$":"dollar","n":[10,20,30]}');
const at = (path: string) => {
  const v = JsonPath.compile(path).select(ORDER);
  return v === undefined ? undefined : literalText(v);
};

describe('JSON path dialect (docs/evaluator/transforms.md)', () => {
  it('treats a leading dot as optional and ignores empty steps', () => {
    expect([at('order.id'), at('.order.id'), at('order..id')]).toEqual(['A-7', 'A-7', 'A-7']);
  });

  it('gives the root for "."', () => {
    expect(JsonPath.compile('.').select(ORDER)).toBe(ORDER);
  });

  it('indexes arrays, with spaces allowed inside the brackets', () => {
    expect([at('.order.items[0].sku'), at('.order.items[ 1 ].sku')]).toEqual(['s1', 's2']);
  });

  it('counts a negative index from the end', () => {
    expect(at('.n[-1]')).toBe('30');
  });

  it('gives "not found" for an index out of range', () => {
    expect([at('.n[3]'), at('.n[-4]')]).toEqual([undefined, undefined]);
  });

  it('evaluates an arithmetic index', () => {
    expect(at('.n[1+1]')).toBe('30');
  });

  it('selects the first element matching a numeric condition', () => {
    expect(at('.order.items[#{qty} > 2].sku')).toBe('s2');
  });

  it('selects the first element matching a string condition', () => {
    expect(at(".order.items['#{sku}' == 's1'].qty")).toBe('1');
  });

  it('gives "not found" when no element matches the condition', () => {
    expect(at('.order.items[#{qty} > 9]')).toBeUndefined();
  });

  it('fails when an element lacks a key of the condition', () => {
    expect(() => at('.order.items[#{nope} > 2]')).toThrow(JsonPathProblem);
  });

  it('treats $ as an ordinary key', () => {
    expect(at('$')).toBe('dollar');
  });

  it('gives "not found" for a missing key', () => {
    expect(at('.order.nope')).toBeUndefined();
  });

  it('fails for an index on an object', () => {
    expect(() => at('.order[0]')).toThrow(/does not apply to an object/);
  });

  it('fails for a key on an array', () => {
    expect(() => at('.n.v')).toThrow(/does not apply to a list/);
  });

  it('rejects an unbalanced bracket when compiling', () => {
    expect(() => JsonPath.compile('.a[0')).toThrow(/unbalanced/);
  });
});

describe('JSON text with literal numbers (docs/evaluator/transforms.md)', () => {
  it('re-serialises numbers exactly as written', () => {
    const text = '{"a":2.50,"b":12345678901234567890,"c":-1.5e-3,"d":[1,2]}';
    expect(stringifyJson(parseJsonValue(text))).toBe(text);
  });

  it('parses the arrays the original rejected', () => {
    expect(stringifyJson(parseJsonValue('["x",1]'))).toBe('["x",1]');
  });

  it('accepts \\u escapes', () => {
    expect(parseJsonValue('"\\u0041"')).toBe('A');
  });

  it('keeps a "__proto__" key as data', () => {
    expect(stringifyJson(parseJsonValue('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });

  it('rejects trailing text', () => {
    expect(() => parseJsonValue('{} x')).toThrow(/after the JSON value/);
  });

  it('rejects single-quoted strings', () => {
    expect(() => parseJsonValue("{'a':1}")).toThrow(/expected a string key/);
  });
});
