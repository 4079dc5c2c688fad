/**
 * The light XML tree every XML kind works on: one monomorphic node class (V8 keeps property
 * access fast), children in plain arrays, namespace URIs resolved once by the parser.
 *
 * Namespace declarations (`xmlns`, `xmlns:p`) are kept among an element's attributes so the
 * serialiser writes them back where they were, but with their own node type: XPath's attribute
 * axis does not see them.
 *
 * Document order is a number per node, given by the parser and renumbered lazily after a
 * change ({@link documentOrder}), so sorting node sets never walks the tree.
 */

export const ELEMENT = 1;
export const ATTRIBUTE = 2;
export const TEXT = 3;
export const CDATA = 4;
export const PROCESSING_INSTRUCTION = 7;
export const COMMENT = 8;
export const DOCUMENT = 9;
/** A namespace declaration written as an attribute (`xmlns:p="uri"`). */
export const NAMESPACE_DECLARATION = 13;
/** A namespace node of XPath's namespace axis: name and local name are the prefix, the value is the URI. */
export const NAMESPACE = 18;

const NO_NODES: XNode[] = [];

/**
 * Document-order numbers come from one counter for every tree, so nodes of different trees
 * never compare equal and sorting needs no tree identity.
 */
const ORDER = { next: 1 };

export class XNode {
  /** Position in document order (creation order until a change makes the tree renumber). */
  order = ORDER.next++;
  /** On a document: its nodes' `order` numbers are out of date. */
  orderStale = false;

  constructor(
    readonly type: number,
    /** Qualified name of an element or attribute, target of a processing instruction, '' otherwise. */
    readonly name: string,
    readonly prefix: string,
    readonly local: string,
    /** Namespace URI of an element or attribute, '' for none. */
    readonly ns: string,
    /** Text of a text, CDATA, comment, processing instruction or attribute. */
    public value: string,
    public parent: XNode | null,
    /** Replaced only by the parser, which gives each element an array of exactly its children. */
    public children: XNode[],
    public attrs: XNode[],
  ) {}

  get isElement(): boolean {
    return this.type === ELEMENT;
  }

  /** XPath string value: the text of a leaf, the concatenated descendant text of an element or document. */
  stringValue(): string {
    if (this.type !== ELEMENT && this.type !== DOCUMENT) return this.value;
    return descendantText(this);
  }

  /** The document element of a document node. */
  documentElement(): XNode | undefined {
    for (const c of this.children) if (c.type === ELEMENT) return c;
    return undefined;
  }

  /** The value of an attribute by qualified name, or undefined. */
  attribute(name: string): string | undefined {
    for (const a of this.attrs) if (a.name === name && a.type === ATTRIBUTE) return a.value;
    return undefined;
  }

  root(): XNode {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a cursor that walks up from this node, not a saved `this`
    let n: XNode = this;
    while (n.parent !== null) n = n.parent;
    return n;
  }
}

function descendantText(node: XNode): string {
  const children = node.children;
  if (children.length === 1) {
    const only = children[0]!;
    return only.type === TEXT || only.type === CDATA ? only.value : only.type === ELEMENT ? descendantText(only) : '';
  }
  let s = '';
  for (const c of children) {
    if (c.type === TEXT || c.type === CDATA) s += c.value;
    else if (c.type === ELEMENT) s += descendantText(c);
  }
  return s;
}

export function newDocument(): XNode {
  return new XNode(DOCUMENT, '', '', '', '', '', null, [], NO_NODES);
}

export function newElement(name: string, prefix: string, local: string, ns: string, parent: XNode | null): XNode {
  return new XNode(ELEMENT, name, prefix, local, ns, '', parent, [], []);
}

export function newAttribute(name: string, prefix: string, local: string, ns: string, value: string, parent: XNode | null): XNode {
  return new XNode(ATTRIBUTE, name, prefix, local, ns, value, parent, NO_NODES, NO_NODES);
}

export function newNamespaceDeclaration(name: string, uri: string, parent: XNode | null): XNode {
  const local = name === 'xmlns' ? '' : name.slice(6);
  return new XNode(NAMESPACE_DECLARATION, name, 'xmlns', local, '', uri, parent, NO_NODES, NO_NODES);
}

/** A text, CDATA, comment or processing instruction (name = target). */
export function newLeaf(type: number, value: string, parent: XNode | null, name = ''): XNode {
  return new XNode(type, name, '', name, '', value, parent, NO_NODES, NO_NODES);
}

function markChanged(node: XNode): void {
  node.root().orderStale = true;
}

