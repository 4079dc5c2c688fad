/**
 * XSLT behaviours fixed against xsltproc as the oracle (docs/evaluator/transforms.md): names compared by namespace
 * URI, xsl:number counting, format pictures, exsl:object-type, parameters through built-in rules, guarded
 * extension calls, forwards-compatible fallback, the namespace axis and the implicit html output method.
 */
import { CompiledStylesheet, XsltProblem } from '../../../src/transforms/xslt-engine';

const XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"';
const text = (body: string, xml = '<r/>', extra = ''): string =>
  CompiledStylesheet.compile('/t/test.xsl', `<xsl:stylesheet version="1.0" ${XSL} ${extra}><xsl:output method="text"/>${body}</xsl:stylesheet>`).transform(
    xml,
    {},
  );
const root = (template: string, xml = '<r/>', extra = ''): string => text(`<xsl:template match="/">${template}</xsl:template>`, xml, extra);

describe('XSLT names are expanded names', () => {
  const ns = 'xmlns:a="urn:n" xmlns:b="urn:n" xmlns:c="urn:other"';

  it('calls a named template by another prefix of the same namespace', () => {
    expect(text('<xsl:template match="/"><xsl:call-template name="b:t"/></xsl:template><xsl:template name="a:t">named</xsl:template>', '<r/>', ns)).toBe(
      'named',
    );
  });

  it('tells modes apart by namespace, not by prefix', () => {
    expect(
      text(
        '<xsl:template match="/"><xsl:apply-templates select="r" mode="b:m"/></xsl:template><xsl:template match="r" mode="a:m">same</xsl:template><xsl:template match="r" mode="c:m">other</xsl:template>',
        '<r/>',
        ns,
      ),
    ).toBe('same');
  });

  it('finds keys and decimal formats by expanded name', () => {
    const body = '<xsl:key name="a:k" match="i" use="@id"/><xsl:decimal-format name="a:f" decimal-separator="," grouping-separator="."/>';
    expect(
      text(
        `${body}<xsl:template match="/"><xsl:value-of select="key('b:k','2')"/>|<xsl:value-of select="format-number(1234.5,'#.##0,0','b:f')"/></xsl:template>`,
        '<r><i id="2">two</i></r>',
        ns,
      ),
    ).toBe('two|1.234,5');
  });
});

describe('xsl:number and format-number', () => {
  it('sees the variables in scope in a count pattern', () => {
    expect(
      root(
        '<xsl:for-each select="//n"><xsl:variable name="type" select="@type"/><xsl:number count="node()[@type = $type]" level="any"/>,</xsl:for-each>',
        '<r><n type="a"/><n type="b"/><n type="a"/></r>',
      ),
    ).toBe('1,1,2,');
  });

  it('counts an attribute at level any by the preceding and ancestor axes, which hold no attributes', () => {
    expect(root('<xsl:for-each select="//@*"><xsl:number count="@*" level="any"/>,</xsl:for-each>', '<r a="1"><s b="2" c="3"/></r>')).toBe('1,1,1,');
  });

  it('writes a decimal separator with no fraction digits after it, as the picture shows', () => {
    expect(root('<xsl:value-of select="format-number(1,\'0.\')"/>')).toBe('1.');
  });

  it('formats with the digits of a non-ASCII format token', () => {
    expect(root('<xsl:number value="1234" format="&#x661;"/>|<xsl:number value="7" format="&#x966;&#x966;&#x967;"/>')).toBe('١٢٣٤|००७');
  });

  it('writes 0 for a negative value, as libxslt does', () => {
    expect(root('<xsl:number value="-3"/>')).toBe('0');
  });
});

describe('other XSLT 1.0 behaviours', () => {
  it('calls the source root a node-set and only a variable tree an RTF', () => {
    expect(
      root(
        '<xsl:variable name="t"><a/></xsl:variable><xsl:value-of select="exsl:object-type(/)"/>|<xsl:value-of select="exsl:object-type($t)"/>|<xsl:value-of select="exsl:object-type(exsl:node-set($t))"/>',
        '<r/>',
        'xmlns:exsl="http://exslt.org/common"',
      ),
    ).toBe('node-set|RTF|node-set');
  });

  it('passes parameters through the built-in template rules', () => {
    expect(
      text(
        '<xsl:template match="/"><xsl:apply-templates select="r"><xsl:with-param name="p" select="\'passed\'"/></xsl:apply-templates></xsl:template><xsl:template match="x"><xsl:param name="p"/>[<xsl:value-of select="$p"/>]</xsl:template>',
        '<r><w><x/></w></r>',
      ),
    ).toBe('[passed]');
  });

  it('compiles an extension call that function-available() guards, and takes the other branch', () => {
    expect(
      root(
        '<xsl:choose><xsl:when test="function-available(\'acme:f\')"><xsl:value-of select="acme:f()"/></xsl:when><xsl:otherwise>none</xsl:otherwise></xsl:choose>',
        '<r/>',
        'xmlns:acme="urn:acme"',
      ),
    ).toBe('none');
  });

  it('still refuses an unguarded extension call at start-up', () => {
    expect(() => root('<xsl:value-of select="acme:f()"/>', '<r/>', 'xmlns:acme="urn:acme"')).toThrow(/the function acme:f\(\) is not supported/);
  });

  it('runs the fallback of an unknown instruction in forwards-compatible mode', () => {
    const xsl = `<xsl:stylesheet version="1.1" ${XSL}><xsl:output method="text"/><xsl:template match="/"><xsl:new-thing><xsl:fallback>fell back</xsl:fallback></xsl:new-thing></xsl:template></xsl:stylesheet>`;
    expect(CompiledStylesheet.compile('/t/fc.xsl', xsl).transform('<r/>', {})).toBe('fell back');
  });

  it('refuses an XSLT 2.0 instruction even with a fallback', () => {
    const xsl = `<xsl:stylesheet version="2.0" ${XSL}><xsl:template match="/"><xsl:for-each-group select="*" group-by="."><xsl:fallback/></xsl:for-each-group></xsl:template></xsl:stylesheet>`;
    expect(() => CompiledStylesheet.compile('/t/fc.xsl', xsl)).toThrow(XsltProblem);
  });

  it('walks the namespace axis: xml, then the declarations in scope from the outermost', () => {
    expect(
      root(
        '<xsl:for-each select="/r/a/namespace::*"><xsl:value-of select="name()"/>=<xsl:value-of select="."/>;</xsl:for-each>',
        '<r xmlns:p="urn:p"><a xmlns:q="urn:q"/></r>',
      ),
    ).toBe('xml=http://www.w3.org/XML/1998/namespace;p=urn:p;q=urn:q;');
  });

  it('refuses the implicit html output method at start-up', () => {
    const xsl = `<xsl:stylesheet version="1.0" ${XSL}><xsl:template match="/"><html><body/></html></xsl:template></xsl:stylesheet>`;
    expect(() => CompiledStylesheet.compile('/t/html.xsl', xsl)).toThrow(/the implicit html output method/);
  });
});
