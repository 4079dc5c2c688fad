/** Errors of the JMS message selector: a selector that does not parse is a configuration error. */
import { XrouteError } from '../foundation/xroute-error';

export class SelectorSyntaxError extends XrouteError {
  constructor(
    /** The selector text as configured. */
    readonly selector: string,
    /** 1-based character position of the problem. */
    readonly position: number,
    /** What is wrong there and what was expected. */
    readonly reason: string,
  ) {
    super(`invalid JMS selector at position ${position}: ${reason} in ${JSON.stringify(selector)}`);
    this.name = 'SelectorSyntaxError';
  }
}
