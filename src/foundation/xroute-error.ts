/**
 * The root of the errors the running system throws: the runtime, the links, the transports, the components and
 * the per-message errors of the evaluator. Each subclass carries typed fields to act on and, when it wraps another
 * error, that error as the standard `cause` (ErrorOptions), so a log or a status shows the whole chain.
 * Configuration values have their own subtree under it, ConfigValueError (docs/configuration-errors.md), and the
 * command line its UsageError.
 */
export class XrouteError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
