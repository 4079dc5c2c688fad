/**
 * The XSLT 1.0 engine (xslt-compiler.ts): what users' stylesheets use, checked against the
 * output SaxonJS 2.7 (the engine it replaced) gave on the same stylesheets, and what it refuses
 * at start-up, naming the construct.
 */
import { CompiledStylesheet, XsltProblem } from '../../../src/transforms/xslt-engine';

const XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"';
const sheet = (body: string, output = '<xsl:output method="text"/>', extra = '') =>
  `<xsl:stylesheet version="1.0" ${XSL} ${extra}>${output}${body}</xsl:stylesheet>`;
const XML_OUT = '<xsl:output method="xml" omit-xml-declaration="yes"/>';
const ORDER =
  '<?xml version="1.0"?><order id="7"><customer>Ann</customer><items><item sku="b" qty="2"><price>1.50</price></item>' +
  '<item sku="a" qty="10"><price>0.25</price></item><item sku="c" qty="1"><price>12</price></item></items><note>x &amp; y &lt; z</note><!--c--><?pi d?></order>';

function run(xsl: string, xml = ORDER, params: Record<string, string> = {}): string {
  return CompiledStylesheet.compile('/t/test.xsl', xsl).transform(xml, params);
}

function refusal(xsl: string): string {
  try {
    CompiledStylesheet.compile('/t/test.xsl', xsl);
  } catch (e) {
    expect(e).toBeInstanceOf(XsltProblem);
    return (e as Error).message;
  }
  throw new Error('the stylesheet compiled');
}

