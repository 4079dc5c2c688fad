/**
 * Safe XML parsing and the serialisation xcut, xmerge and JSON2XML use (docs/evaluator/transforms.md).
 *
 * Safety: the parser (xml-parser.ts) is non-validating and never loads anything: no external
 * DTD, no external entity, no network or file access. A document whose DOCTYPE declares
 * entities (`<!ENTITY ...>`, the vehicle of XXE and "billion laughs") is rejected outright, as
 * is any reference to an undeclared entity; an external DTD reference
 * (`<!DOCTYPE r SYSTEM "...">`) is accepted and ignored. Nesting is bounded.
 *
 * Serialisation: exactly one XML declaration `<?xml version="1.0" encoding="UTF-8" standalone="no"?>`
 * (the input's own declaration is not a node, so it is never written twice), a newline, the
 * document indented by 4 spaces where an element holds only elements (mixed content is written
 * as is), and a final newline. The DOCTYPE is not written back. Attributes and namespace
 * declarations keep their document order (the original's Java serialiser sorted them by name).
 * Text escapes `& < >` and a carriage return (`&#13;`, so it survives being read back).
 */
import { TransformProblem } from './errors';
import { CDATA, COMMENT, ELEMENT, PROCESSING_INSTRUCTION, TEXT, XNode } from './xml-dom';
import { XmlSyntaxError, parseXmlText } from './xml-parser';

/** Why a text was refused as XML; callers turn it into their typed error. */
export class XmlRejection extends TransformProblem {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause);
    this.name = 'XmlRejection';
  }
}

/** Parses a document; anything not well-formed or unsafe is an {@link XmlRejection}. */
export function parseXml(text: string): XNode {
  try {
    return parseXmlText(text);
  } catch (e) {
    if (e instanceof XmlSyntaxError) throw new XmlRejection(e.reason, e);
    throw e;
  }
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>';

export function serializeXml(doc: XNode): string {
  let out = XML_DECLARATION + '\n';
  for (const n of doc.children) out = writeNode(out, n, 0) + '\n';
  return out;
}

const INDENTS: string[] = [''];
function indent(depth: number): string {
  while (INDENTS.length <= depth) INDENTS.push(INDENTS[INDENTS.length - 1] + '    ');
  return INDENTS[depth]!;
}

const BREAKS: string[] = [];
/** The line break and indentation written before a node at `depth` in an element that {@link holdsOnlyMarkup}. */
export function lineBreakAt(depth: number): string {
  return (BREAKS[depth] ??= '\n' + indent(depth));
}

/** Appends a node to `out` and returns the longer text (one growing string, no string per subtree). */
function writeNode(out: string, node: XNode, depth: number): string {
  switch (node.type) {
    case ELEMENT:
      return writeElement(out, node, depth);
    case TEXT:
      return out + escapeText(node.value);
    case CDATA:
      return out + '<![CDATA[' + node.value.split(']]>').join(']]]]><![CDATA[>') + ']]>';
    case COMMENT:
      return out + '<!--' + node.value + '-->';
    case PROCESSING_INSTRUCTION:
      return out + '<?' + node.name + (node.value ? ' ' + node.value : '') + '?>';
    default:
      return out;
  }
}

function writeElement(out: string, el: XNode, depth: number): string {
  out += '<' + el.name;
  for (const a of el.attrs) out += ' ' + a.name + '="' + escapeAttribute(a.value) + '"';
  const children = el.children;
  if (children.length === 0) return out + '/>';
  out += '>';
  if (holdsOnlyMarkup(el)) {
    const inner = lineBreakAt(depth + 1);
    for (const c of children) {
      if (c.type === TEXT) continue; // whitespace-only: replaced by indentation
      out = writeNode(out + inner, c, depth + 1);
    }
    out += lineBreakAt(depth);
  } else {
    for (const c of children) out = writeNode(out, c, depth + 1);
  }
  return out + '</' + el.name + '>';
}

/** True when an element has element children and its only text is whitespace (so indenting loses nothing). */
export function holdsOnlyMarkup(el: XNode): boolean {
  let elements = 0;
  for (const c of el.children) {
    if (c.type === ELEMENT) elements++;
    else if (c.type === TEXT) {
      if (!isBlank(c.value)) return false;
    } else if (c.type === CDATA) return false;
  }
  return elements > 0;
}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false;
  }
  return true;
}

const TEXT_SPECIAL = /[&<>\r]/;
/** A carriage return is written as `&#13;`: a literal one would be read back as a newline. */
export function escapeText(s: string): string {
  return TEXT_SPECIAL.test(s) ? s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]!) : s;
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

const ATTRIBUTE_SPECIAL = /[&<"\t\n\r]/;
export function escapeAttribute(s: string): string {
  return ATTRIBUTE_SPECIAL.test(s) ? s.replace(/[&<"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]!) : s;
}

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };
