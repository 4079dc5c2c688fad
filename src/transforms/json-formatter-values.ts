/**
 * Values of the JSONFormatter kind (docs/evaluator/transforms.md): converting rendered template text to a
 * typed JSON value with a `DataType`, and the text of a JSON value where a template or a message
 * property needs one.
 *
 * Numbers follow the project's one typed model (json-text.ts, as jcut and jmerge): a number keeps
 * its literal text, a `long` is written as an integer and a `double` in its shortest form (`42`,
 * `1.5`). Known difference from Java, whose typed model turns every number into a double: Java
 * writes `42.0` and `5.0` where we write `42` and `5` (the original's quirk, not reproduced; docs/evaluator/transforms.md).
 */
import { parseJavaDouble, parseJavaLong } from '../rules/java-numbers';
import { TransformProblem } from './errors';
import { JsonNumber, JsonTextSyntaxError, JsonValue, isJsonObject, parseJsonValue, stringifyJson } from './json-text';

export const DATA_TYPES = ['string', 'long', 'double', 'boolean', 'map', 'list'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export function isDataType(name: string): name is DataType {
  return (DATA_TYPES as readonly string[]).includes(name);
}

export function isNumericType(type: DataType | undefined): boolean {
  return type === 'long' || type === 'double';
}

/**
 * The text of a value in a template or a property: a string as it is, a number as written, an
 * object or list as compact JSON; null and "not found" are empty, as a missing message field.
 */
export function valueText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || value instanceof JsonNumber) return String(value);
  return stringifyJson(value);
}

/** The DataType matching an existing value; undefined for null. */
export function dataTypeOf(value: JsonValue | undefined): DataType | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (value instanceof JsonNumber) return 'double';
  return Array.isArray(value) ? 'list' : 'map';
}

/** Rendered text as a value of the type; throws TransformProblem when the text does not fit. */
export function convertText(text: string, type: DataType): JsonValue {
  switch (type) {
    case 'string':
      return text;
    case 'long': {
      const n = parseJavaLong(text.trim());
      if (n === undefined) throw new TransformProblem(`${JSON.stringify(text)} is not a 64-bit integer (DataType long)`);
      return new JsonNumber(n.toString());
    }
    case 'double': {
      const x = parseJavaDouble(text);
      if (x === undefined || !Number.isFinite(x)) throw new TransformProblem(`${JSON.stringify(text)} is not a finite number (DataType double)`);
      return new JsonNumber(String(x));
    }
    case 'boolean':
      // Boolean.parseBoolean: "true" in any case is true, anything else false.
      return text.trim().toLowerCase() === 'true';
    case 'map':
    case 'list': {
      const value = parseRendered(text, type);
      const fits = type === 'map' ? isJsonObject(value) : Array.isArray(value);
      if (!fits) throw new TransformProblem(`${JSON.stringify(text)} is not a JSON ${type === 'map' ? 'object' : 'list'} (DataType ${type})`);
      return value;
    }
  }
}

function parseRendered(text: string, type: DataType): JsonValue {
  try {
    return parseJsonValue(text);
  } catch (e) {
    if (e instanceof JsonTextSyntaxError) throw new TransformProblem(`the rendered template is not JSON (DataType ${type}): ${e.message}`, e);
    throw e;
  }
}

/** Same JSON text: numbers compare as written (`1` and `1.0` differ). */
export function sameJson(a: JsonValue, b: JsonValue): boolean {
  return a === b || stringifyJson(a) === stringifyJson(b);
}
