/**
 * References in configuration strings, resolved when a topology or component file is loaded, so that a
 * password need not sit in the file (the Docker Compose / Benthos convention):
 *
 *   ${NAME}            the environment variable NAME (an error when it is not set)
 *   ${NAME:-default}   NAME, or `default` when NAME is unset or empty
 *   ${file:/path}      the content of a file, e.g. a mounted Docker or Kubernetes secret, without its
 *                      trailing newline (a relative path resolves against the configuration's directory)
 *   $${                a literal "${"
 *
 * Every value read from the environment or a file is a secret, whatever the property it is put in (a
 * `ConnectionRequest` line may carry a password): it is masked wherever it would appear. A default written
 * in the file (`${NAME:-default}`) is not: it is in plain sight in the configuration already.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { ConfigError, ConfigProblem } from './errors';
import { rememberSecret } from '../logging/redact';

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ReferenceSources {
  env: Readonly<Record<string, string | undefined>>;
  readFile: (file: string) => string;
}

const DEFAULT_SOURCES: ReferenceSources = { env: process.env, readFile: (f) => readFileSync(f, 'utf8') };

/** Where a string sits: the component (or "(flow)") and the property path inside it. */
interface Place {
  component: string;
  property: string;
}

/**
 * Returns `json` with every reference in its string values resolved. `topology` says whether the file
 * is a topology (its top-level objects are components) or one component's configuration. Throws a
 * ConfigError naming file, component, property and variable for every reference that cannot be resolved.
 */
export function resolveReferences(json: unknown, file: string, topology: boolean, sources: ReferenceSources = DEFAULT_SOURCES): unknown {
  if (!hasReference(json)) return json;
  const problems: ConfigProblem[] = [];
  const baseDir = path.dirname(file);
  const componentName = !topology && isRecord(json) && typeof json.Name === 'string' ? json.Name : path.basename(file, '.json');

  const resolveString = (text: string, place: Place): string =>
    text.replace(REFERENCE, (whole, body: string | undefined) => (body === undefined ? '${' : (lookUp(body, place) ?? whole)));

  const lookUp = (body: string, place: Place): string | undefined => {
    const problem = (message: string) => problems.push({ file, component: place.component, property: place.property, message, severity: 'error' });
    if (body.startsWith('file:')) {
      const target = path.resolve(baseDir, body.slice(5));
      try {
        return secret(sources.readFile(target).replace(/\r?\n$/, ''));
      } catch (e) {
        problem(`\${${body}}: cannot read the file ${target} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
        return undefined;
      }
    }
    const sep = body.indexOf(':-');
    const name = sep < 0 ? body : body.slice(0, sep);
    if (!ENV_NAME.test(name)) {
      problem(`\${${body}}: expected \${NAME}, \${NAME:-default} or \${file:/path} (write $\${ for a literal "\${")`);
      return undefined;
    }
    const value = sources.env[name];
    if (sep >= 0) return value === undefined || value === '' ? body.slice(sep + 2) : secret(value);
    if (value === undefined) problem(`\${${name}}: the environment variable ${name} is not set (give a default with \${${name}:-default})`);
    return value === undefined ? undefined : secret(value);
  };

  const walk = (value: unknown, place: Place): unknown => {
    if (typeof value === 'string') return resolveString(value, place);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, { ...place, property: join(place.property, String(i)) }));
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, { ...place, property: join(place.property, k) });
    return out;
  };

  let resolved: unknown;
  if (topology && isRecord(json)) {
    resolved = Object.fromEntries(
      Object.entries(json).map(([k, v]) => [k, isRecord(v) ? walk(v, { component: k, property: '' }) : walk(v, { component: '(flow)', property: k })]),
    );
  } else resolved = walk(json, { component: componentName, property: '' });
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}

/** A value read from the environment or a file: remembered as a secret, so that it is masked everywhere. */
function secret(value: string): string {
  rememberSecret(value);
  return value;
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}/${key}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Cheap pre-check: most configurations have no reference at all. */
function hasReference(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('${');
  if (Array.isArray(value)) return value.some(hasReference);
  return isRecord(value) && Object.values(value).some(hasReference);
}
