/**
 * After xcut or xmerge has changed a tree and written it out, makes the tree the one that
 * parsing the written text would give, so the next XML step of the ruleset chain can take it
 * for the new body instead of parsing that body again.
 *
 * What serialising changes, and so what is redone here:
 * - an element written indented (element children, whitespace-only text) gets the line breaks
 *   and indentation written as its whitespace text nodes;
 * - adjacent text nodes become one (the parser joins them), and empty ones go.
 *
 * Where it cannot promise the same tree it returns false (the caller forgets the tree and the
 * next step parses): namespace declarations or prefixes anywhere (a copied node's namespace is
 * not derived again from the declarations in scope), and CDATA holding `]]>` (written as two
 * sections). The tree may then be half settled, so it must not be used.
 */
import { holdsOnlyMarkup, lineBreakAt } from '../xml/safe-xml';
import { CDATA, ELEMENT, NAMESPACE_DECLARATION, TEXT, XNode, newLeaf } from '../xml/xml-dom';

export function settleAsReparsed(doc: XNode): boolean {
  for (const c of doc.children) if (c.type === ELEMENT && !settleElement(c, 0)) return false;
  doc.orderStale = true; // new text nodes: document order numbers are renumbered when next needed
  return true;
}

function settleElement(el: XNode, depth: number): boolean {
  if (el.prefix !== '' || el.ns !== '') return false;
  for (const a of el.attrs) if (a.type === NAMESPACE_DECLARATION || a.prefix !== '' || a.ns !== '') return false;
  const children = el.children;
  const settled: XNode[] = [];
  if (holdsOnlyMarkup(el)) {
    const inner = lineBreakAt(depth + 1);
    for (const c of children) {
      if (c.type === TEXT) continue;
      settled.push(newLeaf(TEXT, inner, el), c);
    }
    settled.push(newLeaf(TEXT, lineBreakAt(depth), el));
  } else {
    for (const c of children) {
      if (c.type === TEXT) {
        if (c.value === '') continue;
        const last = settled[settled.length - 1];
        if (last !== undefined && last.type === TEXT) {
          settled[settled.length - 1] = newLeaf(TEXT, last.value + c.value, el);
          continue;
        }
      } else if (c.type === CDATA && c.value.includes(']]>')) return false;
      settled.push(c);
    }
  }
  for (const c of settled) if (c.type === ELEMENT && !settleElement(c, depth + 1)) return false;
  el.children = settled;
  return true;
}
