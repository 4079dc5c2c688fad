/**
 * Validates one component configuration against the common properties and its class's own schema (ajv),
 * then the class's own checks. Unknown properties get a "did you mean" when a known name is close.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { AnyComponentDefinition, ComponentConfig, ConfigIssue, JsonSchema, ValidationContext } from '../runtime/component';
import { issueOf, settingsIssues } from './config-issues';
import { COMMON_PROPERTIES, FLOW_PROPERTIES } from '../foundation/common-schema';
import { closest } from '../foundation/did-you-mean';
import { MASK } from '../logging/redact';
import { isSecretProperty, isSecretSchema } from '../foundation/secret-properties';
import { describeValue, MAX_CONFIG_DEPTH, tooDeepAt } from './errors';

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
    properties: {
      ...COMMON_PROPERTIES,
      ...(own.properties ?? {}),
      Operation: { type: 'string', enum: [...def.operations], description: `one of ${def.operations.map((o) => JSON.stringify(o)).join(', ')}` },
    },
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

// Component keys sit beside the flow properties, so unknown keys are the loader's business, not this schema's.
const flowValidator = ajv.compile({ type: 'object', properties: FLOW_PROPERTIES });

/** Problems of the flow-level properties (Capacity, Supervision, PluginDir, ...) of a topology. */
export function validateFlowProperties(json: Record<string, unknown>): ComponentProblem[] {
  return flowValidator(json) ? [] : schemaProblems(flowValidator.errors ?? [], Object.keys(FLOW_PROPERTIES));
}

export function validateComponentConfig(
  def: AnyComponentDefinition,
  config: unknown,
  baseDir: string,
  context: ValidationContext = { pluginDirs: [] },
): ComponentProblem[] {
  const problems: ComponentProblem[] = [];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [{ property: '', message: 'expected a JSON object with the component properties', severity: 'error' }];
  }
  const deep = tooDeepAt(config);
  if (deep !== undefined) return [tooDeepProblem(deep)];
  const validate = validatorFor(def);
  if (!validate(config)) {
    const known = Object.keys((componentSchema(def) as { properties: Record<string, unknown> }).properties);
    problems.push(...schemaProblems(validate.errors ?? [], known));
  }
  if (problems.length === 0) problems.push(...ownProblems(def, config as ComponentConfig, baseDir, context));
  return problems;
}

/** The name a component's messages use while it is validated on its own (its Name, else its class). */
function nameFor(def: AnyComponentDefinition, config: ComponentConfig): string {
  return typeof config.Name === 'string' && config.Name.trim() !== '' ? config.Name : def.className.split('.').pop()!;
}

/**
 * The settings reader, then the definition's further checks (warnings such as a property without effect are
 * worth saying even when another property is wrong). A check that throws after the reader failed has tripped
 * over the same value, so only the reader's problem is reported.
 */
function ownProblems(def: AnyComponentDefinition, config: ComponentConfig, baseDir: string, context: ValidationContext): ComponentProblem[] {
  const issues: ConfigIssue[] =
    def.settings === undefined ? [] : settingsIssues((warn) => def.settings?.(nameFor(def, config), config, baseDir, { ...context, warn }));
  const readFailed = issues.some((issue) => issue.severity !== 'warning');
  try {
    issues.push(...(def.validate?.(config, baseDir, context) ?? []));
  } catch (e) {
    if (!readFailed) issues.push(issueOf(e));
  }
  // A check that reads a property on its own (a pool checks each one) finds the reader's problem again: said once.
  const said = new Set<string>();
  return issues
    .map((issue) => ({ property: issue.property, message: issue.message, severity: issue.severity ?? 'error' }))
    .filter((p) => {
      const key = `${p.severity}\0${p.property}\0${p.message}`;
      if (said.has(key)) return false;
      said.add(key);
      return true;
    });
}

/** The problem of a configuration nested deeper than any real one (refused before anything walks it). */
export function tooDeepProblem(path: string): ComponentProblem {
  const [first, ...rest] = path.split('/');
  return {
    property: first,
    message: `nested deeper than ${MAX_CONFIG_DEPTH} levels (at ${[first, ...rest].slice(0, 6).join('/')}${rest.length > 5 ? '/…' : ''}): expected a configuration of at most ${MAX_CONFIG_DEPTH} nested maps and lists`,
    severity: 'error',
  };
}

