/**
 * Typed errors of the transformation kinds.
 *
 * - {@link TransformConfigError}: raised while compiling a ruleset at start-up (missing file, bad
 *   XPath/JSONata/XSLT, wrong value type). Start-up aborts; the message names ruleset and key.
 * - {@link TransformError} and its subclasses: raised by a compiled transform for one message.
 *   The engine turns any of them into EXCEPTION (RC -1), see docs/components/message-evaluator.md. Changes a
 *   transform made before failing are kept (no rollback, docs/components/message-evaluator.md).
 */
import { XrouteError } from '../foundation/xroute-error';
import { RuleConfigError, ConfigWhere } from '../rules/errors';
import { TransformProblem } from '../xml/errors';

export class TransformConfigError extends RuleConfigError {
  constructor(where: ConfigWhere, problem: string, expected?: string, cause?: unknown) {
    super(where, problem, expected, cause);
    this.name = 'TransformConfigError';
  }
}

export { TransformProblem };

/** Runs a per-message step, turning a TransformProblem into a TransformError of the ruleset. */
export function perMessage<T>(kind: string, ruleset: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof TransformProblem) throw new TransformError(kind, ruleset, e.reason, e);
    throw e;
  }
}

/** Runs a start-up step, turning a TransformProblem into a TransformConfigError naming the key. */
export function asConfigError<T>(where: ConfigWhere, expected: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof TransformProblem) throw new TransformConfigError(where, e.reason, expected, e);
    throw e;
  }
}

/** Why a transform failed for one message; `kind` is the ruleset kind name (e.g. `xcut`). */
export class TransformError extends XrouteError {
  constructor(
    readonly kind: string,
    readonly ruleset: string,
    readonly problem: string,
    cause?: unknown,
  ) {
    super(`ruleset ${JSON.stringify(ruleset)} (${kind}): ${problem}`, cause === undefined ? undefined : { cause });
    this.name = 'TransformError';
  }
}

/** The body (or an XMLField property) is not well-formed XML, or declares entities. */
export class XmlInputError extends TransformError {
  constructor(kind: string, ruleset: string, what: string, reason: string, cause?: unknown) {
    super(kind, ruleset, `${what} is not acceptable XML: ${reason}`, cause);
    this.name = 'XmlInputError';
  }
}

/** The body (or a JSONField property) is not JSON. */
export class JsonInputError extends TransformError {
  constructor(kind: string, ruleset: string, what: string, reason: string, cause?: unknown) {
    super(kind, ruleset, `${what} is not JSON: ${reason}`, cause);
    this.name = 'JsonInputError';
  }
}

/** The message body has a type the transform cannot read or rewrite (none, map, object). */
export class BodyTypeError extends TransformError {
  constructor(kind: string, ruleset: string, bodyKind: string, expected: string) {
    super(kind, ruleset, `the message body is ${bodyKind}, expected ${expected}`);
    this.name = 'BodyTypeError';
  }
}

/** A path or expression selected nothing where something was required, or did not fit the data. */
export class SelectionError extends TransformError {
  constructor(kind: string, ruleset: string, key: string, problem: string) {
    super(kind, ruleset, `${key}: ${problem}`);
    this.name = 'SelectionError';
  }
}
