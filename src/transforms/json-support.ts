/**
 * The glue the JSON kinds share: parsing a message's JSON into a typed per-message error, and
 * compiling ruleset JSON paths into typed configuration errors.
 */
import { JsonInputError, asConfigError } from './errors';
import type { TransformCompileContext } from './kind-types';
import { JsonPath } from './json-path';
import { JsonTextSyntaxError, JsonValue, parseJsonValue } from './json-text';

export function parseJsonInput(text: string, kind: string, ruleset: string, what: string): JsonValue {
  try {
    return parseJsonValue(text);
  } catch (e) {
    if (e instanceof JsonTextSyntaxError) throw new JsonInputError(kind, ruleset, what, e.message, e);
    throw e;
  }
}

export function compileJsonPathKey(path: string, key: string, ctx: Pick<TransformCompileContext, 'where'>): JsonPath {
  return asConfigError(ctx.where(key), 'a JSON path (docs/evaluator/transforms.md)', () => JsonPath.compile(path));
}
