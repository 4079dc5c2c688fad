/**
 * A tree that xcut or xmerge changed and wrote out is made the tree that parsing the written
 * text gives (so the next XML step of a chain need not parse it): checked on random documents
 * and random removals and appends against a parse of the serialisation.
 */
import fc from 'fast-check';
import { parseXml, serializeXml } from '../../../src/xml/safe-xml';
import { ELEMENT, XNode, appendChild, deepCopy, removeChild } from '../../../src/xml/xml-dom';
import { settleAsReparsed } from '../../../src/transforms/xml-settle';

/** What XPath can see of a tree: node types, names, namespaces and values, in document order. */
function shape(node: XNode): unknown {
  return [node.type, node.name, node.ns, node.value, node.attrs.map(shape), node.children.map(shape)];
}

function elements(node: XNode): XNode[] {
  return node.children.filter((c) => c.type === ELEMENT).flatMap((c) => [c, ...elements(c)]);
}

const text = fc.constantFrom('', 'x', ' ', '\n  ', 'a&amp;b', '&lt;', '\n', 'y\r');
const leaf = fc.oneof(text, fc.constantFrom('<e/>', '<f g="1"/>', '<!--c-->', '<?p d?>', '<![CDATA[c]]>', '<![CDATA[]]>'));
const element = fc.letrec<{ el: string }>((tie) => ({
  el: fc
    .tuple(fc.constantFrom('a', 'b', 'c'), fc.array(fc.oneof({ depthSize: 'small' }, leaf, tie('el')), { maxLength: 4 }))
    .map(([name, kids]) => `<${name}>${kids.join('')}</${name}>`),
})).el;

describe('settling a changed tree as the parse of its serialisation', () => {
  it('gives the tree a parse of the written text gives, after removals and appends', () => {
    fc.assert(
      fc.property(element, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 4 }), (body, edits) => {
        const doc = parseXml(`<r>${body}</r>`);
        for (const [at, to, append] of edits) {
          const all = elements(doc);
          const node = all[at % all.length]!;
          if (node.parent === doc) continue;
          if (append) appendChild(all[to % all.length]!, deepCopy(node.children[0] ?? node));
          else removeChild(node.parent!, node);
        }
        const written = serializeXml(doc);
        expect(settleAsReparsed(doc)).toBe(true);
        expect(shape(doc)).toEqual(shape(parseXml(written)));
      }),
      { numRuns: 300 },
    );
  });

  it('declines a tree with namespace declarations', () => {
    expect(settleAsReparsed(parseXml('<r xmlns="urn:r"><a/></r>'))).toBe(false);
  });

  it('declines CDATA holding "]]>", which is written as two sections', () => {
    const doc = parseXml('<r><![CDATA[a]]></r>');
    doc.children[0]!.children[0]!.value = 'a]]>b';
    expect(settleAsReparsed(doc)).toBe(false);
  });
});
