/**
 * The failure the libraries under the ruleset kinds throw: the XML engine here and the JSON libraries of
 * src/transforms.
 */

/**
 * A library-level failure (bad XPath, bad JSON path, XSLT failure, rejected XML) that knows
 * nothing of rulesets. The kinds turn it into a TransformConfigError at start-up or a
 * TransformError for one message (asConfigError, perMessage in src/transforms/errors.ts).
 */
export class TransformProblem extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'TransformProblem';
  }
}
