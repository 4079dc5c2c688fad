/** Configuration problems, each naming the file, the component, the property and what was expected. */
import type { ConfigProblem } from '../errors/config-problem';
import { XrouteError } from '../foundation/xroute-error';

export type { ConfigProblem };

/**
 * A component's own check may word its message as "<component>: <property>: ..." (its errors are also
 * thrown at run time, where that context is needed); in a report that names both already, drop them.
 */
export function withoutContext(component: string, property: string, message: string): string {
  let m = message;
  if (component !== '' && m.startsWith(`${component}: `)) m = m.slice(component.length + 2);
  if (property !== '' && m.startsWith(`${property}: `)) m = m.slice(property.length + 2);
  else if (property !== '' && m.startsWith(`property ${property}: `)) m = m.slice(property.length + 11);
  return m;
}

export function formatProblem(p: ConfigProblem): string {
  const where = [p.file, p.component, p.property].filter((s) => s !== '').join(': ');
  return `${p.severity === 'warning' ? 'warning' : 'error'}: ${where}: ${p.message}`;
}

/** A topology or component configuration that cannot be used; carries every problem found. */
export class ConfigError extends XrouteError {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      problems
        .filter((p) => p.severity === 'error')
        .map(formatProblem)
        .join('\n') || 'invalid configuration',
    );
    this.name = 'ConfigError';
  }
}

/** A file that is not valid JSON: where (line and column) and why. */
export class JsonSyntaxError extends XrouteError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${file}:${line}:${column}: invalid JSON: ${reason}`, options);
    this.name = 'JsonSyntaxError';
  }
}

/** How deep a configuration may nest maps and lists; deeper input is refused before anything walks it. */
export const MAX_CONFIG_DEPTH = 64;

/**
 * Where `json` first nests deeper than `max` levels ("Ruleset/0/..."), or undefined. Iterative, so that hostile
 * input cannot exhaust the stack of the check meant to stop it.
 */
export function tooDeepAt(json: unknown, max = MAX_CONFIG_DEPTH): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: json, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= max) return path;
    for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: path === '' ? k : `${path}/${k}`, depth: depth + 1 });
  }
  return undefined;
}

/**
 * A configuration value as a user reads it in a message: strings quoted and cut at 60 characters, other JSON
 * types named ("false (a JSON boolean)") so that "expected a string" makes sense. Never walks into a map or list.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'boolean') return `${value} (a JSON boolean)`;
  if (typeof value === 'number') return `${value} (a JSON number)`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'a map';
  return typeof value;
}

/**
 * An operating-system error reading a configuration file, said in words (no EISDIR/ENOENT text). Without `file`
 * the sentence names no path, for reports that name the file already.
 */
export function describeFileError(error: unknown, file?: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const it = file === undefined ? '' : `${file} `;
  const theFile = file === undefined ? '' : `file ${file} `;
  switch (code) {
    case 'ENOENT':
      return `${theFile}does not exist`;
    case 'EISDIR':
      return `${it}is a directory, not a file`;
    case 'EACCES':
    case 'EPERM':
      return `${theFile}cannot be read: permission denied`;
    case 'ENOTDIR':
      return `${theFile}does not exist (a part of its path is not a directory)`;
    default:
      return `${theFile}cannot be read${code ? ` (${code})` : ''}`;
  }
}
