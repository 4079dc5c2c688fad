/**
 * Every XML-writing kind writes exactly one XML declaration, whatever the input carried; and the
 * XML steps of one ruleset chain share one parse of the body.
 */
import { Message } from '../../../src/message';
import { compileXCut } from '../../../src/transforms/xcut';
import { compileXMerge } from '../../../src/transforms/xmerge';
import { compileXslt } from '../../../src/transforms/xslt';
import { compileXPathMap } from '../../../src/transforms/xpath-map';
import { compileTranslation } from '../../../src/transforms/translation';
import * as parser from '../../../src/xml/xml-parser';
import { contextFor } from './context';

const WITH_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n<r><a>A1</a><b x="1">B</b></r>';
const declarations = (text: string | undefined) => (text ?? '').split('<?xml').length - 1;
const translationContext = { ...contextFor('tr'), component: 'eval', logger: { warn: () => undefined, error: () => undefined } };

describe('one XML declaration from every XML-writing kind', () => {
  it('xcut on a body with a declaration', () => {
    const msg = Message.text(WITH_DECLARATION);
    compileXCut({ XPath: '/r/a' }, contextFor('xcut'))(msg);
    expect(msg.bodyText()).toBe('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<r>\n    <b x="1">B</b>\n</r>\n');
  });

  it('xmerge on a body and a source that both have declarations', () => {
    const msg = Message.text(WITH_DECLARATION, { src: '<?xml version="1.0"?><s><c/></s>' });
    compileXMerge({ XMLField: 'src' }, contextFor('xmerge'))(msg);
    expect(declarations(msg.bodyText())).toBe(1);
  });

  it('xmerge in replace mode', () => {
    const msg = Message.text(WITH_DECLARATION, { src: '<?xml version="1.0"?><s><c/></s>' });
    compileXMerge({ XMLField: 'src', TargetXPath: '/r/a', ReplaceMode: 'true' }, contextFor('xmerge'))(msg);
    expect(declarations(msg.bodyText())).toBe(1);
  });

  it('XSLT with the default xml output on a body with a declaration', () => {
    const msg = Message.text(WITH_DECLARATION);
    compileXslt({ XSLFile: 'xsl/identity-with-declaration.xsl' }, contextFor('xsl'))(msg);
    expect(msg.bodyText()).toBe('<?xml version="1.0" encoding="UTF-8"?><r><a>A1</a><b x="1">B</b></r>');
  });

  it.each([
    ['JSON2XML', '{"a":[1,2],"b":{"c":"x"}}'],
    ['PHP2XML', 'a:1:{s:1:"a";s:1:"b";}'],
  ])('Translation %s', (name, body) => {
    const msg = Message.text(body);
    compileTranslation({ Translation: name }, translationContext)(msg);
    expect(declarations(msg.bodyText())).toBe(1);
  });
});

describe('one parse of the body per ruleset chain', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shares the tree between XPath maps and an XSLT on the same body', () => {
    const steps = [
      compileXPathMap({ XPath: { first: '/r/a' } }, contextFor('xp')),
      compileXPathMap({ XPath: { again: 'count(/r/*)' } }, contextFor('xp2')),
      compileXslt({ XSLFile: 'xsl/greeting.xsl', XSLParameter: { who: '##name##' } }, contextFor('xsl')),
    ];
    const parse = jest.spyOn(parser, 'parseXmlText');
    const msg = Message.text('<r><a>A1</a></r>', { name: 'Ann' });
    for (const step of steps) step(msg);
    expect([parse.mock.calls.length, msg.getProperty('first'), msg.getProperty('again'), msg.bodyText()]).toEqual([1, 'A1', '1', 'Hi Ann: A1']);
  });

  it('gives the next step the tree xcut changed, as parsing the new body would give it, without parsing again', () => {
    const cut = compileXCut({ XPath: '/r/a' }, contextFor('xcut'));
    const map = compileXPathMap({ XPath: { n: 'count(/r/*)', b: '/r/b', texts: 'count(/r/text())', blank: 'string(/r/text()[2])' } }, contextFor('xp'));
    const parse = jest.spyOn(parser, 'parseXmlText');
    const msg = Message.text('<r><a>A1</a><b>B</b><c/></r>');
    cut(msg);
    map(msg);
    // the body is now "<r>\n    <b>B</b>\n    <c/>\n</r>": three whitespace text nodes around two elements
    expect([parse.mock.calls.length, msg.getProperty('n'), msg.getProperty('b'), msg.getProperty('texts'), msg.getProperty('blank')]).toEqual([
      1,
      '2',
      'B',
      '3',
      '\n    ',
    ]);
  });

  it('gives the next step the tree xmerge changed, with mixed content joined as parsing would join it', () => {
    const merge = compileXMerge({ XMLField: 'src', SourceXPath: '/s/text()', TargetXPath: '/r/*' }, contextFor('xm'));
    const map = compileXPathMap({ XPath: { texts: 'count(/r/text())', all: 'string(/r)' } }, contextFor('xp'));
    const parse = jest.spyOn(parser, 'parseXmlText');
    const msg = Message.text('<r>one<a/>two</r>', { src: '<s>three</s>' });
    merge(msg);
    map(msg);
    // "two" and the appended "three" are adjacent: one text node when the new body is read back
    expect([parse.mock.calls.length, msg.getProperty('texts'), msg.getProperty('all')]).toEqual([2, '2', 'onetwothree']);
  });

  it('parses the new body again where namespaces are declared, and sees the new body', () => {
    const cut = compileXCut({ XPath: '/*/*[1]' }, contextFor('xcut'));
    const map = compileXPathMap({ XPath: { n: 'count(/*/*)', b: 'name(/*/*)' } }, contextFor('xp'));
    const parse = jest.spyOn(parser, 'parseXmlText');
    const msg = Message.text('<r xmlns:p="urn:p"><a>A1</a><p:b>B</p:b></r>');
    cut(msg);
    map(msg);
    expect([parse.mock.calls.length, msg.getProperty('n'), msg.getProperty('b')]).toEqual([2, '1', 'p:b']);
  });

  it('does not reuse a tree a failed xmerge had begun to change', () => {
    const msg = Message.text('<r><a/></r>', { src: '<s>text</s>' });
    expect(() => compileXMerge({ XMLField: 'src', SourceXPath: '/s/text()', TargetXPath: '/r', ReplaceMode: 'true' }, contextFor('xm'))(msg)).toThrow(
      /cannot append/,
    );
    compileXPathMap({ XPath: { n: 'count(/r/a)' } }, contextFor('xp'))(msg);
    expect(msg.getProperty('n')).toBe('1');
  });
});

describe('namespaces in the XPath kinds', () => {
  it('does not match an unprefixed step against an element in a default namespace, as the original', () => {
    const msg = Message.text('<order xmlns="urn:x" id="7"/>');
    compileXPathMap({ XPath: { id: '/order/@id', root: 'name(/*)' } }, contextFor('xp'))(msg);
    expect([msg.getProperty('id'), msg.getProperty('root')]).toEqual(['', 'order']);
  });
});
