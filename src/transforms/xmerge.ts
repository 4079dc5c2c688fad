/**
 * xmerge (docs/evaluator/transforms.md): copies nodes of the XML held in a message property into the XML
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
import { SelectionError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { flagKey, stringKey } from './ruleset-values';
import {
  ATTRIBUTE,
  CDATA,
  DOCUMENT,
  ELEMENT,
  NAMESPACE_DECLARATION,
  TEXT,
  XNode,
  appendChild,
  deepCopy,
  newNamespaceDeclaration,
  removeChild,
} from '../xml/xml-dom';
import { commonParent, compileXPathKey, domParent, forgetXmlBody, parseXmlInput, readXmlBody, writeXmlBody } from './xml-support';

const KIND = 'xmerge';
const ALL_CHILDREN_OF_ROOT = '/*/*';

export function compileXMerge(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const field = stringKey(ruleset, 'XMLField', ctx);
  const source = compileXPathKey(stringKey(ruleset, 'SourceXPath', ctx, ALL_CHILDREN_OF_ROOT), 'SourceXPath', ctx);
  const target = compileXPathKey(stringKey(ruleset, 'TargetXPath', ctx, ALL_CHILDREN_OF_ROOT), 'TargetXPath', ctx);
  const replace = flagKey(ruleset, 'ReplaceMode', ctx);
  // The source document is only read (its nodes are copied), so messages carrying the same
  // source text share one parse of it: the last one, by text.
  let lastSourceText: string | undefined;
  let lastSourceDoc: XNode | undefined;
  const sourceDocument = (text: string): XNode => {
    if (text !== lastSourceText || lastSourceDoc === undefined) {
      lastSourceDoc = parseXmlInput(text, KIND, rulesetName, `property ${JSON.stringify(field)}`);
      lastSourceText = text;
    }
    return lastSourceDoc;
  };
  return (msg) => {
    const sourceText = msg.getProperty(field);
    if (sourceText === undefined) throw new SelectionError(KIND, rulesetName, 'XMLField', `the message has no property ${JSON.stringify(field)}`);
    const sourceDoc = sourceDocument(sourceText);
    const sourceNodes = perMessage(KIND, rulesetName, () => source.selectNodes(sourceDoc));
    const doc = readXmlBody(msg, KIND, rulesetName, true);
    const targets = perMessage(KIND, rulesetName, () => target.selectNodes(doc));
    if (targets.length === 0) return;
    const parent = replace ? commonParent(targets) : domParent(targets[0]!);
    if (!parent) throw new SelectionError(KIND, rulesetName, 'TargetXPath', `${target.source} selects nodes without one common parent`);
    const misfit = appendProblem(parent, sourceNodes, replace ? targets : []);
    if (misfit !== undefined) throw new SelectionError(KIND, rulesetName, 'SourceXPath', `cannot append ${source.source}: ${misfit}`);
    if (sourceNodes.length === 0 && !replace) return;
    forgetXmlBody(msg);
    if (replace) for (const node of targets) removeChild(parent, node);
    for (const node of sourceNodes) appendChild(parent, withInheritedNamespaces(deepCopy(node), node, parent));
    writeXmlBody(msg, doc);
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

/** Why a DOM would refuse the appends: attributes or documents as children; text or a second root element under the document. */
function appendProblem(parent: XNode, nodes: readonly XNode[], removed: readonly XNode[]): string | undefined {
  if (nodes.some((n) => n.type === ATTRIBUTE || n.type === DOCUMENT)) return 'attributes and documents cannot be appended as children';
  if (parent.type !== DOCUMENT) return undefined;
  if (nodes.some((n) => n.type === TEXT || n.type === CDATA)) return 'a document cannot hold text';
  const elements = [...parent.children.filter((c) => !removed.includes(c)), ...nodes].filter((n) => n.type === ELEMENT).length;
  return elements > 1 ? 'a document can hold only one root element' : undefined;
}

/**
 * A copied element keeps the namespace declarations it inherited in the source and uses (a
 * `<p:c/>` taken from `<s xmlns:p="urn:p">`), unless the target already binds them the same way,
 * so the merged document stays namespace-well-formed.
 */
function withInheritedNamespaces(copy: XNode, source: XNode, target: XNode): XNode {
  if (copy.type !== ELEMENT || source.parent === null) return copy;
  const atTarget = namespacesInScope(target);
  const own = new Set(copy.attrs.filter((a) => a.type === NAMESPACE_DECLARATION).map((a) => a.local));
  for (const [prefix, uri] of namespacesInScope(source.parent)) {
    if (own.has(prefix) || (atTarget.get(prefix) ?? '') === uri || !usesPrefix(copy, prefix)) continue;
    copy.attrs.push(newNamespaceDeclaration(prefix === '' ? 'xmlns' : `xmlns:${prefix}`, uri, copy));
  }
  return copy;
}

function namespacesInScope(node: XNode): Map<string, string> {
  const found = new Map<string, string>();
  for (let n: XNode | null = node; n !== null; n = n.parent) {
    for (const a of n.attrs) if (a.type === NAMESPACE_DECLARATION && !found.has(a.local)) found.set(a.local, a.value);
  }
  return found;
}

function usesPrefix(el: XNode, prefix: string): boolean {
  if (el.type !== ELEMENT) return false;
  if (el.prefix === prefix && (prefix !== '' || el.ns !== '')) return true;
  if (prefix !== '' && el.attrs.some((a) => a.type === ATTRIBUTE && a.prefix === prefix)) return true;
  return el.children.some((c) => usesPrefix(c, prefix));
}
