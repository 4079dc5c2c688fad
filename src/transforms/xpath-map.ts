/**
 * XPath map (docs/evaluator/transforms.md): `"XPath": {"property": "expression", ...}` sets each property
 * to the XPath string value of its expression over the XML body (`""` when nothing is
 * selected). Expressions are compiled at start-up; one containing `##name##` is rendered from
 * the message and compiled for each message. Properties set before a failure stay set.
 */
import { isRecord } from '../rules/errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { hasPlaceholder, messageValue } from './message-values';
import { stringMapKey } from './ruleset-values';
import { CompiledXPath } from './xpath-expression';
import { compileXPathKey, readXmlBody } from './xml-support';
import { perMessage } from './errors';
import type { Message } from '../message/message';

const KIND = 'xpath-map';

export function compileXPathMap(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const entries = Object.entries(stringMapKey(ruleset, 'XPath', ctx)).map(([property, expression]) => {
    if (!hasPlaceholder(expression)) {
      const compiled = compileXPathKey(expression, `XPath.${property}`, ctx);
      return { property, expressionFor: (): CompiledXPath => compiled };
    }
    const render = messageValue(expression, `XPath.${property}`, ctx);
    return { property, expressionFor: (msg: Message): CompiledXPath => perMessage(KIND, rulesetName, () => CompiledXPath.compile(render(msg))) };
  });
  return (msg) => {
    const doc = readXmlBody(msg, KIND, rulesetName);
    for (const { property, expressionFor } of entries) {
      const expression = expressionFor(msg);
      msg.setProperty(
        property,
        perMessage(KIND, rulesetName, () => expression.stringValue(doc)),
      );
    }
  };
}

export const xpathMapKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.xpathMap,
  keys: ['XPath'],
  needsBody: true,
  detect: (ruleset) => isRecord(ruleset.XPath),
  compile: compileXPathMap,
};
