/**
 * Where an XSLT transformation writes: the result as text (`method="text"`), as serialised XML
 * (`method="xml"`, written while it is produced, no tree in between), or as a tree (a variable's
 * content, a result tree fragment). All three take the same events.
 */
import { escapeAttribute, escapeText } from './safe-xml';
import {
  ATTRIBUTE,
  CDATA,
  COMMENT,
  DOCUMENT,
  ELEMENT,
  NAMESPACE,
  NAMESPACE_DECLARATION,
  PROCESSING_INSTRUCTION,
  TEXT,
  XNode,
  newAttribute,
  newDocument,
  newElement,
  newLeaf,
  newNamespaceDeclaration,
} from './xml-dom';

export interface ResultWriter {
  startElement(name: string, ns: string): void;
  /** A namespace binding the current element needs (written only where it is not already in scope). */
  namespace(prefix: string, uri: string): void;
  attribute(name: string, ns: string, value: string): void;
  text(s: string, disableEscaping?: boolean): void;
  comment(s: string): void;
  processingInstruction(target: string, data: string): void;
  endElement(): void;
}

/** `method="text"`: only the text reaches the output. */
export class TextWriter implements ResultWriter {
  out = '';
  startElement(): void {}
  namespace(): void {}
  attribute(): void {}
  text(s: string): void {
    this.out += s;
  }
  comment(): void {}
  processingInstruction(): void {}
  endElement(): void {}
}

export interface XmlWriterOptions {
  readonly declaration: string | undefined;
  readonly indent: boolean;
  readonly doctype?: { readonly system?: string; readonly public?: string };
}

type Bindings = Readonly<Record<string, string>>;
// not frozen: scopes inherit from it, and assigning over a frozen inherited property throws
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const NO_BINDINGS: Bindings = Object.assign(Object.create(null) as Record<string, string>, { '': '', xml: XML_NAMESPACE });
/** A scope of bindings that adds one to `outer`. */
function bind(outer: Bindings, prefix: string, uri: string): Bindings {
  const bindings = Object.create(outer) as Record<string, string>;
  bindings[prefix] = uri;
  return bindings;
}

function declaration(prefix: string, uri: string): string {
  return (prefix === '' ? ' xmlns="' : ` xmlns:${prefix}="`) + escapeAttribute(uri) + '"';
}

/** Saxon's indentation, which the XSLT kind used before. */
const INDENT = '   ';

interface OpenElement {
  readonly name: string;
  readonly ns: string;
  /** The prefix of the element's name, and whether the element declares it itself (written after the others). */
  readonly prefix: string;
  declaresOwn: boolean;
  /** Per attribute, four entries: the name as written, the namespace and local name that identify it, the value. */
  readonly attrs: string[];
  /** Namespace declarations written on this element, prefix then URI. */
  readonly decls: string[];
  bindings: Bindings;
}

/** `method="xml"`: serialises as it goes; a start tag stays open until its first content so attributes can still come. */
export class XmlWriter implements ResultWriter {
  private out: string;
  /** The start tag not written yet. */
  private open: OpenElement | undefined;
  private readonly stack: OpenElement[] = [];
  private afterMarkup = false;
  private started = false;

  constructor(private readonly options: XmlWriterOptions) {
    this.out = options.declaration ?? '';
  }

  result(): string {
    this.flush();
    return this.out;
  }

  /** False while nothing but the declaration was written (an empty result leaves the body as it was). */
  wroteAnything(): boolean {
    return this.started || this.out.length > (this.options.declaration?.length ?? 0);
  }

  private startTag(o: OpenElement): string {
    let tag = '<' + o.name;
    for (let i = 0; i < o.decls.length; i += 2) tag += declaration(o.decls[i]!, o.decls[i + 1]!);
    // the element's own binding goes after the namespaces it was given, as Saxon writes them
    if (o.declaresOwn) tag += declaration(o.prefix, o.ns);
    const attrs = o.attrs;
    for (let i = 0; i < attrs.length; i += 4) tag += ' ' + attrs[i] + '="' + escapeAttribute(attrs[i + 3]!) + '"';
    return tag;
  }

  private flush(): void {
    if (this.open === undefined) return;
    this.out += this.startTag(this.open) + '>';
    this.open = undefined;
  }

  private newline(depth: number): void {
    if (this.options.indent && this.afterMarkup && this.started) this.out += '\n' + INDENT.repeat(depth);
  }

