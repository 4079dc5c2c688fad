/** One configuration problem, naming the file, the component, the property and what was expected. */
export interface ConfigProblem {
  readonly file: string;
  /** Component name, or "(flow)" for flow-level properties. */
  readonly component: string;
  /** Property path inside the component, e.g. "Capacity" or "Ruleset/0/KeyTemplat"; "" for the whole component. */
  readonly property: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}