export function removeChild(parent: XNode, child: XNode): void {
  const at = parent.children.indexOf(child);
  if (at < 0) return;
  markChanged(parent);
  parent.children.splice(at, 1);
  child.parent = null;
}

export function appendChild(parent: XNode, child: XNode): void {
  if (child.parent !== null) removeChild(child.parent, child);
  parent.children.push(child);
  child.parent = parent;
  markChanged(parent);
}

const NAMESPACE_NODES = new WeakMap<XNode, XNode[]>();

/**
 * The namespace nodes of an element (XPath 1.0 §5.4): one per prefix in scope, in libxml2's order: `xml`, then
 * the in-scope declarations from the outermost to the element's own, each element's in reverse; made once per
 * element, so the same node comes back each time.
 */
export function namespaceNodes(el: XNode): XNode[] {
  let nodes = NAMESPACE_NODES.get(el);
  if (nodes !== undefined) return nodes;
  const bindings: Array<[string, string]> = [];
  const seen = new Set<string>(['xml']);
  for (let n: XNode | null = el; n !== null && n.type === ELEMENT; n = n.parent) {
    for (const a of n.attrs) {
      if (a.type !== NAMESPACE_DECLARATION || seen.has(a.local)) continue;
      seen.add(a.local);
      if (a.value !== '') bindings.push([a.local, a.value]);
    }
  }
  bindings.push(['xml', 'http://www.w3.org/XML/1998/namespace']);
  // created in their order, so their document-order numbers agree with it
  nodes = bindings.reverse().map(([prefix, uri]) => new XNode(NAMESPACE, prefix, '', prefix, '', uri, el, NO_NODES, NO_NODES));
  NAMESPACE_NODES.set(el, nodes);
  return nodes;
}

/** Per document whose DTD declares ID attributes: the names of those attributes, by element name. */
const ID_ATTRIBUTES = new WeakMap<XNode, ReadonlyMap<string, readonly string[]>>();

export function setIdAttributes(doc: XNode, ids: ReadonlyMap<string, readonly string[]>): void {
  ID_ATTRIBUTES.set(doc, ids);
}

/** The attributes of type ID its document's DTD declares for an element (xml:id is not among them). */
export function idAttributesOf(doc: XNode): ReadonlyMap<string, readonly string[]> | undefined {
  return ID_ATTRIBUTES.get(doc);
}

/** A deep copy with no parent (attributes and namespace declarations included). */
export function deepCopy(node: XNode): XNode {
  const copy = new XNode(
    node.type,
    node.name,
    node.prefix,
    node.local,
    node.ns,
    node.value,
    null,
    node.children.length === 0 && node.type !== ELEMENT && node.type !== DOCUMENT ? NO_NODES : [],
    node.attrs.length === 0 && node.type !== ELEMENT ? NO_NODES : [],
  );
  const ids = ID_ATTRIBUTES.get(node);
  if (ids !== undefined) ID_ATTRIBUTES.set(copy, ids);
  for (const a of node.attrs) {
    const ac = deepCopy(a);
    ac.parent = copy;
    copy.attrs.push(ac);
  }
  for (const c of node.children) {
    const cc = deepCopy(c);
    cc.parent = copy;
    copy.children.push(cc);
  }
  return copy;
}

/** Numbers every node of the tree holding `node` in document order, if a change made the numbers stale. */
function documentOrder(node: XNode): number {
  const root = node.root();
  if (root.orderStale) {
    renumber(root);
    root.orderStale = false;
  }
  return node.order;
}

function renumber(node: XNode): void {
  node.order = ORDER.next++;
  for (const a of node.attrs) a.order = ORDER.next++;
  for (const c of node.children) renumber(c);
}

/** Sorts nodes into document order and drops duplicates, in place. */
export function sortDocumentOrder(nodes: XNode[]): XNode[] {
  if (nodes.length < 2) return nodes;
  if (nodes[0]!.root().orderStale || nodes[nodes.length - 1]!.root().orderStale) for (const n of nodes) documentOrder(n);
  let sorted = true;
  for (let i = 1; i < nodes.length; i++) {
    if (nodes[i - 1]!.order >= nodes[i]!.order) {
      sorted = false;
      break;
    }
  }
  if (sorted) return nodes;
  nodes.sort((a, b) => a.order - b.order);
  let w = 1;
  for (let i = 1; i < nodes.length; i++) if (nodes[i] !== nodes[w - 1]) nodes[w++] = nodes[i]!;
  nodes.length = w;
  return nodes;
}
