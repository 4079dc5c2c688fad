/** Configuration problems, each naming the file, the component, the property and what was expected. */

export interface ConfigProblem {
  readonly file: string;
  /** Component name, or "(flow)" for flow-level properties. */
  readonly component: string;
  /** Property path inside the component, e.g. "Capacity" or "Ruleset/0/KeyTemplat"; "" for the whole component. */
  readonly property: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

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
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.filter((p) => p.severity === 'error').map(formatProblem).join('\n') || 'invalid configuration');
    this.name = 'ConfigError';
  }
}

/** A file that is not valid JSON: where (line and column) and why. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column}: invalid JSON: ${reason}`);
    this.name = 'JsonSyntaxError';
  }
}