describe('XSLT engine: what it runs', () => {
  it('calls named templates with parameters and their defaults', () => {
    const xsl = sheet(
      '<xsl:template match="/"><xsl:call-template name="t"><xsl:with-param name="a" select="2+3"/></xsl:call-template></xsl:template>' +
        '<xsl:template name="t"><xsl:param name="a" select="1"/><xsl:param name="b" select="\'B\'"/><r a="{$a}" b="{$b}"/></xsl:template>',
      XML_OUT,
    );
    expect(run(xsl)).toBe('<r a="5" b="B"/>');
  });

  it('chooses the first matching branch', () => {
    const xsl = sheet(
      '<xsl:template match="item"><xsl:choose><xsl:when test="@qty &gt; 5">big</xsl:when><xsl:when test="@qty = 2">two</xsl:when><xsl:otherwise>other</xsl:otherwise></xsl:choose>|</xsl:template>' +
        '<xsl:template match="/"><xsl:apply-templates select="//item"/></xsl:template>',
    );
    expect(run(xsl)).toBe('two|big|other|');
  });

  it('keeps a variable with content as a tree, usable with copy-of, as a string and through exsl:node-set', () => {
    const xsl = sheet(
      '<xsl:variable name="g" select="count(//item)"/><xsl:template match="/"><xsl:variable name="v"><a>1</a><b>2</b></xsl:variable>' +
        '<r n="{$g}"><xsl:copy-of select="$v"/><xsl:value-of select="$v"/><xsl:for-each select="exsl:node-set($v)/*"><x><xsl:value-of select="name()"/></x></xsl:for-each></r></xsl:template>',
      XML_OUT,
      'xmlns:exsl="http://exslt.org/common" exclude-result-prefixes="exsl"',
    );
    expect(run(xsl)).toBe('<r n="3"><a>1</a><b>2</b>12<x>a</x><x>b</x></r>');
  });

  it('sorts by number, descending, by text, and in apply-templates with positions after sorting', () => {
    const xsl = sheet(
      '<xsl:template match="/"><xsl:for-each select="//item"><xsl:sort select="price" data-type="number" order="descending"/><xsl:value-of select="@sku"/></xsl:for-each>;' +
        '<xsl:for-each select="//item"><xsl:sort select="@sku"/><xsl:value-of select="@sku"/></xsl:for-each>;' +
        '<xsl:apply-templates select="//item"><xsl:sort select="@qty" data-type="number"/></xsl:apply-templates></xsl:template>' +
        '<xsl:template match="item"><xsl:value-of select="position()"/>:<xsl:value-of select="@qty"/>,</xsl:template>',
    );
    expect(run(xsl)).toBe('cba;abc;1:1,2:2,3:10,');
  });

  it('formats numbers with format-number pictures', () => {
    const calls = ["1234.5, '#,##0.00'", "0.5, '#%'", "-3.14159, '0.###'", "7, '000'", "0.25, '#.00'", "-2, '#;(#)'", "1234567.891, '#,###.#'"];
    const xsl = sheet(`<xsl:template match="/">${calls.map((c) => `<xsl:value-of select="format-number(${c})"/>`).join('|')}</xsl:template>`);
    expect(run(xsl)).toBe('1,234.50|50%|-3.142|007|.25|(2)|1,234,567.9');
  });

  it('writes numbers as XPath 1.0 does', () => {
    const exprs = [
      '1 div 3',
      '10 div 4',
      'sum(//@qty)',
      'round(2.5)',
      'round(-2.5)',
      "number('x')",
      '0.1 + 0.2',
      '100000000000000000000000',
      '-0.000001',
      '7 mod 3',
      'floor(-1.5)',
      '1 div 0',
    ];
    const xsl = sheet(`<xsl:template match="/">${exprs.map((e) => `<xsl:value-of select="${e}"/>`).join('|')}</xsl:template>`);
    expect(run(xsl)).toBe('0.3333333333333333|2.5|13|3|-2|NaN|0.30000000000000004|100000000000000000000000|-0.000001|1|-2|Infinity');
  });

  it('numbers nodes at the single, multiple and any levels', () => {
    const xsl = sheet(
      '<xsl:template match="item"><xsl:number/>.<xsl:number level="multiple" count="items|item"/>.<xsl:number level="any" count="item|price"/>.<xsl:number format="I"/>;</xsl:template>' +
        '<xsl:template match="/"><xsl:apply-templates select="//item"/></xsl:template>',
    );
    expect(run(xsl)).toBe('1.1.1.1.I;2.1.2.3.II;3.1.3.5.III;');
  });

  it('looks up keys by a string and by a node set', () => {
    const xsl = sheet(
      '<xsl:key name="k" match="item" use="@sku"/><xsl:template match="/"><xsl:value-of select="key(\'k\',\'c\')/@qty"/>|<xsl:value-of select="count(key(\'k\', //item/@sku))"/></xsl:template>',
    );
    expect(run(xsl)).toBe('1|3');
  });

  it('copies comments, processing instructions and escaped text through an identity transform', () => {
    const xsl = sheet('<xsl:template match="@*|node()"><xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy></xsl:template>', XML_OUT);
    expect(run(xsl, '<r a="1"><!--c--><?pi d?><b>x &amp; &lt;</b></r>')).toBe('<r a="1"><!--c--><?pi d?><b>x &amp; &lt;</b></r>');
  });

  it('writes the XML declaration without a newline by default', () => {
    expect(run(sheet('<xsl:template match="/"><r/></xsl:template>', ''))).toBe('<?xml version="1.0" encoding="UTF-8"?><r/>');
  });

  it('builds elements, attributes, comments and processing instructions', () => {
    const xsl = sheet(
      '<xsl:template match="/"><xsl:element name="{name(/*)}-x"><xsl:attribute name="n"><xsl:value-of select="count(//*)"/></xsl:attribute>' +
        '<xsl:comment>hi</xsl:comment><xsl:processing-instruction name="p">q</xsl:processing-instruction><xsl:text>t&lt;</xsl:text></xsl:element></xsl:template>',
      XML_OUT,
    );
    expect(run(xsl)).toBe('<order-x n="10"><!--hi--><?p q?>t&lt;</order-x>');
  });

  it('applies templates in modes, with the built-in rules elsewhere', () => {
    const xsl = sheet(
      '<xsl:template match="/"><a><xsl:apply-templates/></a><b><xsl:apply-templates mode="m"/></b></xsl:template>' +
        '<xsl:template match="price" mode="m">[<xsl:value-of select="."/>]</xsl:template><xsl:template match="text()" mode="m"/>',
      XML_OUT,
    );
    expect(run(xsl)).toBe('<a>Ann1.500.2512x &amp; y &lt; z</a><b>[1.50][0.25][12]</b>');
  });

  it('evaluates the XPath 1.0 axes', () => {
    const xsl = sheet(
      '<xsl:template match="/"><xsl:for-each select="//item[2]"><xsl:value-of select="count(preceding::*)"/>,<xsl:value-of select="count(following::*)"/>,' +
        '<xsl:value-of select="count(ancestor::*)"/>,<xsl:value-of select="preceding-sibling::item[1]/@sku"/>,<xsl:value-of select="following-sibling::*[1]/@sku"/>,' +
        '<xsl:value-of select="name(..)"/>,<xsl:value-of select="ancestor-or-self::*[last()]/@id"/></xsl:for-each>|<xsl:value-of select="(//item)[last()]/@sku"/>|' +
        '<xsl:value-of select="//item[@qty &gt; 1][2]/@sku"/></xsl:template>',
    );
    expect(run(xsl)).toBe('3,3,2,b,c,items,7|c|a');
  });

  it('matches prefixed patterns by namespace URI and writes the namespaces result elements need', () => {
    const xsl = `<xsl:stylesheet version="1.0" ${XSL} xmlns:p="urn:p" xmlns="urn:d">${XML_OUT}<xsl:template match="/"><r><p:s><t/></p:s><xsl:copy-of select="/*/*[1]"/></r></xsl:template></xsl:stylesheet>`;
    expect(run(xsl, '<x:o xmlns:x="urn:x" xmlns="urn:y"><x:a b="1"><c/></x:a></x:o>')).toBe(
      '<r xmlns:p="urn:p" xmlns="urn:d"><p:s><t/></p:s><x:a xmlns:x="urn:x" xmlns="urn:y" b="1"><c/></x:a></r>',
    );
  });

  it('strips whitespace-only text nodes named by xsl:strip-space', () => {
    expect(
      run(
        sheet('<xsl:strip-space elements="*"/><xsl:template match="/"><xsl:value-of select="count(/r/node())"/></xsl:template>'),
        '<r>\n  <a/>\n  <b> </b>\n</r>',
      ),
    ).toBe('2');
  });

  it('applies attribute sets before the literal attributes', () => {
    const xsl = sheet(
      '<xsl:attribute-set name="s"><xsl:attribute name="x">1</xsl:attribute><xsl:attribute name="y">2</xsl:attribute></xsl:attribute-set>' +
        '<xsl:template match="/"><r xsl:use-attribute-sets="s" y="3"/><xsl:element name="e" use-attribute-sets="s"/></xsl:template>',
      XML_OUT,
    );
    expect(run(xsl)).toBe('<r x="1" y="3"/><e x="1" y="2"/>');
  });

  it('indents with indent="yes"', () => {
    expect(run(sheet('<xsl:template match="/"><r><a><b>t</b></a><c/></r></xsl:template>', '<xsl:output method="xml" indent="yes"/>'))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<r>\n   <a>\n      <b>t</b>\n   </a>\n   <c/>\n</r>',
    );
  });

  it('takes a global parameter from the transform, else its default', () => {
    const xsl = sheet(
      '<xsl:param name="p" select="\'dflt\'"/><xsl:variable name="v" select="concat($p, \'!\')"/><xsl:template match="/"><xsl:value-of select="$v"/></xsl:template>',
    );
    expect([run(xsl, '<r/>', { p: 'given' }), run(xsl, '<r/>')]).toEqual(['given!', 'dflt!']);
  });

  it('compares node sets with numbers, strings and booleans as XPath 1.0 says', () => {
    const tests = [
      '//item/@qty = 10',
      '//item/@qty &lt; 1',
      "//item/@sku = 'z'",
      "//item/@sku != 'a'",
      '//nothing = //nothing',
      'not(//nothing)',
      "'1' = 1.0",
      "true() = 'x'",
    ];
    expect(run(sheet(`<xsl:template match="/">${tests.map((t) => `<xsl:value-of select="${t}"/>`).join('')}</xsl:template>`))).toBe(
      'truefalsefalsetruefalsetruetruetrue',
    );
  });

  it('supports the EXSLT math and strings functions it lists', () => {
    const xsl = sheet(
      '<xsl:template match="/"><xsl:value-of select="math:max(//@qty)"/>|<xsl:value-of select="math:min(//price)"/>|<xsl:for-each select="str:tokenize(\'a,b;c\', \',;\')"><xsl:value-of select="."/>.</xsl:for-each>|<xsl:value-of select="str:padding(3, \'ab\')"/></xsl:template>',
      '<xsl:output method="text"/>',
      'xmlns:math="http://exslt.org/math" xmlns:str="http://exslt.org/strings"',
    );
    expect(run(xsl)).toBe('10|0.25|a.b.c.|aba');
  });

  it('fails one transform, not the process, on endless recursion', () => {
    const xsl = sheet(
      '<xsl:template match="/"><xsl:call-template name="f"/></xsl:template><xsl:template name="f"><xsl:call-template name="f"/></xsl:template>',
    );
    expect(() => run(xsl)).toThrow(/nested deeper than/);
  });
});

