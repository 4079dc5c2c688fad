/**
 * Building blocks for component schemas. Every scalar in a configuration is a string, as in the original;
 * `description` carries the "expected ..." text the loader shows when a value does not fit.
 */
import { JsonSchema } from '../runtime/component';

export function str(description = 'a string'): JsonSchema {
  return { type: 'string', description };
}

export function intStr(description = 'an integer as a string, e.g. "10"', opts: { min?: number } = {}): JsonSchema {
  const min = opts.min;
  const pattern = min !== undefined && min >= 1 ? '^\\s*0*[1-9]\\d*\\s*$' : min !== undefined && min >= 0 ? '^\\s*\\d+\\s*$' : '^\\s*-?\\d+\\s*$';
  return { type: 'string', pattern, description };
}

export function boolStr(description = '"true" or "false"'): JsonSchema {
  return { type: 'string', pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$', description };
}

export function enumStr(values: readonly string[], description?: string): JsonSchema {
  return { type: 'string', enum: [...values], description: description ?? `one of ${values.map((v) => JSON.stringify(v)).join(', ')}` };
}

export function strMap(description = 'a map of names to string values'): JsonSchema {
  return { type: 'object', additionalProperties: { type: 'string' }, description };
}

export function strOrList(description = 'a string or a list of strings'): JsonSchema {
  return { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description };
}

export function objectSchema(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required };
}
