import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XML_DECLARATION, XmlRejection, parseXml, serializeXml } from '../../../src/transforms/safe-xml';

describe('safe XML parsing (evaluator.md §13.1)', () => {
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

  it('rejects an empty text', () => {
    expect(() => parseXml('')).toThrow(XmlRejection);
  });
});

describe('XML serialisation (evaluator.md §13.1)', () => {
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

  it('keeps comments, processing instructions and CDATA', () => {
    expect(serializeXml(parseXml('<r><!--c--><?pi data?><a><![CDATA[<x>]]></a></r>'))).toBe(`${XML_DECLARATION}\n<r>\n    <!--c-->\n    <?pi data?>\n    <a><![CDATA[<x>]]></a>\n</r>\n`);
  });
});