describe('XSLT engine: what it refuses at start-up, naming the construct', () => {
  it.each([
    ['xsl:import', sheet('<xsl:import href="other.xsl"/>'), /xsl:import is not supported.*XSLFile/],
    ['xsl:include', sheet('<xsl:include href="other.xsl"/>'), /xsl:include is not supported/],
    [
      'document()',
      sheet('<xsl:template match="/"><xsl:value-of select="document(\'/etc/passwd\')"/></xsl:template>'),
      /xsl:template match="\/".*document\(\) is not supported/,
    ],
    ['output method html', sheet('', '<xsl:output method="html"/>'), /method="html" is not supported/],
    [
      'an XSLT 2.0 instruction',
      sheet('<xsl:template match="/"><xsl:for-each-group select="*" group-by="."/></xsl:template>'),
      /xsl:for-each-group is not an XSLT 1.0 instruction/,
    ],
    ['an unknown named template', sheet('<xsl:template match="/"><xsl:call-template name="nope"/></xsl:template>'), /unknown template "nope"/],
    ['an undefined variable', sheet('<xsl:template match="/"><xsl:value-of select="$nope"/></xsl:template>'), /\$nope is not defined/],
    ['an XPath 2.0 expression', sheet('<xsl:template match="/"><xsl:value-of select="for $i in 1 to 3 return $i"/></xsl:template>'), /does not compile/],
    ['a pattern with a forbidden axis', sheet('<xsl:template match="ancestor::r"/>'), /patterns allow only child and attribute steps/],
    ['a DOCTYPE declaring entities', `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${sheet('')}`, /entity declarations/],
  ])('refuses %s', (_what, xsl, expected) => {
    expect(refusal(xsl)).toMatch(expected);
  });
});
