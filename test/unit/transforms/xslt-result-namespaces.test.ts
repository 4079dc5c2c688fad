/**
 * Namespace fixup of the XSLT result (docs/evaluator/transforms.md): every attribute keeps its namespace and
 * no element declares a prefix twice, choosing prefixes as libxslt (xsltproc) does; and a literal result
 * element used as the whole stylesheet runs as the template for "/".
 */
import { CompiledStylesheet } from '../../../src/transforms/xslt-engine';

const XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"';
const OUT = '<xsl:output omit-xml-declaration="yes"/>';
const run = (template: string, xml = '<r/>'): string =>
  CompiledStylesheet.compile(
    '/t/test.xsl',
    `<xsl:stylesheet version="1.0" ${XSL}>${OUT}<xsl:template match="/">${template}</xsl:template></xsl:stylesheet>`,
  ).transform(xml, {});

describe('XSLT result namespaces', () => {
  it('gives an attribute a new prefix when the one it asks for is bound differently on the element', () => {
    expect(run('<out xmlns:p="urn:z"><xsl:attribute name="p:id" namespace="urn:x">1</xsl:attribute></out>')).toBe(
      '<out xmlns:p="urn:z" xmlns:p_1="urn:x" p_1:id="1"/>',
    );
  });

  it('gives an unprefixed attribute with a namespace the prefix ns_1', () => {
    expect(run('<out><xsl:attribute name="type" namespace="urn:t">2</xsl:attribute></out>')).toBe('<out xmlns:ns_1="urn:t" ns_1:type="2"/>');
  });

  it('reuses a prefix it generated for the same namespace', () => {
    expect(
      run(
        '<out><xsl:attribute name="a" namespace="urn:t">1</xsl:attribute><xsl:attribute name="b" namespace="urn:u">2</xsl:attribute><xsl:attribute name="c" namespace="urn:u">3</xsl:attribute></out>',
      ),
    ).toBe('<out xmlns:ns_1="urn:t" xmlns:ns_1_1="urn:u" ns_1:a="1" ns_1_1:b="2" ns_1_1:c="3"/>');
  });

  it('renames the prefix of a copied attribute that the target binds differently', () => {
    expect(run('<d xmlns:p="urn:other"><xsl:copy-of select="/r/@*"/></d>', '<r xmlns:p="urn:q" p:at="1" x="2"/>')).toBe(
      '<d xmlns:p="urn:other" xmlns:p_1="urn:q" p_1:at="1" x="2"/>',
    );
  });

  it('keeps the element name its prefix when an attribute asks for the same prefix in another namespace', () => {
    expect(run('<xsl:element name="p:e" namespace="urn:y"><xsl:attribute name="p:f" namespace="urn:z">1</xsl:attribute></xsl:element>')).toBe(
      '<p:e xmlns:p_1="urn:z" xmlns:p="urn:y" p_1:f="1"/>',
    );
  });

  it('replaces an attribute set twice by its expanded name, whatever prefix it was given', () => {
    expect(run('<out xmlns:a="urn:x"><xsl:attribute name="a:v">1</xsl:attribute><xsl:attribute name="b:v" namespace="urn:x">2</xsl:attribute></out>')).toBe(
      '<out xmlns:a="urn:x" a:v="2"/>',
    );
  });
});

describe('a literal result element as the stylesheet', () => {
  it('runs its body as the template for the root', () => {
    const xsl = `<out xsl:version="1.0" ${XSL}><a><xsl:value-of select="/r/x"/></a><xsl:for-each select="/r/y"><b n="{.}"/></xsl:for-each></out>`;
    expect(CompiledStylesheet.compile('/t/lre.xsl', xsl).transform('<r><x>1</x><y>2</y><y>3</y></r>', {})).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><out><a>1</a><b n="2"/><b n="3"/></out>',
    );
  });
});
