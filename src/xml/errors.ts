/**
 * The errors of the XML engine, and the failure the libraries under the ruleset kinds throw (the XML engine
 * here and the JSON libraries of src/transforms).
 */
import { XrouteError } from '../foundation/xroute-error';

/**
 * A library-level failure (bad XPath, bad JSON path, XSLT failure, rejected XML) that knows
 * nothing of rulesets. The kinds turn it into a TransformConfigError at start-up or a
 * TransformError for one message (asConfigError, perMessage in src/transforms/errors.ts).
 */
export class TransformProblem extends XrouteError {
  constructor(
    readonly reason: string,
    cause?: unknown,
  ) {
    super(reason, cause === undefined ? undefined : { cause });
    this.name = 'TransformProblem';
  }
}

/** A stylesheet construct this engine refuses or cannot compile; the message names it. */
export class XsltCompileError extends XrouteError {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause === undefined ? undefined : { cause });
    this.name = 'XsltCompileError';
  }
}

/** A transform that failed on one input (xsl:message terminate="yes", a type error, too deep recursion). */
export class XsltRuntimeError extends XrouteError {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause === undefined ? undefined : { cause });
    this.name = 'XsltRuntimeError';
  }
}
