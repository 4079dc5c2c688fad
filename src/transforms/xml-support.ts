/**
 * The glue the XML kinds share: parsing a message's XML into a typed per-message error, and
 * compiling ruleset XPath expressions into typed configuration errors.
 */
import type { Document, Node } from '@xmldom/xmldom';
import { TransformConfigError, TransformError, XmlInputError } from './errors';
import type { TransformCompileContext } from './kind-types';
import { XmlRejection, parseXml } from './safe-xml';
import { CompiledXPath, XPathProblem } from './xpath-expression';

export function parseXmlInput(text: string, kind: string, ruleset: string, what: string): Document {
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlRejection) throw new XmlInputError(kind, ruleset, what, e.reason);
    throw e;
  }
}

/** Compiles a ruleset's XPath at start-up; a bad one is a configuration error naming the key. */
export function compileXPathKey(expression: string, key: string, ctx: TransformCompileContext): CompiledXPath {
  try {
    return CompiledXPath.compile(expression);
  } catch (e) {
    if (e instanceof XPathProblem) throw new TransformConfigError({ ruleset: ctx.rulesetName, key }, e.reason, 'an XPath 1.0 expression without namespace prefixes');
    throw e;
  }
}

/** Runs an XPath step for one message, turning its failure into a per-message TransformError. */
export function perMessage<T>(kind: string, ruleset: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof XPathProblem) throw new TransformError(kind, ruleset, e.reason);
    throw e;
  }
}

/** The common parent of nodes that must be siblings (xcut, xmerge replace mode); undefined if they are not. */
export function commonParent(nodes: readonly Node[]): Node | undefined {
  const parent = nodes[0]?.parentNode ?? undefined;
  if (parent === undefined) return undefined;
  return nodes.every((n) => n.parentNode === parent) ? parent : undefined;
}
