/**
 * The glue the XML kinds share: parsing a message's XML into a typed per-message error, one
 * parsed tree per message body shared by every XML step of a ruleset chain, and compiling
 * ruleset XPath expressions into typed configuration errors.
 *
 * The parsed body is remembered against the body object itself (a message gets a new body
 * object whenever its body changes), so a later step reuses the tree only while the body is
 * the one it was parsed from. A step that changes the tree (xcut, xmerge) takes it out first:
 * the tree it leaves behind is not what parsing its own output would give (indentation).
 */
import type { Message, MessageBody } from '../message';
import { XmlInputError, asConfigError } from './errors';
import type { TransformCompileContext } from './kind-types';
import { readBodyText, readRewritableBodyText } from './body';
import { XmlRejection, parseXml } from './safe-xml';
import { ATTRIBUTE, XNode } from './xml-dom';
import { CompiledXPath } from './xpath-expression';

export function parseXmlInput(text: string, kind: string, ruleset: string, what: string): XNode {
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlRejection) throw new XmlInputError(kind, ruleset, what, e.reason);
    throw e;
  }
}

const parsedBodies = new WeakMap<MessageBody, XNode>();

/** The body's tree for reading (XPath maps, XSLT, XML2JSON), parsed at most once per body. */
export function readXmlBody(msg: Message, kind: string, ruleset: string, rewritable = false): XNode {
  const body = msg.body;
  const known = parsedBodies.get(body);
  if (known !== undefined) {
    if (rewritable) readRewritableBodyText(msg, kind, ruleset); // the body-type check still applies
    return known;
  }
  const text = rewritable ? readRewritableBodyText(msg, kind, ruleset) : readBodyText(msg, kind, ruleset);
  const doc = parseXmlInput(text, kind, ruleset, 'the body');
  parsedBodies.set(body, doc);
  return doc;
}

/** Called before a step changes the body's tree: no later step may take the changed tree for the body's. */
export function forgetXmlBody(msg: Message): void {
  parsedBodies.delete(msg.body);
}

/** Compiles a ruleset's XPath at start-up; a bad one is a configuration error naming the key. */
export function compileXPathKey(expression: string, key: string, ctx: TransformCompileContext): CompiledXPath {
  return asConfigError(ctx.where(key), 'an XPath 1.0 expression without namespace prefixes', () => CompiledXPath.compile(expression));
}

/** The common parent of nodes that must be siblings (xcut, xmerge replace mode); undefined if they are not. */
export function commonParent(nodes: readonly XNode[]): XNode | undefined {
  const parent = nodes[0] === undefined ? undefined : domParent(nodes[0]);
  if (parent === undefined) return undefined;
  return nodes.every((n) => domParent(n) === parent) ? parent : undefined;
}

/** The parent as the DOM sees it: an attribute has none (it is not a child of its element). */
export function domParent(node: XNode): XNode | undefined {
  return node.type === ATTRIBUTE ? undefined : (node.parent ?? undefined);
}
