/**
 * Which configuration properties hold secrets: the schemas say it, with JSON Schema's `writeOnly` keyword
 * (`secretStr`), and nothing else does. The names of every property a registered schema declares secret
 * (Password, KeyPassphrase, Credentials, EncryptedPassword, ...) form the set that the masker
 * (src/logging/redact.ts) and the configuration messages consult; a key that merely looks like one
 * (IsPassive) is an ordinary property. See docs/operations.md, "Secrets".
 */
import { JsonSchema } from './schema-helpers';

/** The schema of a string property that holds a secret: its value is masked in every output. */
export function secretStr(description: string): JsonSchema {
  return { type: 'string', writeOnly: true, description };
}

/** True when `schema` declares a secret value. */
export function isSecretSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { writeOnly?: unknown }).writeOnly === true;
}

/** Names of the properties `schema` declares secret, at any depth (nested maps, lists, anyOf branches). */
export function secretPropertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return out;
  if (Array.isArray(schema)) {
    for (const s of schema) secretPropertyNames(s, out);
    return out;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, property] of Object.entries(value)) {
        if (isSecretSchema(property)) out.add(name);
        secretPropertyNames(property, out);
      }
    } else if (['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'then', 'else'].includes(keyword)) {
      secretPropertyNames(value, out);
    }
  }
  return out;
}

/** Lower-cased names of the declared secret properties (a logged object may spell them `password`). */
const declared = new Set<string>();

/** Declares the secret properties of a schema (the component registry calls it for every definition). */
export function declareSecretProperties(schema: unknown): void {
  for (const name of secretPropertyNames(schema)) declared.add(name.toLowerCase());
}

/** True when a property of this name is declared secret by a registered schema. */
export function isSecretKey(key: string): boolean {
  return declared.has(key.toLowerCase());
}

/** True when a value at the property path ("DestinationProperty/EncryptedPassword") sits under a secret. */
export function isSecretProperty(property: string): boolean {
  return property.split('/').some(isSecretKey);
}
