/**
 * Typed configuration errors for the rules engine. Every error names where it happened
 * (component, ruleset, key) and what was expected, so an operator can fix the configuration
 * without reading code.
 */
import { XrouteError } from '../foundation/xroute-error';
import { ConfigValueError } from '../errors/config-value-error';

/** Where in a configuration a value sits. Every part is optional: shared modules fill what they know. */
export interface ConfigWhere {
  component?: string;
  ruleset?: string;
  key?: string;
}

function describeWhere(where: ConfigWhere): string {
  const parts: string[] = [];
  if (where.component !== undefined) parts.push(`component ${JSON.stringify(where.component)}`);
  if (where.ruleset !== undefined) parts.push(`ruleset ${JSON.stringify(where.ruleset)}`);
  if (where.key !== undefined) parts.push(`key ${where.key}`);
  return parts.length > 0 ? parts.join(', ') + ': ' : '';
}

/**
 * A rule, template, pattern or substitution in a configuration that cannot be used. Raised at start-up. Its
 * property is "Ruleset/<ruleset>/<key>" (or the key alone outside a ruleset).
 */
export class RuleConfigError extends ConfigValueError {
  readonly ruleset?: string;
  readonly key?: string;
  /** What was expected, when the problem does not say it already. */
  readonly expectation?: string;
  readonly problem: string;

  constructor(where: ConfigWhere, problem: string, expected?: string, cause?: unknown) {
    const detail = problem + (expected !== undefined ? ` (expected ${expected})` : '');
    const property = where.ruleset !== undefined ? ['Ruleset', where.ruleset, where.key].filter((p) => p !== undefined).join('/') : (where.key ?? '');
    super({ component: where.component ?? '', property, expected: expected ?? problem, cause }, { detail, message: describeWhere(where) + detail });
    this.name = 'RuleConfigError';
    this.ruleset = where.ruleset;
    this.key = where.key;
    this.expectation = expected;
    this.problem = problem;
  }
}

/** A regular expression that the Perl5 (Jakarta ORO) dialect rejects or that cannot be translated. */
export class RegexSyntaxError extends RuleConfigError {
  constructor(
    where: ConfigWhere,
    readonly pattern: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(where, `bad regular expression ${JSON.stringify(pattern)}: ${reason}`, 'a Perl5 regular expression', cause);
    this.name = 'RegexSyntaxError';
  }
}

/** Narrowing helper shared by the rules modules: a plain JSON object (not null, not a list). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Adds a key to a where-path without mutating the caller's object. */
export function at(where: ConfigWhere, key: string): ConfigWhere {
  return { ...where, key: where.key === undefined ? key : `${where.key}.${key}` };
}

/**
 * A rule that failed on one message at run time (a substitution returned nothing, a value could not
 * be written, ...). The engine turns it into EXCEPTION (-1) and logs it; it never escapes evaluate().
 */
export class RuleEvaluationError extends XrouteError {
  constructor(
    message: string,
    readonly field?: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'RuleEvaluationError';
  }
}
