/**
 * JTMPFile: QBroker's JSONT (docs/evaluator/transforms.md). Expected outputs are the original's, as
 * its code produces them (JSONTemplate, Template, JSON2FmModel of release 1.1.0), including the
 * examples the reference page ran through the original's own classes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Message } from '../../../src/message';
import { compileJsontRuleset, jsontKind } from '../../../src/transforms/jsont-template';
import { JsonInputError, TransformConfigError, TransformError } from '../../../src/transforms/errors';
import { contextFor } from './context';

const dir = mkdtempSync(join(tmpdir(), 'xroute-jsont-'));
let files = 0;

/** Writes a template file and compiles a ruleset naming it. */
function ruleset(templateFile: string | object, parameters?: Record<string, string>) {
  const name = `t${++files}.json`;
  writeFileSync(join(dir, name), typeof templateFile === 'string' ? templateFile : JSON.stringify(templateFile));
  return compileJsontRuleset({ JTMPFile: name, ...(parameters ? { JSONParameter: parameters } : {}) }, contextFor('jt', dir));
}

/** The body after the ruleset, for a template string and a body. */
function format(template: string | object, body: string, parameters?: Record<string, string>, properties: Record<string, string> = {}): string | undefined {
  const msg = Message.text(body, properties);
  ruleset(typeof template === 'string' ? { name: 'x', template } : template, parameters)(msg);
  return msg.bodyText();
}

const ITEM = '{"item": {"sku": "A-1", "qty": 3, "price": 2.50, "tags": ["x", "y"], "dims": {"w": 10, "h": 2}, "ok": true}}';
const WIDE =
  '{"sku": ##.item.sku##, "qty": ##.item.qty##, "price": ##.item.price##, "tags": ##.item.tags##, "dims": ##.item.dims##, "ok": ##.item.ok##, "gone": ##.item.nothing##, "by": ##p:who##, "raw": ##P:extra##, "nop": ##p:unset##}';

describe("JTMPFile: QBroker's JSONT, the original's output", () => {
  it.each([
    [
      'every value kind, static parameters',
      WIDE,
      ITEM,
      { who: 'ops', extra: '{"k": 1}' },
      '{"sku": "A-1", "qty": 3.0, "price": 2.5, "tags": ["x","y"], "dims": {"w":10.0,"h":2.0}, "ok": true, "gone": null, "by": "ops", "raw": {"k": 1}, "nop": null}',
    ],
    ['a string value inserted without escaping', '{"sku": ##.item.sku##}', '{"item": {"sku": "say \\"hi\\"\\n"}}', {}, '{"sku": "say "hi"\n"}'],
    ['an exponent with a decimal point', '{"qty": ##.item.qty##}', '{"item": {"qty": 1.5e3}}', {}, '{"qty": 1500.0}'],
    [
      'nested map keys in Java HashMap order',
      '{"dims": ##.dims##}',
      '{"dims": {"b": 1, "a": 2, "B": 3, "aa": 4}}',
      {},
      '{"dims": {"aa":4.0,"a":2.0,"b":1.0,"B":3.0}}',
    ],
    [
      'list paths: [n], .n, a path without the leading dot, a negative index',
      '[##.a.list[1]##, ##.a.list.0##, ##a.n##, ##.a.list[-1]##]',
      '{"a": {"list": ["p", "q"], "n": 12345678}}',
      {},
      '["q", "p", 1.2345678E7, null]',
    ],
    ['the whole body', '{"all": ##.##}', '{"z": 1, "a": [true, {"k": null}]}', {}, '{"all": {"a":[true,{"k":null}],"z":1.0}}'],
    ['a path through a scalar gives null', '##.a.b##', '{"a": 5}', {}, 'null'],
    ['a path through null gives null', '##.a.b##', '{"a": null}', {}, 'null'],
    ['a list body', '##.[1].k## ##[0]##', '[{"k": 1}, {"k": "v"}]', {}, '"v" {"k":1.0}'],
    [
      'numbers as Java prints doubles',
      '##.a## ##.b## ##.c## ##.d## ##.e##',
      '{"a": -7, "b": 0.0001, "c": 9007199254740993, "d": -0.0, "e": 0}',
      {},
      '-7.0 1.0E-4 9.007199254740992E15 -0.0 0.0',
    ],
    ['comments in the body', '##.a##', '{"a": /* c */ 1 // d\n}', {}, '1.0'],
    ['a repeated key keeps the last value', '##.a##', '{"a": 1, "a": 2}', {}, '2.0'],
    ['blanks inside a bare literal are dropped', '##.a##', '{"a": [1 2]}', {}, '[12.0]'],
  ])('%s', (_title, template, body, parameters, expected) => {
    expect(format(template, body, parameters)).toBe(expected);
  });

  it('writes a map template compactly in HashMap order and unquotes its fields', () => {
    const template = { name: 'm', template: { id: '##.id##', who: '##p:u##', fixed: 1, lit: 'plain' }, substitution: 's/id/ID/g' };
    expect(format(template, '{"id": 7}', { u: 'bob' })).toBe('{"lit":"plain","fixed":1.0,"id":7.0,"who":"bob"}');
  });

  it('accepts Name for name', () => {
    expect(format({ Name: 'n', template: '##.a##' }, '{"a": "b"}')).toBe('"b"');
  });

  it('renders a dynamic parameter from the message, a missing property as an empty string', () => {
    expect(format('##p:who##/##p:gone##/##P:raw##', '{"a": 1}', { who: '##name##', gone: '##nothing##', raw: '##JMSType##' }, { name: 'Ann' })).toBe(
      '"Ann"/""/',
    );
  });

  it('sets parameters anew for each message (the later original), so none leaks to the next', () => {
    const run = ruleset({ name: 'x', template: '##p:who##' }, { who: '##name##' });
    const first = Message.text('{"a": 1}', { name: 'Ann' });
    const second = Message.text('{"a": 1}');
    run(first);
    run(second);
    expect([first.bodyText(), second.bodyText()]).toEqual(['"Ann"', '""']);
  });

  it('ignores parameters named r:… or v:…, as the original does', () => {
    expect(format('##p:v:x##', '{"a": 1}', { 'v:x': 'no' })).toBe('null');
  });

  it('lets later fields see text that earlier fields inserted, in the original order', () => {
    // Fields ".a" and "p:b": HashMap order puts ".a" (bucket 14) before "p:b" (bucket 15).
    expect(format('##.a## ##p:b##', '{"a": "##p:b##"}', { b: 'zz' })).toBe('""zz"" "zz"');
  });

  it('reads a field with pattern characters as the original does: . matches any character', () => {
    expect(format('##.a## ##xa##', '{"a": 1}')).toBe('1.0 1.0');
  });

  it('leaves the body unchanged for an empty map or list, with SUCCESS', () => {
    expect(format('##.a##', '{}')).toBe('{}');
    expect(format('##.a##', ' [ ] ')).toBe(' [ ] ');
  });
});

