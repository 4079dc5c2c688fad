import { CompiledXPath, XPathProblem } from '../../../src/transforms/xpath-expression';
import { parseXml } from '../../../src/xml/safe-xml';

const doc = parseXml('<ns:r xmlns:ns="urn:x" x="7"><ns:a>A1</ns:a><a>A2</a><b>B</b></ns:r>');
const str = (e: string) => CompiledXPath.compile(e).stringValue(doc);

describe('XPath expressions (docs/evaluator/transforms.md)', () => {
  it('matches an unprefixed step by local name whatever the namespace', () => {
    expect(str('/r/a')).toBe('A1');
  });

  it('renders a number result as text', () => {
    expect(str('count(/r/*)')).toBe('3');
  });

  it('gives an attribute value for an attribute step', () => {
    expect(str('/r/@x')).toBe('7');
  });

  it('gives the concatenated text for string()', () => {
    expect(str('string(/r)')).toBe('A1A2B');
  });

  it('gives the empty string when nothing is selected', () => {
    expect(str('/r/zz')).toBe('');
  });

  it('selects nodes in document order for a union', () => {
    const nodes = CompiledXPath.compile('//b | //a').selectNodes(doc);
    expect(nodes.map((n) => n.stringValue())).toEqual(['A1', 'A2', 'B']);
  });

  it('rejects a prefixed step when compiling', () => {
    expect(() => CompiledXPath.compile('/ns:r')).toThrow(/prefixed step ns:r/);
  });

  it('rejects a prefixed wildcard when compiling', () => {
    expect(() => CompiledXPath.compile('/r/ns:*')).toThrow(XPathProblem);
  });

  it('rejects a syntax error when compiling', () => {
    expect(() => CompiledXPath.compile('/r/[[')).toThrow(/bad XPath/);
  });

  it('refuses to select nodes with an expression that is not a node set', () => {
    expect(() => CompiledXPath.compile('count(/r)').selectNodes(doc)).toThrow(/does not select nodes/);
  });
});
