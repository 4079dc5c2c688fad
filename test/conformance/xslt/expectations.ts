/**
 * What the XSLT conformance suite accepts besides agreement: the constructs xroute refuses (the refusal message
 * matches `message`; `docs` is how docs/evaluator/transforms.md lists it, checked to be there) and the deliberate
 * differences, each with its reason.
 */

export interface RefusedConstruct {
  readonly message: RegExp;
  readonly docs: string;
}

export const REFUSED_CONSTRUCTS: readonly RefusedConstruct[] = [
  { message: /xsl:import is not supported/, docs: '`xsl:import`' },
  { message: /xsl:include is not supported/, docs: '`xsl:include`' },
  { message: /document\(\) is not supported/, docs: '`document()`' },
  { message: /xsl:namespace-alias is not supported/, docs: '`xsl:namespace-alias`' },
  { message: /xsl:apply-imports is not supported/, docs: '`xsl:apply-imports`' },
  { message: /the implicit html output method .* is not supported/, docs: 'the implicit `html` output method' },
  { message: /xsl:output method="html" is not supported/, docs: '`method="html"`' },
  { message: /cdata-section-elements is not supported/, docs: '`cdata-section-elements`' },
  { message: /the extension element \S+ is not supported/, docs: 'extension elements' },
  { message: /the function \S+\(\) is not supported/, docs: 'extension functions' },
  { message: /entity declarations in a DOCTYPE are not allowed/, docs: 'declares entities' },
  { message: /the prefix \S+ of "[^"]*" in <xsl:[\w-]+ [^>]*> is not declared/, docs: 'a QName with an undeclared prefix' },
];

/** Case id (corpus folder/name) to the reason xroute's output deliberately differs from xsltproc's. */
export const DIFFERENCES: Readonly<Record<string, string>> = {
  'libxslt/REC/test-7.1.1-3':
    'xsl:exclude-result-prefixes on a literal result element excludes the namespace from that element (XSLT 1.0 §7.1.1); libxslt writes it anyway',
  'libxslt/exslt-common/dynamic-id': 'generate-id() values are implementation-defined (XSLT 1.0 §12.4): xroute writes N<number>, libxslt id<number>',
  'libxslt/REC/test-12.4-1': 'generate-id() values are implementation-defined (XSLT 1.0 §12.4): xroute writes N<number>, libxslt id<number>',
  'libxslt/general/bug-218': 'key() naming a key the stylesheet does not declare fails the message; libxslt gives an empty node-set',
  'libxslt/general/bug-224': 'generate-id() values are implementation-defined (XSLT 1.0 §12.4): xroute writes N<number>, libxslt id<number>',
  'libxslt/exslt-common/object-type.1': "libxslt implements Saxon 6's saxon:expression(); xroute does not, and function-available() says so",
  'libxslt/general/bug-152': 'libxslt adds a <meta http-equiv="Content-Type"> to XHTML output; xroute writes the result as it is',
  'libxslt/general/bug-81':
    'a number is written with as many digits as it takes to tell it apart from every other IEEE 754 double (XPath 1.0 §4.2, as Java and SaxonJS did): 0.6400000000000001; libxslt rounds to 15 digits: 0.64',
  'libxslt/exslt-math/power.1': 'numbers are written without an exponent, as XPath 1.0 §4.2 specifies (285311670611); libxslt writes 2.85311670611e+11',
  'libxslt/numbers/format-number':
    "pictures without integer digits follow JDK DecimalFormat, as XSLT 1.0 §12.3 specifies: '.#' formats 1 as 1 and '#.#' formats 0.5 as .5; libxslt writes 1.0 and 0.5",
};