describe('JTMPFile: what gives EXCEPTION (the body unchanged)', () => {
  it.each([
    ['an empty body', '', TransformError],
    ['a number without a decimal point that is not a long', '{"a": 1e3}', JsonInputError],
    ['an integer of 20 digits', '{"a": 12345678901234567890}', JsonInputError],
    ['a list ending with an unquoted value after a comma', '{"a": [1, 2]}', JsonInputError],
    ['a null after a comma at the end of a list', '["a", null]', JsonInputError],
    ['a \\u escape', '{"a": "\\u0041"}', JsonInputError],
    ['a raw tab inside a string', '{"a": "x\ty"}', JsonInputError],
    ['a top-level string', '"abc"', TransformError],
    ['a top-level number', '5', TransformError],
    ['an unclosed map', '{"a": 1', JsonInputError],
    ['a non-numeric index on a list', '{"a": ["x"]}', TransformError],
  ])('%s', (_title, body, errorClass) => {
    const template = _title === 'a non-numeric index on a list' ? '##.a.x##' : '##.a##';
    const msg = Message.text(body);
    expect(() => ruleset({ name: 'x', template })(msg)).toThrow(errorClass);
    expect(msg.bodyText()).toBe(body);
  });

  it('accepts the list shapes the original accepts', () => {
    expect(format('##.##', '[[1],[2]]')).toBe('[[1.0],[2.0]]');
    expect(format('##.##', '[null, "a"]')).toBe('[null,"a"]');
    expect(format('##.##', '[true, {"k":null}]')).toBe('[true,{"k":null}]');
  });
});

describe('JTMPFile: refused at start-up, naming ruleset, key and file', () => {
  it.each([
    ['no name', { template: '##.a##' }, /no name/],
    ['no template', { name: 'x' }, /no template/],
    ['a template without a field', { name: 'x', template: '{"a": 1}' }, /without any ##field##/],
    ['a number template', { name: 'x', template: 5 }, /without any ##field##/],
    ['sections', { name: 'x', template: '##s:a##', sections: [{ name: 'a', path: '.a', operation: 'copy' }] }, /sections/],
    ['a section field', { name: 'x', template: '##s:a##' }, /section field ##s:a##/],
    ['variables', { name: 'x', template: '##.a##', variable: { v: '.a' } }, /variable/],
    ['keepOriginalOrder', { name: 'x', template: '##.a##', keepOriginalOrder: 'true' }, /keepOriginalOrder/],
    ["the original's internal body parameter", { name: 'x', template: '##p:r:_JSON_##' }, /internal copy of the body/],
    ['a field that is no Perl5 pattern', { name: 'x', template: '##a)b##' }, /cannot be compiled as a Perl5 pattern/],
    ['a bad substitution', { name: 'x', template: '##.a##', substitution: 's/(/x/' }, /the template's substitution "s\/\(\/x\/" does not compile/],
  ])('%s', (_title, template, message) => {
    expect(() => ruleset(template)).toThrow(TransformConfigError);
    expect(() => ruleset(template)).toThrow(message);
  });

  it('refuses a file that is not JSON, pointing a JSONata expression to JSONataFile', () => {
    expect(() => ruleset('{ "id": id, "who": $who }')).toThrow(/ruleset "jt", key JTMPFile: .*t\d+\.json: is not a JSONT template file .*JSONataFile/);
  });

  it('refuses a template file the original parser refuses', () => {
    expect(() => ruleset('{"name": "x", "template": ["##.a##", 1, 2]}')).toThrow(/is not a JSONT template file/);
  });

  it('refuses a JSONParameter value that is not a string', () => {
    writeFileSync(join(dir, 'p.json'), '{"name": "p", "template": "##p:a##"}');
    expect(() => compileJsontRuleset({ JTMPFile: 'p.json', JSONParameter: { a: 1 } }, contextFor('jt', dir))).toThrow(/JSONParameter\.a/);
  });

  it('is selected by JTMPFile', () => {
    expect(jsontKind.detect({ JTMPFile: 'x' })).toBe(true);
  });
});
