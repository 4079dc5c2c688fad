/**
 * xcut (docs/evaluator/transforms.md): `"XPath": "expression"` (a string) removes the selected nodes from
 * the XML body and re-serialises it (docs/evaluator/transforms.md).
 * - Nothing selected, or the first node has no parent (an attribute): nothing changes, code 0.
 * - The output has exactly one XML declaration, whether or not the input had one.
 * - Every selected node must share the parent of the first; otherwise the transform fails and
 *   nothing is removed.
 */
import { SelectionError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { stringKey } from './ruleset-values';
import { removeChild } from '../xml/xml-dom';
import { commonParent, compileXPathKey, domParent, forgetXmlBody, readXmlBody, writeXmlBody } from './xml-support';

const KIND = 'xcut';

export function compileXCut(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const expression = compileXPathKey(stringKey(ruleset, 'XPath', ctx), 'XPath', ctx);
  return (msg) => {
    const doc = readXmlBody(msg, KIND, rulesetName, true);
    const nodes = perMessage(KIND, rulesetName, () => expression.selectNodes(doc));
    if (nodes.length === 0 || domParent(nodes[0]!) === undefined) return;
    const parent = commonParent(nodes);
    if (parent === undefined) throw new SelectionError(KIND, rulesetName, 'XPath', `${expression.source} selects nodes with different parents`);
    forgetXmlBody(msg);
    for (const node of nodes) removeChild(parent, node);
    writeXmlBody(msg, doc);
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
