/**
 * An XML document as a JSON value, for the Translation kind's XML2JSON (docs/evaluator/transforms.md).
 *
 * The result is `{ <root name>: <value of the root> }`. The value of an element is:
 *  - without child elements: its text (text and CDATA, entities decoded), "" when empty;
 *  - with child elements: an object with one key per child name, in document order. A child
 *    marked `type="ARRAY"` is an item of a list under its name, even when it is alone.
 *
 * Two deliberate choices against the original (which was lossy, docs/evaluator/transforms.md):
 *  - FIXED: repeated sibling elements are gathered into a list in document order. The original
 *    kept only the last one, silently dropping data; documents without repeats come out as before.
 *  - KEPT: attributes are dropped (other than reading the `type="ARRAY"` mark), and so is text
 *    mixed with child elements. Keeping attributes would turn every element that has one into an
 *    object (`"b":"t"` would become `"b":{...}`) and break consumers of today's output.
 * Names are the tag names as written (a prefix stays part of the name); every value is a string.
 */
import type { JsonObject, JsonValue } from './json-text';
import { ARRAY_MARK } from './json-to-xml';
import { CDATA, ELEMENT, TEXT, XNode } from '../xml/xml-dom';

export function xmlToJson(doc: XNode): JsonObject {
  const out: JsonObject = {};
  addChild(out, doc.documentElement()!);
  return out;
}

function valueOf(el: XNode): JsonValue {
  let object: JsonObject | undefined;
  let text = '';
  for (const c of el.children) {
    if (c.type === ELEMENT) addChild((object ??= {}), c);
    else if (c.type === TEXT || c.type === CDATA) text += c.value;
  }
  return object ?? text;
}

/** Adds a child's value under its name: the first one as a value, repeats and marked ones as list items. */
function addChild(parent: JsonObject, child: XNode): void {
  const name = child.name;
  const value = valueOf(child);
  const marked = child.attribute(ARRAY_MARK.name) === ARRAY_MARK.value;
  const existing = Object.prototype.hasOwnProperty.call(parent, name) ? parent[name] : undefined;
  if (Array.isArray(existing)) {
    existing.push(value);
    return;
  }
  const next = existing === undefined ? (marked ? [value] : value) : [existing, value];
  // defineProperty: an element named "__proto__" is data, not the prototype
  Object.defineProperty(parent, name, { value: next, enumerable: true, writable: true, configurable: true });
}
