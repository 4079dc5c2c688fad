import { Message } from '../../../src/message';
import { BodyTypeError, TransformError, XmlInputError } from '../../../src/transforms/errors';
import { compileXslt, xsltKind } from '../../../src/transforms/xslt';
import { contextFor } from './context';

const ctx = contextFor('xsl');
const run = (file: string, body: string, params: Record<string, string> = {}, props: Record<string, string> = {}) => {
  const msg = Message.text(body, props);
  compileXslt({ XSLFile: `xsl/${file}`, XSLParameter: params }, ctx)(msg);
  return msg.bodyText();
};
const PEOPLE = '<r><p name="Bo" age="40"/><p name="Al" age="9"/><p name="Cy" age="25"/></r>';

describe('XSLT (docs/evaluator/transforms.md)', () => {
  it('passes static and templated parameters as strings (worked example)', () => {
    expect(run('greeting.xsl', '<r><a>A1</a><a>A2</a></r>', { who: '##name##', stat: 'static' }, { name: 'Ann' })).toBe('Hi Annstatic: A1');
  });

  it('copies a document through an identity stylesheet', () => {
    expect(run('identity.xsl', '<r><a x="1">A1</a><b>B</b></r>')).toBe('<r><a x="1">A1</a><b>B</b></r>');
  });

  it('applies templates in modes', () => {
    expect(run('modes.xsl', '<order><item sku="s1"><qty>1</qty></item><item sku="s2"><qty>5</qty></item></order>')).toBe(
      '<summary><toc>s1</toc><toc>s2</toc><line sku="s1" qty="1"/><line sku="s2" qty="5"/></summary>',
    );
  });

  it('looks nodes up with xsl:key', () => {
    const catalog =
      '<catalog><product id="p1"><name>Pen</name></product><product id="p2"><name>Ink</name></product><order><line ref="p2" qty="3"/><line ref="p1" qty="1"/></order></catalog>';
    expect(run('keys.xsl', catalog)).toBe('<lines><line name="Ink" qty="3"/><line name="Pen" qty="1"/></lines>');
  });

  it('sorts numerically and numbers with xsl:number', () => {
    expect(run('sort-number.xsl', PEOPLE)).toBe('1. Al\n2. Cy\n3. Bo\n(a)(b)(c)');
  });

  it('takes a sort order from a parameter', () => {
    expect(run('sort-number.xsl', PEOPLE, { order: 'descending' })).toBe('1. Bo\n2. Cy\n3. Al\n(a)(b)(c)');
  });

  it('leaves the body unchanged when the output is empty', () => {
    expect(run('empty-output.xsl', '<r/>')).toBe('<r/>');
  });

  it('keeps a bytes body as bytes', () => {
    const msg = Message.bytes(Buffer.from('<r><a>A1</a></r>'), { name: 'Ann' });
    compileXslt({ XSLFile: 'xsl/greeting.xsl', XSLParameter: { who: '##name##' } }, ctx)(msg);
    expect([msg.body.kind, msg.bodyText()]).toEqual(['bytes', 'Hi Ann: A1']);
  });

  it('rejects a stylesheet that does not compile at start-up, naming ruleset and file', () => {
    expect(() => compileXslt({ XSLFile: 'xsl/broken.xsl' }, ctx)).toThrow(/ruleset "xsl", key XSLFile: stylesheet .*broken\.xsl does not compile/);
  });

  it('rejects a missing stylesheet at start-up', () => {
    expect(() => compileXslt({ XSLFile: 'xsl/nosuch.xsl' }, ctx)).toThrow(/key XSLFile: cannot read/);
  });

  it('rejects a parameter name that is not an XML name', () => {
    expect(() => compileXslt({ XSLFile: 'xsl/greeting.xsl', XSLParameter: { 'a b': 'x' } }, ctx)).toThrow(/XSLParameter\.a b/);
  });

  it('fails on a body that is not XML', () => {
    expect(() => run('identity.xsl', '<r>')).toThrow(TransformError);
  });

  it('fails on an XXE body without reading the file', () => {
    expect(() => run('identity.xsl', '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')).toThrow(XmlInputError);
  });

  it('fails when the stylesheet terminates, reporting its message', () => {
    expect(() => run('failing.xsl', '<r/>')).toThrow(/failed.*refused/);
  });

  it('fails on a map body', () => {
    expect(() => compileXslt({ XSLFile: 'xsl/identity.xsl' }, ctx)(Message.map({ a: '1' }))).toThrow(BodyTypeError);
  });

  it('is selected by XSLFile', () => {
    expect(xsltKind.detect({ XSLFile: 'x.xsl' })).toBe(true);
  });
});
