/**
 * Safe XML parsing and the serialisation xcut/xmerge use (evaluator.md §13.1).
 *
 * Safety: the parser (@xmldom/xmldom) is non-validating and never loads anything: no external
 * DTD, no external entity, no network or file access. On top of that, a document whose DOCTYPE
 * declares entities (`<!ENTITY ...>`, the vehicle of XXE and "billion laughs") is rejected
 * outright, as is any reference to an undeclared entity; an external DTD reference
 * (`<!DOCTYPE r SYSTEM "...">`) is accepted and ignored. The same check guards the text the
 * XSLT engine parses ({@link assertNoEntityDeclarations}).
 *
 * Serialisation: the XML declaration `<?xml version="1.0" encoding="UTF-8" standalone="no"?>`,
 * a newline, the document indented by 4 spaces where an element holds only elements (mixed
 * content is written as is), and a final newline. The DOCTYPE is not written back. Text escapes
 * `& < >` and a carriage return (`&#13;`, so it survives being read back).
 */
import { TransformProblem } from './errors';
import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';
import type { Document, Element, Node, ProcessingInstruction } from '@xmldom/xmldom';

/** Why a text was refused as XML; callers turn it into their typed error. */
export class XmlRejection extends TransformProblem {
  constructor(reason: string) {
    super(reason);
    this.name = 'XmlRejection';
  }
}

const DOCTYPE = /<!DOCTYPE/;
const ENTITY_DECLARATION = /<!ENTITY/;

/** Refuses a document whose DOCTYPE declares general or parameter entities. */
export function assertNoEntityDeclarations(text: string): void {
  if (DOCTYPE.test(text) && ENTITY_DECLARATION.test(text)) {
    throw new XmlRejection('entity declarations in a DOCTYPE are not allowed (external entities are never resolved)');
  }
}

const parser = new DOMParser({ onError: onErrorStopParsing });

export function parseXml(text: string): Document {
  assertNoEntityDeclarations(text);
  let doc: Document;
  try {
    doc = parser.parseFromString(text, 'text/xml');
  } catch (e) {
    throw new XmlRejection(firstLine((e as Error).message));
  }
  if (!doc.documentElement) throw new XmlRejection('no root element');
  return doc;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>';

export function serializeXml(doc: Document): string {
  const out: string[] = [XML_DECLARATION, '\n'];
  for (let n: Node | null = doc.firstChild; n !== null; n = n.nextSibling) {
    if (n.nodeType === NODE.DOCUMENT_TYPE) continue;
    writeNode(n, 0, out);
    out.push('\n');
  }
  return out.join('');
}

const NODE = { ELEMENT: 1, TEXT: 3, CDATA: 4, PI: 7, COMMENT: 8, DOCUMENT_TYPE: 10 } as const;
const INDENT = '    ';

function writeNode(node: Node, depth: number, out: string[]): void {
  switch (node.nodeType) {
    case NODE.ELEMENT:
      writeElement(node as Element, depth, out);
      return;
    case NODE.TEXT:
      out.push(escapeText(node.nodeValue ?? ''));
      return;
    case NODE.CDATA:
      out.push('<![CDATA[', (node.nodeValue ?? '').split(']]>').join(']]]]><![CDATA[>'), ']]>');
      return;
    case NODE.COMMENT:
      out.push('<!--', node.nodeValue ?? '', '-->');
      return;
    case NODE.PI:
      out.push('<?', (node as ProcessingInstruction).target, node.nodeValue ? ' ' + node.nodeValue : '', '?>');
      return;
    default:
      return;
  }
}

function writeElement(el: Element, depth: number, out: string[]): void {
  out.push('<', el.tagName);
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    out.push(' ', a.name, '="', escapeAttribute(a.value), '"');
  }
  if (el.firstChild === null) {
    out.push('/>');
    return;
  }
  out.push('>');
  if (holdsOnlyMarkup(el)) {
    for (let c: Node | null = el.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === NODE.TEXT) continue; // whitespace-only: replaced by indentation
      out.push('\n', INDENT.repeat(depth + 1));
      writeNode(c, depth + 1, out);
    }
    out.push('\n', INDENT.repeat(depth));
  } else {
    for (let c: Node | null = el.firstChild; c !== null; c = c.nextSibling) writeNode(c, depth + 1, out);
  }
  out.push('</', el.tagName, '>');
}

/** True when an element has element children and its only text is whitespace (so indenting loses nothing). */
function holdsOnlyMarkup(el: Element): boolean {
  let elements = 0;
  for (let c: Node | null = el.firstChild; c !== null; c = c.nextSibling) {
    if (c.nodeType === NODE.ELEMENT) elements++;
    else if (c.nodeType === NODE.TEXT) {
      if ((c.nodeValue ?? '').trim() !== '') return false;
    } else if (c.nodeType === NODE.CDATA) return false;
  }
  return elements > 0;
}

/** A carriage return is written as `&#13;`: a literal one would be read back as a newline. */
function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!);
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

function escapeAttribute(s: string): string {
  return s.replace(/[&<"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]!);
}

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}
