/**
 * Building blocks for component schemas. Every scalar in a configuration is a string, as in the original;
 * `description` carries the "expected ..." text the loader shows when a value does not fit.
 */

/** JSON Schema (draft 2020-12 / draft-07 subset ajv understands) for a component's own properties. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export function str(description = 'a string'): JsonSchema {
  return { type: 'string', description };
}

/**
 * The pattern of any integer, for a declared setting whose schema leaves the range to the reader: "0" passes
 * the schema and the reader says "expected a number >= 1", as the component always reported it.
 */
export const ANY_INTEGER_PATTERN = '^\\s*-?\\d+\\s*$';

export function intStr(description = 'an integer as a string, e.g. "10"', opts: { min?: number } = {}): JsonSchema {
  const min = opts.min;
  const pattern = min !== undefined && min >= 1 ? '^\\s*0*[1-9]\\d*\\s*$' : min !== undefined && min >= 0 ? '^\\s*\\d+\\s*$' : ANY_INTEGER_PATTERN;
  return { type: 'string', pattern, description };
}

/**
 * An integer setting declared once: the schema, the default the reader falls back to and the range it
 * checks all come from this declaration (ConfigReader.integers), so that they cannot drift apart.
 */
export interface IntegerSetting {
  /** What the value means; `{default}` marks where the default is said, else " (default N)" is appended. */
  readonly description: string;
  readonly default: number;
  readonly min?: number;
  readonly max?: number;
  /**
   * The schema's pattern, when it is not the one `min` implies: a looser pattern leaves the range to the
   * reader, whose message names it ("expected a number >= 1"), and a tighter one ("[01]") says it at once.
   */
  readonly pattern?: string;
}

export function integerSetting(description: string, fallback: number, range: { min?: number; max?: number; pattern?: string } = {}): IntegerSetting {
  return { description, default: fallback, ...range };
}

/** The description of a declared integer setting, its default said. */
function describeInteger(setting: IntegerSetting): string {
  const stated = String(setting.default);
  return setting.description.includes('{default}') ? setting.description.split('{default}').join(stated) : `${setting.description} (default ${stated})`;
}

/** The schema of one declared integer setting. */
function integerSchema(setting: IntegerSetting): JsonSchema {
  const schema = intStr(describeInteger(setting), { min: setting.min });
  return setting.pattern === undefined ? schema : { ...schema, pattern: setting.pattern };
}

/** The schemas of declared integer settings; each description says the default. */
export function integerSchemas<K extends string>(declared: Readonly<Record<K, IntegerSetting>>): Record<K, JsonSchema> {
  const out = {} as Record<K, JsonSchema>;
  for (const key of Object.keys(declared) as K[]) out[key] = integerSchema(declared[key]);
  return out;
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
