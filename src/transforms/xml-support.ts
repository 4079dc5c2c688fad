/**
 * The glue the XML kinds share: parsing a message's XML into a typed per-message error, and
 * compiling ruleset XPath expressions into typed configuration errors.
 */
import type { Document, Node } from '@xmldom/xmldom';
import { XmlInputError, asConfigError } from './errors';
import type { TransformCompileContext } from './kind-types';
import { XmlRejection, parseXml } from './safe-xml';
import { CompiledXPath } from './xpath-expression';

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
  return asConfigError(ctx.where(key), 'an XPath 1.0 expression without namespace prefixes', () => CompiledXPath.compile(expression));
}

/** The common parent of nodes that must be siblings (xcut, xmerge replace mode); undefined if they are not. */
export function commonParent(nodes: readonly Node[]): Node | undefined {
  const parent = nodes[0]?.parentNode ?? undefined;
  if (parent === undefined) return undefined;
  return nodes.every((n) => n.parentNode === parent) ? parent : undefined;
}
