/**
 * The root of the errors the running system throws: the runtime, the links, the transports, the components and
 * the per-message errors of the evaluator. Each subclass carries typed fields to act on and, when it wraps another
 * error, that error as the standard `cause` (ErrorOptions), so a log or a status shows the whole chain.
 * Configuration values have their own root, ConfigValueError (docs/configuration-errors.md).
 */
export class XrouteError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
