/**
 * The default a component schema states for a property, read from its description as a user reads it:
 * "(default 1000)", "(default 10; 0 = off)", "0 (default) = no limit", "(0 = never, default)" or 'default "3"'.
 */
import { JsonSchema } from '../../src/runtime/component';

export function statedDefault(schema: JsonSchema, property: string): number {
  const properties = (schema as { properties?: Record<string, { description?: string }> }).properties ?? {};
  const description = properties[property]?.description;
  if (description === undefined) throw new Error(`the schema has no description for ${property}`);
  const stated =
    /\(default (-?\d+)[);:,]/.exec(description) ??
    /(-?\d+) \(default\)/.exec(description) ??
    /\((-?\d+) = [^)]*, default\)/.exec(description) ??
    /default "(-?\d+)"/.exec(description);
  if (stated === null) throw new Error(`the description of ${property} states no default: ${JSON.stringify(description)}`);
  return Number(stated[1]);
}