  startElement(name: string, ns: string): void {
    this.flush();
    this.newline(this.stack.length);
    if (!this.started) {
      this.started = true;
      if (this.options.indent && this.out !== '') this.out += '\n';
      const d = this.options.doctype;
      if (d !== undefined && (d.system !== undefined || d.public !== undefined)) {
        this.out +=
          `<!DOCTYPE ${name}${d.public !== undefined ? ` PUBLIC "${d.public}"` : ' SYSTEM'}${d.system !== undefined ? ` "${d.system}"` : ''}>` +
          (this.options.indent ? '\n' : '');
      }
    }
    const parent = this.stack[this.stack.length - 1];
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    let bindings = parent === undefined ? NO_BINDINGS : parent.bindings;
    const declaresOwn = prefix !== 'xml' && bindings[prefix] !== ns && !(prefix !== '' && ns === '');
    if (declaresOwn) bindings = bind(bindings, prefix, ns);
    const o: OpenElement = { name, ns, prefix, declaresOwn, attrs: [], decls: [], bindings };
    this.open = o;
    this.stack.push(o);
    this.afterMarkup = true;
  }

  /** A namespace the element's own name binds differently, or that it already declares, is left out. */
  namespace(prefix: string, uri: string): void {
    const o = this.open;
    if (o === undefined) return;
    if (prefix === o.prefix) {
      // the element's own binding keeps its place among the namespaces it was given
      if (uri === o.ns && o.declaresOwn) {
        o.declaresOwn = false;
        o.decls.push(prefix, uri);
      }
      return;
    }
    if (prefix === 'xml' || o.bindings[prefix] === uri || (prefix !== '' && uri === '') || this.declaredHere(o, prefix)) return;
    this.declare(o, prefix, uri);
  }

  private declare(o: OpenElement, prefix: string, uri: string): void {
    o.bindings = bind(o.bindings, prefix, uri);
    o.decls.push(prefix, uri);
  }

  private declaredHere(o: OpenElement, prefix: string): boolean {
    if (o.declaresOwn && o.prefix === prefix) return true;
    for (let i = 0; i < o.decls.length; i += 2) if (o.decls[i] === prefix) return true;
    return false;
  }

  attribute(name: string, ns: string, value: string): void {
    const o = this.open;
    if (o === undefined) return; // an attribute after content is ignored, as XSLT 1.0 allows
    const colon = name.indexOf(':');
    const local = colon < 0 ? name : name.slice(colon + 1);
    const attrs = o.attrs;
    for (let i = 0; i < attrs.length; i += 4) {
      if (attrs[i + 2] === local && attrs[i + 1] === ns) {
        attrs[i + 3] = value;
        return;
      }
    }
    attrs.push(ns === '' ? local : this.attributePrefix(o, colon < 0 ? '' : name.slice(0, colon), ns) + ':' + local, ns, local, value);
  }

  /**
   * The prefix a namespaced attribute is written with (namespace fixup, docs/evaluator/transforms.md): the
   * requested one where it is free or bound to the same URI, else another in-scope prefix of the URI, else a
   * new one (`p_1`, and `ns_1` for an unprefixed name), the way libxslt chooses.
   */
  private attributePrefix(o: OpenElement, requested: string, ns: string): string {
    if (ns === XML_NAMESPACE) return 'xml';
    const wanted = requested === '' || requested === 'xmlns' || requested === 'xml' ? 'ns_1' : requested;
    const bound = o.bindings[wanted];
    if (bound === ns) return wanted;
    const occupied =
      this.declaredHere(o, wanted) || (bound !== undefined && (wanted === o.prefix || o.attrs.some((a, i) => i % 4 === 0 && a.startsWith(wanted + ':'))));
    if (!occupied) {
      this.declare(o, wanted, ns);
      return wanted;
    }
    for (const p in o.bindings) if (p !== '' && o.bindings[p] === ns) return p;
    let fresh = wanted;
    for (let n = 1; o.bindings[fresh] !== undefined; n++) fresh = `${wanted}_${n}`;
    this.declare(o, fresh, ns);
    return fresh;
  }
  text(s: string, disableEscaping = false): void {
    if (s === '') return;
    this.flush();
    this.out += disableEscaping ? s : escapeText(s);
    this.afterMarkup = false;
  }

  comment(s: string): void {
    this.flush();
    this.newline(this.stack.length);
    this.out += '<!--' + s.replace(/--/g, '- -').replace(/-$/, '- ') + '-->';
    this.afterMarkup = true;
  }

  processingInstruction(target: string, data: string): void {
    this.flush();
    this.newline(this.stack.length);
    this.out += '<?' + target + (data === '' ? '' : ' ' + data.replace(/\?>/g, '? >')) + '?>';
    this.afterMarkup = true;
  }

