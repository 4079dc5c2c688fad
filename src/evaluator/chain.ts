/**
 * A rule name that lists several rulesets: `a,b` runs them as a chain, `a|b` applies the first that
 * matches, `a:b` applies every one that matches (src/rules/rule-lists.ts holds the three behaviours).
 */
import { Message } from '../message/message';
import { ListRuntime, evaluateColonList, evaluateCommaList, evaluatePipeList, splitRuleList } from '../rules/rule-lists';

export type RuleList = NonNullable<ReturnType<typeof splitRuleList>>;
export { splitRuleList };
export type { ListRuntime };

/** Evaluates `msg` against a rule list; returns the final code, a Promise only when an item was asynchronous. */
export function evaluateRuleList(list: RuleList, ruleName: string, msg: Message, rt: ListRuntime): number | Promise<number> {
  switch (list.separator) {
    case ',':
      return evaluateCommaList(list.items, ruleName, msg, rt);
    case '|':
      return evaluatePipeList(list.items, ruleName, msg, rt);
    case ':':
      return evaluateColonList(list.items, ruleName, msg, rt);
  }
}
