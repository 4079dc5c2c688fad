import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XML_DECLARATION, XmlRejection, parseXml, serializeXml } from '../../../src/xml/safe-xml';
import { MAX_DEPTH } from '../../../src/xml/xml-parser';

describe('safe XML parsing (docs/evaluator/transforms.md)', () => {
  let server: Server;
  let hits = 0;
  let base = '';
  const secretFile = join(mkdtempSync(join(tmpdir(), 'xroute-xxe-')), 'secret.txt');
  writeFileSync(secretFile, 'TOP-SECRET');

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('<!ENTITY leak "FETCHED">');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('rejects an XXE payload that names a local file', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file://${secretFile}">]><r>&x;</r>`;
    expect(() => parseXml(xxe)).toThrow(XmlRejection);
  });

  it('rejects a DOCTYPE with an external parameter entity without fetching it', () => {
    const payload = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "${base}/p.dtd"> %p;]><r>&leak;</r>`;
    expect(() => parseXml(payload)).toThrow(/entity declarations/);
    expect(hits).toBe(0);
  });

  it('never loads an external DTD named by the DOCTYPE', () => {
    const doc = parseXml(`<?xml version="1.0"?><!DOCTYPE r SYSTEM "${base}/evil.dtd"><r>ok</r>`);
    expect([doc.documentElement()!.stringValue(), hits]).toEqual(['ok', 0]);
  });

  it('rejects internal entity declarations (billion laughs)', () => {
    const bomb = '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>';
    expect(() => parseXml(bomb)).toThrow(XmlRejection);
  });

  it('rejects a reference to an undeclared entity', () => {
    expect(() => parseXml('<r>&nope;</r>')).toThrow(XmlRejection);
  });

  it('accepts the predefined entities and character references', () => {
    expect(parseXml('<r>&lt;&amp;&#65;</r>').documentElement()!.stringValue()).toBe('<&A');
  });

  it('rejects text that is not well-formed', () => {
    expect(() => parseXml('<r><a></r>')).toThrow(XmlRejection);
  });

  it('names both tags when an end tag closes another element, even one whose name starts the same', () => {
    expect(() => parseXml('<r><a></r>')).toThrow('</r> does not close <a>');
    expect(() => parseXml('<r><a></ab></r>')).toThrow('</ab> does not close <a>');
  });

  it('accepts spaces before the ">" of an end tag and refuses an end tag cut short', () => {
    expect(serializeXml(parseXml('<r><a>x</a  ></r  >'))).toContain('<a>x</a>');
    expect(() => parseXml('<r><a>x</a')).toThrow('">" expected to end </a>');
  });

  it('resolves a prefixed attribute of an element that has no prefix of its own', () => {
    const root = parseXml('<r xmlns:x="urn:x"><a x:k="1" k="2"/></r>').documentElement()!;
    const attrs = root.children.find((c) => c.isElement)!.attrs;
    expect(attrs.map((a) => [a.name, a.local, a.ns])).toEqual([
      ['x:k', 'k', 'urn:x'],
      ['k', 'k', ''],
    ]);
  });

  it('rejects an empty text', () => {
    expect(() => parseXml('')).toThrow(XmlRejection);
  });

  it('refuses a billion-laughs bomb in well under a second, expanding nothing', () => {
    const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const bomb = `<!DOCTYPE r [<!ENTITY l0 "ha">${levels}]><r>&l10;</r>`;
    const t0 = performance.now();
    expect(() => parseXml(bomb)).toThrow(/entity declarations in a DOCTYPE are not allowed/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('refuses a parameter entity reference in the internal subset', () => {
    expect(() => parseXml('<!DOCTYPE r [%p;]><r/>')).toThrow(/parameter entity references are not allowed/);
  });

  it(`accepts nesting ${MAX_DEPTH} deep and refuses one level more`, () => {
    const nest = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);
    expect(() => parseXml(nest(MAX_DEPTH))).not.toThrow();
    expect(() => parseXml(nest(MAX_DEPTH + 1))).toThrow(/nested deeper than/);
  });

  it('handles a million-deep nesting attempt without exhausting the stack', () => {
    expect(() => parseXml('<a>'.repeat(1_000_000))).toThrow(/nested deeper than/);
  });

  it.each([
    ['a duplicate attribute', '<r a="1" a="2"/>'],
    ['"<" in an attribute value', '<r a="<"/>'],
    ['text after the root', '<r/>x'],
    ['a second root', '<r/><r/>'],
    ['"]]>" in text', '<r>]]></r>'],
    ['"--" in a comment', '<r><!-- a -- b --></r>'],
    ['a control character', '<r>\u0001</r>'],
    ['a character reference to a non-character', '<r>&#0;</r>'],
    ['an XML declaration after the start', ' <?xml version="1.0"?><r/>'],
    ['a mismatched end tag', '<r><a></b></r>'],
    ['an unquoted attribute', '<r a=1/>'],
    ['attributes without space between them', '<r a="1"b="2"/>'],
  ])('rejects %s', (_what, text) => {
    expect(() => parseXml(text)).toThrow(XmlRejection);
  });

  it('normalises line ends and literal whitespace in attribute values, keeping character references', () => {
    const doc = parseXml('<r a="x\ty&#9;z">1\r\n2\r3</r>');
    const root = doc.documentElement()!;
    expect([root.attribute('a'), root.stringValue()]).toEqual(['x y\tz', '1\n2\n3']);
  });
});

describe('XML serialisation (docs/evaluator/transforms.md)', () => {
  it('writes the declaration, a newline, 4-space indentation and a final newline', () => {
    expect(serializeXml(parseXml('<r><a x="1">A</a><b/></r>'))).toBe(`${XML_DECLARATION}\n<r>\n    <a x="1">A</a>\n    <b/>\n</r>\n`);
  });

  it('keeps mixed content as it is', () => {
    expect(serializeXml(parseXml('<r>text <i>it</i> more</r>'))).toBe(`${XML_DECLARATION}\n<r>text <i>it</i> more</r>\n`);
  });

  it('escapes text and attribute values', () => {
    expect(serializeXml(parseXml('<r a="&quot;&lt;">&lt;&amp;</r>'))).toBe(`${XML_DECLARATION}\n<r a="&quot;&lt;">&lt;&amp;</r>\n`);
  });

  it('keeps namespace declarations and prefixes', () => {
    expect(serializeXml(parseXml('<ns:r xmlns:ns="urn:x"><ns:a/></ns:r>'))).toBe(`${XML_DECLARATION}\n<ns:r xmlns:ns="urn:x">\n    <ns:a/>\n</ns:r>\n`);
  });

  it('writes one declaration when the input had its own', () => {
    expect(serializeXml(parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<r/>'))).toBe(`${XML_DECLARATION}\n<r/>\n`);
  });

  it('keeps attributes in document order (the original sorted them by name)', () => {
    expect(serializeXml(parseXml('<r z="1" a="2" xmlns:q="urn:q"/>'))).toBe(`${XML_DECLARATION}\n<r z="1" a="2" xmlns:q="urn:q"/>\n`);
  });

  it('keeps comments, processing instructions and CDATA', () => {
    expect(serializeXml(parseXml('<r><!--c--><?pi data?><a><![CDATA[<x>]]></a></r>'))).toBe(
      `${XML_DECLARATION}\n<r>\n    <!--c-->\n    <?pi data?>\n    <a><![CDATA[<x>]]></a>\n</r>\n`,
    );
  });
});
