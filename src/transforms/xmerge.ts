/**
 * xmerge (evaluator.md §13.4): copies nodes of the XML held in a message property into the XML
 * body.
 *
 * | key          | default | meaning                                                          |
 * |--------------|---------|------------------------------------------------------------------|
 * | XMLField     | (req.)  | property whose value is the source XML                           |
 * | SourceXPath  | `/*\/*` | nodes to copy from the source (default: children of its root)    |
 * | TargetXPath  | `/*\/*` | nodes of the body; the parent of the first one receives the copies |
 * | ReplaceMode  | `false` | `"true"` (any case): remove every target node first              |
 *
 * Merging only appends: deep copies of the source nodes go at the end of the target parent's
 * children. ReplaceMode removes the target nodes (which must share one parent) before
 * appending, so the copies do not take the removed nodes' places. No target node: nothing
 * changes, code 0. XMLField missing or not XML, body not XML: the transform fails.
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { readRewritableBodyText } from './body';
import { SelectionError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { flagKey, stringKey } from './ruleset-values';
import { serializeXml } from './safe-xml';
import { commonParent, compileXPathKey, parseXmlInput } from './xml-support';

const KIND = 'xmerge';
const ALL_CHILDREN_OF_ROOT = '/*/*';

export function compileXMerge(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const field = stringKey(ruleset, 'XMLField', ctx);
  const source = compileXPathKey(stringKey(ruleset, 'SourceXPath', ctx, ALL_CHILDREN_OF_ROOT), 'SourceXPath', ctx);
  const target = compileXPathKey(stringKey(ruleset, 'TargetXPath', ctx, ALL_CHILDREN_OF_ROOT), 'TargetXPath', ctx);
  const replace = flagKey(ruleset, 'ReplaceMode', ctx);
  return (msg) => {
    const sourceText = msg.getProperty(field);
    if (sourceText === undefined) throw new SelectionError(KIND, rulesetName, 'XMLField', `the message has no property ${JSON.stringify(field)}`);
    const sourceDoc = parseXmlInput(sourceText, KIND, rulesetName, `property ${JSON.stringify(field)}`);
    const sourceNodes = perMessage(KIND, rulesetName, () => source.selectNodes(sourceDoc));
    const doc = parseXmlInput(readRewritableBodyText(msg, KIND, rulesetName), KIND, rulesetName, 'the body');
    const targets = perMessage(KIND, rulesetName, () => target.selectNodes(doc));
    if (targets.length === 0) return;
    const parent = replace ? commonParent(targets) : targets[0]!.parentNode;
    if (!parent) throw new SelectionError(KIND, rulesetName, 'TargetXPath', `${target.source} selects nodes without one common parent`);
    if (replace) for (const node of targets) parent.removeChild(node);
    try {
      for (const node of sourceNodes) parent.appendChild(doc.importNode(node, true));
    } catch (e) {
      throw new SelectionError(KIND, rulesetName, 'SourceXPath', `cannot append ${source.source}: ${(e as Error).message}`);
    }
    if (sourceNodes.length > 0 || replace) replaceBodyText(msg, serializeXml(doc));
  };
}

export const xmergeKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.xmerge,
  keys: ['XMLField', 'SourceXPath', 'TargetXPath', 'ReplaceMode'],
  needsBody: true,
  detect: (ruleset) => ruleset.XMLField !== undefined && ruleset.XMLField !== null,
  compile: compileXMerge,
};
