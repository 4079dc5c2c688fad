/**
 * The glue the XML kinds share: parsing a message's XML into a typed per-message error, one
 * parsed tree per message body shared by every XML step of a ruleset chain, and compiling
 * ruleset XPath expressions into typed configuration errors.
 *
 * The last parsed body is remembered with the body object itself (a message gets a new body
 * object whenever its body changes), so the next XML step of the same chain reuses the tree
 * while the body is the one it was parsed from. One entry is enough: a ruleset chain runs its
 * steps for one message one after another, and holding no more keeps the trees of the
 * messages in flight out of the garbage collector's way (a WeakMap over 1,024 messages in
 * flight halved the throughput). A step that changes the tree (xcut, xmerge) forgets it first,
 * then writes the body with {@link writeXmlBody}, which remembers the changed tree for the new
 * body: the next XML step makes it the tree parsing the new body would give (xml-settle.ts)
 * rather than parsing again, and parses only where that cannot be promised.
 */
import type { Message, MessageBody } from '../message/message';
import { XmlInputError, asConfigError } from './errors';
import type { TransformCompileContext } from './kind-types';
import { readBodyText, readRewritableBodyText } from './body';
import { replaceBodyText } from '../rules/kinds/body-writer';
import { XmlRejection, parseXml, serializeXml } from '../xml/safe-xml';
import { settleAsReparsed } from './xml-settle';
import { ATTRIBUTE, XNode } from '../xml/xml-dom';
import { CompiledXPath } from './xpath-expression';

export function parseXmlInput(text: string, kind: string, ruleset: string, what: string): XNode {
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlRejection) throw new XmlInputError(kind, ruleset, what, e.reason, e);
    throw e;
  }
}

let lastBody: MessageBody | undefined;
let lastTree: XNode | undefined;
/** The remembered tree was written out by xcut or xmerge and not yet made what parsing its text would give. */
let lastUnsettled = false;

/** The remembered tree, settled if it needs to be; undefined if it cannot be (then it is forgotten). */
function rememberedTree(): XNode | undefined {
  if (lastUnsettled && lastTree !== undefined) {
    lastUnsettled = false;
    if (!settleAsReparsed(lastTree)) lastTree = lastBody = undefined;
  }
  return lastTree;
}

/** The body's tree for reading (XPath maps, XSLT, XML2JSON), parsed once for the steps of a chain. */
export function readXmlBody(msg: Message, kind: string, ruleset: string, rewritable = false): XNode {
  const body = msg.body;
  if (body === lastBody && rememberedTree() !== undefined) {
    if (rewritable) readRewritableBodyText(msg, kind, ruleset); // the body-type check still applies
    return lastTree!;
  }
  const text = rewritable ? readRewritableBodyText(msg, kind, ruleset) : readBodyText(msg, kind, ruleset);
  const doc = parseXmlInput(text, kind, ruleset, 'the body');
  lastBody = body;
  lastTree = doc;
  lastUnsettled = false;
  return doc;
}

/** Called before a step changes the body's tree: no later step may take the changed tree for the body's. */
export function forgetXmlBody(msg: Message): void {
  if (msg.body === lastBody) {
    lastBody = undefined;
    lastTree = undefined;
    lastUnsettled = false;
  }
}

/**
 * Replaces the body with the serialisation of a tree the step changed (after
 * {@link forgetXmlBody}) and remembers the tree for the new body, to be settled only if a later
 * step of the chain reads it (a chain of one step pays nothing for it).
 */
export function writeXmlBody(msg: Message, doc: XNode): void {
  replaceBodyText(msg, serializeXml(doc));
  lastBody = msg.body;
  lastTree = doc;
  lastUnsettled = true;
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
