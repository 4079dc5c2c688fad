import { Message } from '../../../src/message';
import { BodyTypeError, SelectionError, TransformConfigError, XmlInputError } from '../../../src/transforms/errors';
import { compileXPathMap, xpathMapKind } from '../../../src/transforms/xpath-map';
import { compileXCut, xcutKind } from '../../../src/transforms/xcut';
import { compileXMerge, xmergeKind } from '../../../src/transforms/xmerge';
import { contextFor, rootChildNames } from './context';

const BODY = '<r><a>A1</a><a>A2</a><b>B</b></r>';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n';

describe('XPath map (docs/evaluator/transforms.md)', () => {
  const rule = { XPath: { first: '/r/a', cnt: 'count(/r/*)', dyn: '/r/##el##', none: '/r/zz' } };

  it('sets each property to the string value of its expression (worked example)', () => {
    const msg = Message.text(BODY, { el: 'b' });
    compileXPathMap(rule, contextFor('xp'))(msg);
    expect(Object.fromEntries(msg.properties)).toEqual({ el: 'b', first: 'A1', cnt: '3', dyn: 'B', none: '' });
  });

  it('leaves the body unchanged', () => {
    const msg = Message.text(BODY, { el: 'b' });
    compileXPathMap(rule, contextFor('xp'))(msg);
    expect(msg.bodyText()).toBe(BODY);
  });

  it('is selected by an XPath map and not by an XPath string', () => {
    expect([xpathMapKind.detect(rule), xpathMapKind.detect({ XPath: '/r/b' })]).toEqual([true, false]);
  });

  it('rejects a bad static expression at start-up, naming ruleset and key', () => {
    expect(() => compileXPathMap({ XPath: { p: '/r/[[' } }, contextFor('xp'))).toThrow(/ruleset "xp", key XPath\.p/);
  });

  it('fails for one message whose templated expression renders badly', () => {
    const run = compileXPathMap({ XPath: { p: '/r/##el##' } }, contextFor('xp'));
    expect(() => run(Message.text(BODY, { el: '[[' }))).toThrow(/bad XPath/);
  });

  it('fails on a body that is not XML', () => {
    expect(() => compileXPathMap(rule, contextFor('xp'))(Message.text('not <xml'))).toThrow(XmlInputError);
  });

  it('fails on a message without a body', () => {
    expect(() => compileXPathMap(rule, contextFor('xp'))(new Message())).toThrow(BodyTypeError);
  });

  it('keeps the properties set before a failure', () => {
    const msg = Message.text(BODY, { el: '[[' });
    const run = compileXPathMap({ XPath: { first: '/r/a', dyn: '/r/##el##' } }, contextFor('xp'));
    expect(() => run(msg)).toThrow();
    expect(msg.getProperty('first')).toBe('A1');
  });
});

describe('xcut (docs/evaluator/transforms.md)', () => {
  it('removes the selected nodes and re-serialises with the declaration, indented (worked example)', () => {
    const msg = Message.text(BODY);
    compileXCut({ XPath: '/r/b' }, contextFor('xcut'))(msg);
    expect(msg.bodyText()).toBe(`${DECLARATION}<r>\n    <a>A1</a>\n    <a>A2</a>\n</r>\n`);
  });

  it('removes every selected sibling', () => {
    const msg = Message.text(BODY);
    compileXCut({ XPath: '/r/a' }, contextFor('xcut'))(msg);
    expect(rootChildNames(msg.bodyText()!)).toEqual(['b']);
  });

  it('changes nothing when nothing is selected', () => {
    const msg = Message.text(BODY);
    compileXCut({ XPath: '/r/zz' }, contextFor('xcut'))(msg);
    expect(msg.bodyText()).toBe(BODY);
  });

  it('changes nothing when the first selected node has no parent (an attribute)', () => {
    const msg = Message.text('<r x="1"><a/></r>');
    compileXCut({ XPath: '/r/@x' }, contextFor('xcut'))(msg);
    expect(msg.bodyText()).toBe('<r x="1"><a/></r>');
  });

  it('fails, removing nothing, when the selected nodes have different parents', () => {
    const msg = Message.text('<r><x><b/></x><b/></r>');
    expect(() => compileXCut({ XPath: '//b' }, contextFor('xcut'))(msg)).toThrow(SelectionError);
    expect(msg.bodyText()).toBe('<r><x><b/></x><b/></r>');
  });

  it('keeps a bytes body as bytes', () => {
    const msg = Message.bytes(Buffer.from(BODY));
    compileXCut({ XPath: '/r/b' }, contextFor('xcut'))(msg);
    expect(msg.body.kind).toBe('bytes');
  });

  it('fails on a map body, which it cannot rewrite', () => {
    expect(() => compileXCut({ XPath: '/r/b' }, contextFor('xcut'))(Message.map({ a: '1' }))).toThrow(BodyTypeError);
  });

  it('is selected by an XPath string', () => {
    expect(xcutKind.detect({ XPath: '/r/b' })).toBe(true);
  });
});

