import { ConfigValueError } from '../../src/errors/config-value-error';
import { RuleConfigError } from '../../src/rules/errors';
import { ComponentConfigError } from '../support/config-values';

/** A node configuration value that cannot be used; `property` is a path such as "Ruleset/0/Threshold". */
export class NodeConfigError extends ConfigValueError {
  constructor(
    component: string,
    property: string,
    readonly problem: string,
    /** What was expected, when the problem does not say it already. */
    readonly expectation?: string,
    cause?: unknown,
  ) {
    super(
      { component, property, expected: expectation ?? problem, cause },
      { detail: problem + (expectation !== undefined ? ` (expected ${expectation})` : '') },
    );
    this.name = 'NodeConfigError';
  }
}

/** JobNodeConfigError, CollectNodeConfigError: a node's own subclass. */
export type NodeConfigErrorClass = new (component: string, property: string, problem: string, expectation?: string, cause?: unknown) => NodeConfigError;

/**
 * Rethrows an error of the config reader or the rules engine, met while reading the node's map at `prefix`
 * ("Ruleset/2", or "" for the node's own properties), as the node's error class with the path from the node.
 */
export function rethrowAsNodeError(errorClass: NodeConfigErrorClass, component: string, prefix: string, e: unknown): never {
  const join = (p: string | undefined) => [prefix, p].filter((x) => x !== undefined && x !== '').join('/');
  if (e instanceof ComponentConfigError)
    throw new errorClass(component, join(e.property), e.value === undefined ? 'is missing' : `${JSON.stringify(e.value)} cannot be used`, e.expected, e);
  if (e instanceof RuleConfigError) throw new errorClass(component, join(e.key?.split('.')[0]?.replace(/\[\d+\]$/, '')), e.problem, e.expectation, e);
  if (e instanceof errorClass && prefix !== '') throw new errorClass(component, join(e.property), e.problem, e.expectation, e.cause);
  throw e;
}
