/**
 * JSON bodies as the JSON kinds see them (docs/evaluator/transforms.md): a standard JSON parser (the
 * original's parser defects are not reproduced) that keeps every number's literal text, so a
 * body that is cut or merged is re-serialised without touching numbers it did not change
 * (`2.50` stays `2.50`, `12345678901234567890` keeps its digits) and a JSONPath map can render
 * a scalar as its literal text. Object key order is the input order.
 *
 * Values: null, boolean, string, {@link JsonNumber}, arrays and plain objects of those.
 */
import { XrouteError } from '../foundation/xroute-error';

/** A JSON number kept as its literal text. */
export class JsonNumber {
  constructor(readonly text: string) {}
  valueOf(): number {
    return Number(this.text);
  }
  toString(): string {
    return this.text;
  }
}

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** JSON text (a body, a template, a rendered value) that does not parse; config/errors.ts's JsonSyntaxError is a configuration file's. */
export class JsonTextSyntaxError extends XrouteError {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at position ${position}`);
    this.name = 'JsonTextSyntaxError';
  }
}

export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);
}

/** Sets a key of an object; a "__proto__" key is data, not the prototype. An existing key keeps its place. */
export function putJsonKey(object: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

export function hasJsonKey(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseJsonValue(text: string): JsonValue {
  let i = 0;
  const fail = (reason: string): never => {
    throw new JsonTextSyntaxError(reason, i);
  };
  const space = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const value = (): JsonValue => {
    space();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (text.startsWith('true', i)) return ((i += 4), true);
    if (text.startsWith('false', i)) return ((i += 5), false);
    if (text.startsWith('null', i)) return ((i += 4), null);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail(c === undefined ? 'unexpected end of input' : `unexpected ${JSON.stringify(c)}`);
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  const object = (): JsonObject => {
    const out: JsonObject = {};
    i++;
    space();
    if (text[i] === '}') return (i++, out);
    for (;;) {
      space();
      if (text[i] !== '"') fail('expected a string key');
      const key = string();
      space();
      if (text[i] !== ':') fail('expected ":"');
      i++;
      putJsonKey(out, key, value());
      space();
      if (text[i] === ',') i++;
      else if (text[i] === '}') return (i++, out);
      else fail('expected "," or "}"');
    }
  };
  const array = (): JsonValue[] => {
    const out: JsonValue[] = [];
    i++;
    space();
    if (text[i] === ']') return (i++, out);
    for (;;) {
      out.push(value());
      space();
      if (text[i] === ',') i++;
      else if (text[i] === ']') return (i++, out);
      else fail('expected "," or "]"');
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in string');
      i += c === 0x5c ? 2 : 1;
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('bad escape in string');
    }
  };
  const result = value();
  space();
  if (i < text.length) fail('unexpected text after the JSON value');
  return result;
}

/** Compact JSON; numbers are written as their literal text. */
export function stringifyJson(value: JsonValue): string {
  if (value === null) return 'null';
  if (value instanceof JsonNumber) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(',')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`)
    .join(',')}}`;
}

/** Compact JSON with every scalar written as a string (the JSONPath map's "string model", docs/evaluator/transforms.md). */
function stringifyQuotedScalars(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(stringifyQuotedScalars).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${stringifyQuotedScalars(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(String(value));
}

/** A scalar's literal text (`1`, `2.50`, `true`) or, for an object or array, its quoted-scalar JSON. */
export function literalText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'boolean' || value instanceof JsonNumber) return String(value);
  return stringifyQuotedScalars(value);
}
