/**
 * Which ruleset of a node a message falls into, by the rulesets' filters: JobNode and CollectNode route by it.
 */
import { Message } from '../../src/message/message';
import { MessageFilter } from '../../src/rules/message-filter';

/**
 * The ruleset matcher: the first ruleset (in definition order, index 0 being nohit) whose filter passes;
 * 0 when none does; `onErrorIndex` (default 0, nohit) when a filter or reading the body throws (`onError` hears why).
 */
export function rulesetMatcher(
  rulesets: readonly { readonly name: string; readonly filter: MessageFilter | undefined }[],
  onError: (ruleset: string, error: unknown) => void,
  onErrorIndex = 0,
): (msg: Message) => number {
  const needsBody = rulesets.some((r) => r.filter?.needsBody === true);
  return (msg) => {
    let body: string | undefined;
    try {
      body = needsBody ? msg.bodyText() : undefined;
    } catch (e) {
      onError('(body)', e);
      return onErrorIndex;
    }
    for (let i = 1; i < rulesets.length; i++) {
      try {
        if ((rulesets[i].filter as MessageFilter).matches(msg, body)) return i;
      } catch (e) {
        onError(rulesets[i].name, e);
        return onErrorIndex;
      }
    }
    return 0;
  };
}
