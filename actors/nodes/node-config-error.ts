/** A node configuration value that cannot be used; `property` is a path such as "Ruleset/0/Threshold". */
export class NodeConfigError extends Error {
  constructor(
    readonly component: string,
    readonly property: string,
    readonly problem: string,
    readonly expected?: string,
  ) {
    super(`${component}: ${property}: ${problem}${expected !== undefined ? ` (expected ${expected})` : ''}`);
    this.name = 'NodeConfigError';
  }

  /** The message without the component and property, for reports that name them already. */
  detail(): string {
    return this.problem + (this.expected !== undefined ? ` (expected ${this.expected})` : '');
  }
}
