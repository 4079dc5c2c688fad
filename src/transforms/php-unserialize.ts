/**
 * A small, strict reader of PHP `serialize()` output, for the Translation kind's PHP2XML and
 * PHP2JSON (docs/evaluator/transforms.md). It reads bytes, because PHP writes string lengths as UTF-8 byte
 * counts (`s:2:"é";` is one character), and it accepts only what serialize() writes for plain
 * data:
 *
 *   N;  b:0; b:1;  i:-12;  d:0.5; d:INF; d:-INF; d:NAN;  s:<bytes>:"...";  a:<n>:{<key><value>...}
 *
 * Array keys are `i:` or `s:`. An array whose keys are exactly 0..n-1 in order is a list (as PHP's
 * json_encode sees it, `a:0:{}` included); any other array is a map, integer keys written as
 * their decimal text. `d:` values keep their literal text as JSON numbers; INF, -INF and NAN,
 * which JSON cannot hold, become the strings "INF", "-INF" and "NAN". Strings must be UTF-8.
 *
 * Refused with a {@link TransformProblem}: objects (`O:`, `C:`), enums (`E:`) and references
 * (`r:`, `R:`), which only mean something to the PHP program that wrote them; a wrong length or
 * count; anything after the value but whitespace.
 */
import { TransformProblem } from './errors';
import { JsonNumber, JsonObject, JsonValue } from './json-text';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const FLOAT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NOT_JSON_FLOATS = new Set(['INF', '-INF', 'NAN']);
const UNSUPPORTED: Readonly<Record<string, string>> = {
  O: 'an object (O:)',
  C: 'an object (C:)',
  E: 'an enum (E:)',
  r: 'a reference (r:)',
  R: 'a reference (R:)',
};

export function parsePhpSerialized(input: Buffer): JsonValue {
  let i = 0;
  const fail = (reason: string): never => {
    throw new TransformProblem(`the body is not PHP serialize() output: ${reason} at byte ${i}`);
  };
  const expect = (char: string): void => {
    if (input[i] !== char.charCodeAt(0)) fail(`expected ${JSON.stringify(char)}`);
    i++;
  };
  /** The ASCII text up to (not including) `end`, which is consumed. */
  const until = (end: string): string => {
    const at = input.indexOf(end, i, 'latin1');
    if (at < 0) fail(`missing ${JSON.stringify(end)}`);
    const text = input.toString('latin1', i, at);
    i = at + 1;
    return text;
  };
  const integer = (end: string): string => {
    const text = until(end);
    if (!INTEGER.test(text)) fail(`bad integer ${JSON.stringify(text)}`);
    return text;
  };
  const count = (end: string): number => {
    const n = Number(integer(end));
    if (n < 0 || !Number.isSafeInteger(n)) fail(`bad length ${n}`);
    return n;
  };
  const string = (): string => {
    const length = count(':');
    expect('"');
    if (i + length > input.length) fail(`string of ${length} bytes runs past the end`);
    let text = '';
    try {
      text = UTF8.decode(input.subarray(i, i + length));
    } catch {
      fail('string is not UTF-8');
    }
    i += length;
    expect('"');
    expect(';');
    return text;
  };
  const value = (): JsonValue => {
    if (i >= input.length) fail('unexpected end of input');
    const type = String.fromCharCode(input[i]!);
    if (type === 'N') {
      i++;
      expect(';');
      return null;
    }
    if (UNSUPPORTED[type] !== undefined) fail(`${UNSUPPORTED[type]} is not supported`);
    if (!'bidsa'.includes(type)) fail(`unknown type ${JSON.stringify(type)}`);
    i++;
    expect(':');
    switch (type) {
      case 'b': {
        const flag = until(';');
        if (flag !== '0' && flag !== '1') fail(`bad boolean ${JSON.stringify(flag)}`);
        return flag === '1';
      }
      case 'i':
        return new JsonNumber(integer(';'));
      case 'd': {
        const text = until(';');
        if (NOT_JSON_FLOATS.has(text)) return text;
        if (!FLOAT.test(text)) fail(`bad float ${JSON.stringify(text)}`);
        return new JsonNumber(text);
      }
      case 's':
        return string();
      default: // 'a'
        return array();
    }
  };
  const key = (): string => {
    const type = String.fromCharCode(input[i] ?? 0);
    if (type === 'i') {
      i += 1;
      expect(':');
      return integer(';');
    }
    if (type !== 's') fail('an array key must be i: or s:');
    i += 1;
    expect(':');
    return string();
  };
  const array = (): JsonValue => {
    const n = count(':');
    expect('{');
    const entries: [string, JsonValue][] = [];
    for (let k = 0; k < n; k++) entries.push([key(), value()]);
    expect('}');
    if (entries.every(([name], at) => name === String(at))) return entries.map(([, v]) => v);
    const map: JsonObject = {};
    // defineProperty: a "__proto__" key is data, not the prototype; a repeated key keeps the last value, as in PHP
    for (const [name, v] of entries) Object.defineProperty(map, name, { value: v, enumerable: true, writable: true, configurable: true });
    return map;
  };
  const result = value();
  while (i < input.length && (input[i] === 0x20 || input[i] === 0x0a || input[i] === 0x0d || input[i] === 0x09)) i++;
  if (i < input.length) fail('unexpected text after the value');
  return result;
}
