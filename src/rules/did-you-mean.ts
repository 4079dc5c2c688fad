/** "Did you mean" text for misspelt configuration keys, on the project's one suggestion helper. */
import { closest } from '../config/did-you-mean';

/** `; did you mean "X"?` or an empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closest(name, candidates);
  return c === undefined ? '' : `; did you mean ${JSON.stringify(c)}?`;
}
