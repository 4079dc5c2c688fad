/**
 * Validates one component configuration against the common properties and its class's own schema (ajv),
 * then the class's own checks. Unknown properties get a "did you mean" when a known name is close.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { AnyComponentDefinition, ComponentConfig, JsonSchema, ValidationContext } from '../runtime/component';
import { COMMON_PROPERTIES } from './common-schema';
import { closest } from './did-you-mean';
import { isSecretKey, MASK } from '../logging/redact';

export interface ComponentProblem {
  readonly property: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const compiled = new WeakMap<AnyComponentDefinition, ValidateFunction>();

/** The full schema of a component class: common properties plus its own. */
export function componentSchema(def: AnyComponentDefinition): JsonSchema {
  const own = def.schema as { properties?: Record<string, JsonSchema>; additionalProperties?: unknown; required?: string[] };
  return {
    ...def.schema,
    type: 'object',
    properties: { ...COMMON_PROPERTIES, ...(own.properties ?? {}), Operation: { type: 'string', enum: [...def.operations], description: `one of ${def.operations.map((o) => JSON.stringify(o)).join(', ')}` } },
    required: own.required ?? [],
    additionalProperties: own.additionalProperties ?? false,
  };
}

function validatorFor(def: AnyComponentDefinition): ValidateFunction {
  let v = compiled.get(def);
  if (!v) {
    v = ajv.compile(componentSchema(def));
    compiled.set(def, v);
  }
  return v;
}

export function validateComponentConfig(def: AnyComponentDefinition, config: unknown, baseDir: string, context: ValidationContext = { pluginDirs: [] }): ComponentProblem[] {
  const problems: ComponentProblem[] = [];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [{ property: '', message: 'expected a JSON object with the component properties', severity: 'error' }];
  }
  const validate = validatorFor(def);
  if (!validate(config)) {
    const known = Object.keys((componentSchema(def) as { properties: Record<string, unknown> }).properties);
    for (const e of dedupe(validate.errors ?? [])) problems.push(toProblem(e, known));
  }
  if (problems.length === 0 && def.validate) {
    try {
      for (const issue of def.validate(config as ComponentConfig, baseDir, context)) {
        problems.push({ property: issue.property, message: issue.message, severity: issue.severity ?? 'error' });
      }
    } catch (e) {
      problems.push({ property: '', message: `configuration check failed: ${(e as Error).message}`, severity: 'error' });
    }
  }
  return problems;
}

/** anyOf produces one error per branch plus a summary; keep the summary only. */
function dedupe(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  return errors.filter((e) => e.keyword === 'anyOf' || !anyOfPaths.has(e.instancePath));
}

function toProblem(e: ErrorObject, known: string[]): ComponentProblem {
  const path = e.instancePath.replace(/^\//, '').replace(/~1/g, '/').replace(/~0/g, '~');
  if (e.keyword === 'additionalProperty' || e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    const where = path === '' ? extra : `${path}/${extra}`;
    const siblings = path === '' ? known : Object.keys(((e.parentSchema ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
    const guess = closest(extra, siblings);
    return { property: where, message: `unknown property${guess ? `; did you mean ${guess}?` : ''}`, severity: 'error' };
  }
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return { property: path === '' ? missing : `${path}/${missing}`, message: 'is required', severity: 'error' };
  }
  const description = ((e.parentSchema ?? {}) as { description?: string }).description ?? e.message ?? 'a valid value';
  const expected = e.keyword === 'type' ? `${withArticle(String((e.params as { type: unknown }).type))} (${description})` : description;
  return { property: path, message: `${shownValue(path, e.data)}expected ${expected}`, severity: 'error' };
}

/** The offending value as the error shows it: masked, whatever its JSON type, when it sits under a secret key. */
function shownValue(path: string, data: unknown): string {
  if (data === undefined) return '';
  if (path.split('/').some(isSecretKey)) return `${MASK} (${withArticle(jsonTypeName(data))}): `;
  return `${JSON.stringify(data)?.slice(0, 80)}: `;
}

function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function withArticle(type: string): string {
  return /^[aeiou]/i.test(type) ? `an ${type}` : `a ${type}`;
}