/** Properties of the original's serial-port support, which xroute does not have: one message, not one per property. */
const SERIAL_PROPERTIES = new Set(['Device', 'BaudRate', 'DataBits', 'StopBits', 'Parity', 'FlowControl']);
const SERIAL_MESSAGE =
  'serial ports are not supported (Device, BaudRate, DataBits, StopBits, Parity): expected a tcp://host:port or file://path URI; a serial-to-TCP bridge such as ser2net can serve the port over TCP';

/** ajv's errors as problems, the original's serial-port properties folded into one. */
function schemaProblems(errors: readonly ErrorObject[], known: string[]): ComponentProblem[] {
  const out: ComponentProblem[] = [];
  let serial = false;
  for (const e of dedupe(errors)) {
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    if (e.instancePath === '' && extra !== undefined && SERIAL_PROPERTIES.has(extra)) {
      if (!serial) out.push({ property: extra, message: SERIAL_MESSAGE, severity: 'error' });
      serial = true;
      continue;
    }
    out.push(toProblem(e, known));
  }
  return out;
}

/**
 * One problem per value: anyOf produces one error per branch plus a summary (keep the summary), and a value of
 * the wrong JSON type also fails its enum or pattern (keep the type error).
 */
function dedupe(errors: readonly ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const typePaths = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return errors.filter(
    (e) => (e.keyword === 'anyOf' || !anyOfPaths.has(e.instancePath)) && (e.keyword === 'type' || e.keyword === 'anyOf' || !typePaths.has(e.instancePath)),
  );
}

interface DescribedSchema {
  type?: string;
  pattern?: string;
  description?: string;
}

/**
 * What a value of a string-pattern schema must look like, told from what the pattern accepts (component schemas
 * write their patterns in several ways; their descriptions say what a value means, not its form).
 */
function formOf(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    return undefined;
  }
  if (re.test('x')) return undefined;
  if (re.test('true') && re.test('false')) return 'the string "true" or "false"';
  if (!re.test('5')) return undefined;
  if (re.test('-5')) return 'an integer';
  return re.test('0') ? 'an integer >= 0' : 'a positive integer';
}

/**
 * What was expected, in words: the value's form first ("a positive integer"), then what it means when the
 * description says more. "as a string" is dropped for a value that is one, and said for one that is not.
 */
function expected(schema: DescribedSchema, data: unknown, fallback: string): string {
  const form = formOf(schema.pattern);
  const description = schema.description;
  const notAString = schema.type === 'string' && typeof data !== 'string';
  if (!form) {
    const what = description ?? fallback;
    return notAString && !/string/.test(what) ? `${what}, written as a JSON string` : what;
  }
  const meaning = description?.replace(/ as a string/, '');
  let text = meaning === undefined || meaning === form || meaning === '"true" or "false"' ? form : meaning.startsWith(form) ? meaning : `${form} (${meaning})`;
  if (notAString && !/string/.test(form)) text += `, written as a JSON string${typeof data === 'number' ? ` ("${data}")` : ''}`;
  return text;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  array: 'a list',
  object: 'a map',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
};

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
  const schema = (e.parentSchema ?? {}) as DescribedSchema;
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  const fallback =
    e.keyword === 'enum' && allowed ? `one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : (TYPE_NAMES[String(schema.type)] ?? 'a valid value');
  return { property: path, message: `${shownValue(path, e.data, isSecretSchema(schema))}expected ${expected(schema, e.data, fallback)}`, severity: 'error' };
}

/** The offending value as the error shows it: masked, whatever its JSON type, when its schema or a parent's declares a secret. */
function shownValue(path: string, data: unknown, secret: boolean): string {
  if (data === undefined) return '';
  if (secret || isSecretProperty(path)) return `${MASK} (${jsonTypeName(data)}): `;
  return `${describeValue(data)}: `;
}

function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a JSON list';
  return typeof value === 'object' ? 'a JSON map' : `a JSON ${typeof value}`;
}
