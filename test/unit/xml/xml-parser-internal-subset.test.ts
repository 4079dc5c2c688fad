/**
 * What the XML parser takes from a DOCTYPE's internal subset (docs/evaluator/transforms.md, XML safety): attribute
 * defaults and ID types of ATTLIST declarations (XML 1.0 §3.3 and XML 1.0 §5.1), never an entity; and character references
 * with any number of leading zeros.
 */
import { parseXmlText } from '../../../src/xml/xml-parser';
import { CompiledXPath } from '../../../src/transforms/xpath-expression';

const DOC = `<!DOCTYPE r [
<!ATTLIST item code ID #IMPLIED status (new|old) "new" fixed CDATA #FIXED "f&amp;x" tok NMTOKENS #IMPLIED>
<!ATTLIST item status CDATA "ignored">
]>
<r><item code="a" tok="  x   y "/><item code="b" status="old"/></r>`;

const value = (xpath: string, xml = DOC): string => CompiledXPath.compile(xpath).stringValue(parseXmlText(xml));

describe('XML parser: the internal subset', () => {
  it('gives an element the default of an attribute it lacks', () => {
    expect([value('/r/item[1]/@status'), value('/r/item[2]/@status')]).toEqual(['new', 'old']);
  });

  it('applies a #FIXED value with its references decoded', () => {
    expect(value('/r/item[2]/@fixed')).toBe('f&x');
  });

  it('keeps the first declaration of an attribute', () => {
    expect(value('count(/r/item[@status = "ignored"])')).toBe('0');
  });

  it('normalises the spaces of an attribute whose declared type is not CDATA', () => {
    expect(value('/r/item[1]/@tok')).toBe('x y');
  });

  it('lets id() find elements by the attributes declared of type ID', () => {
    expect(value('id("b")/@status')).toBe('old');
  });

  it('declares namespaces by a defaulted xmlns attribute', () => {
    expect(value('namespace-uri(/r/*)', '<!DOCTYPE r [<!ATTLIST x xmlns CDATA #FIXED "urn:x">]><r><x/></r>')).toBe('urn:x');
  });

  it('still refuses an entity declaration', () => {
    expect(() => parseXmlText('<!DOCTYPE r [<!ENTITY e "x">]><r/>')).toThrow(/entity declarations/);
  });

  it('reads character references with ten or more digits', () => {
    expect(value('/r', '<r>&#0000000065;&#x0000000042;</r>')).toBe('AB');
  });

  it('refuses a character reference beyond U+10FFFF however it is written', () => {
    expect(() => parseXmlText('<r>&#00000001114112;</r>')).toThrow(/not an XML character/);
  });
});