  endElement(): void {
    const o = this.stack.pop();
    if (o === undefined) return;
    if (this.open === o) {
      this.out += this.startTag(o) + '/>';
      this.open = undefined;
    } else {
      this.newline(this.stack.length);
      this.out += '</' + o.name + '>';
    }
    this.afterMarkup = true;
  }
}

const RESULT_TREE_FRAGMENTS = new WeakSet<readonly XNode[]>();

/** The value of a variable whose content built `doc`: a result tree fragment, as exsl:object-type tells. */
export function resultTreeFragment(doc: XNode): XNode[] {
  const value = [doc];
  RESULT_TREE_FRAGMENTS.add(value);
  return value;
}

export function isResultTreeFragment(value: readonly XNode[]): boolean {
  return RESULT_TREE_FRAGMENTS.has(value);
}

/** A result tree fragment: the events build a document node. */
export class TreeWriter implements ResultWriter {
  readonly doc = newDocument();
  private current: XNode = this.doc;

  startElement(name: string, ns: string): void {
    const colon = name.indexOf(':');
    const el = newElement(name, colon < 0 ? '' : name.slice(0, colon), colon < 0 ? name : name.slice(colon + 1), ns, this.current);
    this.current.children.push(el);
    this.current = el;
  }

  namespace(prefix: string, uri: string): void {
    if (this.current.type !== ELEMENT || this.current.children.length > 0) return;
    const name = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
    if (this.current.attrs.some((a) => a.type === NAMESPACE_DECLARATION && a.name === name)) return;
    this.current.attrs.push(newNamespaceDeclaration(name, uri, this.current));
  }

  attribute(name: string, ns: string, value: string): void {
    if (this.current.type !== ELEMENT || this.current.children.length > 0) return;
    const colon = name.indexOf(':');
    const local = colon < 0 ? name : name.slice(colon + 1);
    const existing = this.current.attrs.findIndex((a) => a.type === ATTRIBUTE && a.local === local && a.ns === ns);
    const attr = newAttribute(name, colon < 0 ? '' : name.slice(0, colon), local, ns, value, this.current);
    if (existing >= 0) this.current.attrs[existing] = attr;
    else this.current.attrs.push(attr);
  }

  text(s: string): void {
    if (s === '') return;
    const children = this.current.children;
    const last = children[children.length - 1];
    if (last !== undefined && last.type === TEXT) last.value += s;
    else children.push(newLeaf(TEXT, s, this.current));
  }

  comment(s: string): void {
    this.current.children.push(newLeaf(COMMENT, s, this.current));
  }

  processingInstruction(target: string, data: string): void {
    this.current.children.push(newLeaf(PROCESSING_INSTRUCTION, data, this.current, target));
  }

  endElement(): void {
    this.current = this.current.parent ?? this.doc;
  }
}

/** Writes a node and (when deep) its content as events; an element brings the namespaces in scope on it. */
export function copyNode(node: XNode, out: ResultWriter, deep: boolean, withAncestorNamespaces = true): void {
  switch (node.type) {
    case DOCUMENT:
      if (deep) for (const c of node.children) copyNode(c, out, true, true);
      return;
    case ELEMENT: {
      out.startElement(node.name, node.ns);
      for (const [prefix, uri] of namespacesOf(node, withAncestorNamespaces)) out.namespace(prefix, uri);
      if (deep) for (const a of node.attrs) if (a.type === ATTRIBUTE) out.attribute(a.name, a.ns, a.value);
      if (deep) {
        for (const c of node.children) copyNode(c, out, true, false);
        out.endElement();
      }
      return;
    }
    case ATTRIBUTE:
      out.attribute(node.name, node.ns, node.value);
      return;
    case NAMESPACE:
      out.namespace(node.local, node.value);
      return;
    case TEXT:
    case CDATA:
      out.text(node.value);
      return;
    case COMMENT:
      out.comment(node.value);
      return;
    case PROCESSING_INSTRUCTION:
      out.processingInstruction(node.name, node.value);
      return;
  }
}

/** The namespace declarations on an element, and with `inherited` those of its ancestors still in scope. */
function namespacesOf(el: XNode, inherited: boolean): Map<string, string> {
  const found = new Map<string, string>();
  for (let n: XNode | null = el; n !== null && n.type === ELEMENT; n = inherited ? n.parent : null) {
    for (const a of n.attrs) {
      if (a.type === NAMESPACE_DECLARATION && !found.has(a.local)) found.set(a.local, a.value);
    }
  }
  return found;
}
