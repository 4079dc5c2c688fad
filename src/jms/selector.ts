/**
 * JMS message selectors: parsed once (a syntax error is a configuration error with position and reason)
 * and evaluated by xroute itself, so that a broker that ignores the selector filter (RabbitMQ) still yields
 * exactly the selected messages. See selector-eval.ts for the typing and three-valued-logic rules.
 */
import { parseSelector } from './selector-parser';
import { compileNode, Evaluator, SelectorSource } from './selector-eval';
import { SelectorValue } from './selector-ast';

export { SelectorSyntaxError } from './selector-errors';
export type { SelectorSource } from './selector-eval';
export type { SelectorValue } from './selector-ast';

export class JmsSelector {
  private readonly evaluator: Evaluator;

  private constructor(
    readonly text: string,
    evaluator: Evaluator,
  ) {
    this.evaluator = evaluator;
  }

  /** Parses `text`; throws SelectorSyntaxError when it is not a valid JMS selector. */
  static compile(text: string): JmsSelector {
    return new JmsSelector(text, compileNode(parseSelector(text)));
  }

  /** TRUE, FALSE or null (unknown) for this message. */
  evaluate(source: SelectorSource): boolean | null {
    const v = this.evaluator(source);
    return typeof v === 'boolean' ? v : null;
  }

  /** Whether the message is selected: only when the selector is TRUE. */
  matches(source: SelectorSource): boolean {
    return this.evaluator(source) === true;
  }
}

/** A source over a plain record of values (tests, and callers that already hold typed values). */
export function recordSource(values: Readonly<Record<string, SelectorValue | undefined>>): SelectorSource {
  return { get: (name) => (Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined) };
}
