/**
 * A JSON value as XML, for the Translation kind's JSON2XML and PHP2XML (docs/evaluator/transforms.md).
 *
 * The value becomes the content of one root element (`JSON` or `PHP`):
 *  - an object: one child element per key, in key order;
 *  - a list: one element per item, each named after the list's key and marked `type="ARRAY"`
 *    (so a one-item list stays a list when read back). A list without a key of its own (the
 *    root value, or a list directly inside a list) names its items `item`;
 *  - a string, number or boolean: its text (numbers keep their literal text); null: empty element.
 *  - an empty list writes no element (there is nothing to mark); an empty object is an empty element.
 *
 * A key that is not an XML element name (XML 1.0 Name, without `:`), or text holding a character
 * XML 1.0 cannot carry (most control characters, lone surrogates), is refused with a
 * {@link TransformProblem} naming the key's path: the output is never malformed. Text is escaped
 * by the shared serialiser (safe-xml.ts), which also gives the declaration and indentation.
 */
import { TransformProblem } from './errors';
import { JsonNumber, JsonValue } from './json-text';
import { serializeXml } from '../xml/safe-xml';
import { TEXT, XNode, newAttribute, newDocument, newElement, newLeaf } from '../xml/xml-dom';

/** The attribute that marks list items, read back by XML2JSON. */
export const ARRAY_MARK = { name: 'type', value: 'ARRAY' } as const;
const NAMELESS_ITEM = 'item';

// XML 1.0 (fifth edition) NameStartChar and NameChar, without ":" (namespaces stay out of it).
const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
// eslint-disable-next-line no-misleading-character-class -- NameStartChar lists U+200C-U+200D (zero-width joiners) as code points of their own
const XML_NAME = new RegExp(`^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, 'u');
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function isXmlElementName(name: string): boolean {
  return XML_NAME.test(name);
}

export function jsonToXml(rootName: string, value: JsonValue): string {
  const doc = newDocument();
  const root = newElement(rootName, '', rootName, '', doc);
  doc.children.push(root);
  writeContent(root, value, '');
  return serializeXml(doc);
}

function writeContent(el: XNode, value: JsonValue, path: string): void {
  if (value === null) return;
  if (Array.isArray(value)) {
    writeItems(el, NAMELESS_ITEM, value, path);
    return;
  }
  if (typeof value === 'object' && !(value instanceof JsonNumber)) {
    for (const [key, v] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (!isXmlElementName(key)) throw new TransformProblem(`key ${JSON.stringify(key)} at ${at} is not an XML element name`);
      if (Array.isArray(v)) writeItems(el, key, v, at);
      else childWith(el, key, v, at);
    }
    return;
  }
  const text = String(value);
  if (NOT_XML_CHAR.test(text)) throw new TransformProblem(`the text at ${path === '' ? 'the root' : path} holds a character XML cannot carry`);
  if (text !== '') el.children.push(newLeaf(TEXT, text, el));
}

function writeItems(el: XNode, name: string, items: readonly JsonValue[], path: string): void {
  items.forEach((item, at) => {
    const child = childWith(el, name, item, `${path}[${at}]`);
    child.attrs.push(newAttribute(ARRAY_MARK.name, '', ARRAY_MARK.name, '', ARRAY_MARK.value, child));
  });
}

/** Appends an element holding the value (its attributes, if any, are added before anything reads it). */
function childWith(parent: XNode, name: string, value: JsonValue, path: string): XNode {
  const child = newElement(name, '', name, '', parent);
  parent.children.push(child);
  writeContent(child, value, path);
  return child;
}