describe('xmerge (docs/evaluator/transforms.md)', () => {
  it('appends the source nodes after the last child of the first target parent (worked example 1)', () => {
    const msg = Message.text(BODY, { src: '<s><c>C1</c><c>C2</c></s>' });
    compileXMerge({ XMLField: 'src', SourceXPath: '/s/*', TargetXPath: '/r/a' }, contextFor('xmerge'))(msg);
    expect(rootChildNames(msg.bodyText()!)).toEqual(['a', 'a', 'b', 'c', 'c']);
  });

  it('in replace mode removes the targets and appends at the end (worked example 2)', () => {
    const msg = Message.text('<r><x><b>B</b></x><a>A2</a><b>B2</b></r>', { src: '<s><c>C1</c></s>' });
    compileXMerge({ XMLField: 'src', SourceXPath: '/s/*', TargetXPath: '/r/b', ReplaceMode: 'TRUE' }, contextFor('xmerge'))(msg);
    expect(msg.bodyText()).toBe(`${DECLARATION}<r>\n    <x>\n        <b>B</b>\n    </x>\n    <a>A2</a>\n    <c>C1</c>\n</r>\n`);
  });

  it('keeps the namespace declarations a copied element inherited in the source', () => {
    const msg = Message.text('<r><a/></r>', { src: '<s xmlns:p="urn:p"><p:c p:x="1"/><e/></s>' });
    compileXMerge({ XMLField: 'src', SourceXPath: '/s/*', TargetXPath: '/r/a' }, contextFor('xmerge'))(msg);
    expect(msg.bodyText()).toBe(`${DECLARATION}<r>\n    <a/>\n    <p:c p:x="1" xmlns:p="urn:p"/>\n    <e/>\n</r>\n`);
  });

  it('uses /*/* for both paths by default', () => {
    const msg = Message.text('<r><a/></r>', { src: '<s><c/><d/></s>' });
    compileXMerge({ XMLField: 'src' }, contextFor('xmerge'))(msg);
    expect(rootChildNames(msg.bodyText()!)).toEqual(['a', 'c', 'd']);
  });

  it('changes nothing when there is no target node', () => {
    const msg = Message.text('<r/>', { src: '<s><c/></s>' });
    compileXMerge({ XMLField: 'src' }, contextFor('xmerge'))(msg);
    expect(msg.bodyText()).toBe('<r/>');
  });

  it('fails when the XMLField property is missing', () => {
    expect(() => compileXMerge({ XMLField: 'src' }, contextFor('xmerge'))(Message.text(BODY))).toThrow(/no property "src"/);
  });

  it('fails when the XMLField property is not XML', () => {
    expect(() => compileXMerge({ XMLField: 'src' }, contextFor('xmerge'))(Message.text(BODY, { src: '<s>' }))).toThrow(XmlInputError);
  });

  it('fails in replace mode when the targets have different parents', () => {
    const run = compileXMerge({ XMLField: 'src', TargetXPath: '//b', ReplaceMode: 'true' }, contextFor('xmerge'));
    expect(() => run(Message.text('<r><x><b/></x><b/></r>', { src: '<s><c/></s>' }))).toThrow(SelectionError);
  });

  it('rejects a bad TargetXPath at start-up', () => {
    expect(() => compileXMerge({ XMLField: 'src', TargetXPath: '/r/[[' }, contextFor('xm'))).toThrow(TransformConfigError);
  });

  it('is selected by XMLField', () => {
    expect(xmergeKind.detect({ XMLField: 'src' })).toBe(true);
  });
});
