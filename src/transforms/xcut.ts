/**
 * xcut (evaluator.md §13.3): `"XPath": "expression"` (a string) removes the selected nodes from
 * the XML body and re-serialises it (§13.1).
 * - Nothing selected, or the first node has no parent (an attribute): nothing changes, code 0.
 * - Every selected node must share the parent of the first; otherwise the transform fails and
 *   nothing is removed.
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { readRewritableBodyText } from './body';
import { SelectionError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { stringKey } from './ruleset-values';
import { serializeXml } from './safe-xml';
import { commonParent, compileXPathKey, parseXmlInput } from './xml-support';

const KIND = 'xcut';

export function compileXCut(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const expression = compileXPathKey(stringKey(ruleset, 'XPath', ctx), 'XPath', ctx);
  return (msg) => {
    const doc = parseXmlInput(readRewritableBodyText(msg, KIND, rulesetName), KIND, rulesetName, 'the body');
    const nodes = perMessage(KIND, rulesetName, () => expression.selectNodes(doc));
    if (nodes.length === 0 || !nodes[0]!.parentNode) return;
    const parent = commonParent(nodes);
    if (parent === undefined) throw new SelectionError(KIND, rulesetName, 'XPath', `${expression.source} selects nodes with different parents`);
    for (const node of nodes) parent.removeChild(node);
    replaceBodyText(msg, serializeXml(doc));
  };
}

export const xcutKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.xcut,
  keys: ['XPath'],
  needsBody: true,
  detect: (ruleset) => typeof ruleset.XPath === 'string',
  compile: compileXCut,
};
