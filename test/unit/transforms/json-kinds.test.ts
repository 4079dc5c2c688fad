import { Message } from '../../../src/message';
import { BodyTypeError, JsonInputError, SelectionError, TransformConfigError, TransformError } from '../../../src/transforms/errors';
import { compileJsonPathMap, jsonPathMapKind } from '../../../src/transforms/jsonpath-map';
import { compileJCut, jcutKind } from '../../../src/transforms/jcut';
import { compileJMerge, jmergeKind } from '../../../src/transforms/jmerge';
import { compileJsonataTemplate, jsonataTemplateKind } from '../../../src/transforms/jsonata-template';
import { contextFor } from './context';

const ORDER = '{"order":{"id":"A-7","items":[{"sku":"s1","qty":"1"},{"sku":"s2","qty":"5"}]}}';

describe('JSONPath map (docs/evaluator/transforms.md)', () => {
  const rule = {
    JSONPath: {
      orderId: '.order.id',
      firstSku: '.order.items[0].sku',
      lastItem: '.order.items[-1]',
      big: '.order.items[#{qty} > 2].sku',
      nothing: '.order.nope',
    },
  };

  it('sets properties from paths (worked example; keys keep input order)', () => {
    const msg = Message.text(ORDER);
    compileJsonPathMap(rule, contextFor('jpath'))(msg);
    expect(Object.fromEntries(msg.properties)).toEqual({ orderId: 'A-7', firstSku: 's1', lastItem: '{"sku":"s2","qty":"5"}', big: 's2' });
  });

  it('leaves the body unchanged', () => {
    const msg = Message.text(ORDER);
    compileJsonPathMap(rule, contextFor('jpath'))(msg);
    expect(msg.bodyText()).toBe(ORDER);
  });

  it('renders scalars as their literal text and quotes scalars inside objects', () => {
    const msg = Message.text('{"p":2.50,"t":true,"o":{"q":1,"l":[false]}}');
    compileJsonPathMap({ JSONPath: { p: 'p', t: 't', o: 'o' } }, contextFor('jpath'))(msg);
    expect(Object.fromEntries(msg.properties)).toEqual({ p: '2.50', t: 'true', o: '{"q":"1","l":["false"]}' });
  });

  it('does not set a property whose path leads to null', () => {
    const msg = Message.text('{"a":null}');
    compileJsonPathMap({ JSONPath: { a: 'a' } }, contextFor('jpath'))(msg);
    expect(msg.properties.has('a')).toBe(false);
  });

  it('does not expand templates in paths', () => {
    const msg = Message.text('{"##k##":"literal"}', { k: 'x' });
    compileJsonPathMap({ JSONPath: { v: '##k##' } }, contextFor('jpath'))(msg);
    expect(msg.getProperty('v')).toBe('literal');
  });

  it('fails for a path that does not fit the data, keeping the properties already set', () => {
    const msg = Message.text(ORDER);
    const run = compileJsonPathMap({ JSONPath: { id: '.order.id', bad: '.order.items.sku' } }, contextFor('jpath'));
    expect(() => run(msg)).toThrow(TransformError);
    expect(msg.getProperty('id')).toBe('A-7');
  });

  it('fails on a body that is not JSON', () => {
    expect(() => compileJsonPathMap(rule, contextFor('jpath'))(Message.text('{"a":'))).toThrow(JsonInputError);
  });

  it('rejects a malformed path at start-up, naming ruleset and key', () => {
    expect(() => compileJsonPathMap({ JSONPath: { p: '.a[0' } }, contextFor('jpath'))).toThrow(/ruleset "jpath", key JSONPath\.p/);
  });

  it('is selected by a JSONPath map, and jcut by a JSONPath string', () => {
    expect([jsonPathMapKind.detect(rule), jsonPathMapKind.detect({ JSONPath: '.a' }), jcutKind.detect({ JSONPath: '.a' })]).toEqual([true, false, true]);
  });
});

describe('JSONataFile with JSONata and JSONParameter variables (docs/evaluator/transforms.md)', () => {
  const run = async (file: string, body: string, params: Record<string, string> = {}, props: Record<string, string> = {}) => {
    const msg = Message.text(body, props);
    await compileJsonataTemplate({ JSONataFile: `jsonata/${file}`, JSONParameter: params }, contextFor('jt'))(msg);
    return msg.bodyText();
  };

  it('renders the worked example with a templated and a static parameter', async () => {
    expect(await run('jt1.jsonata', '{"id":"7","items":[{"n":"1"},{"n":"2"}]}', { who: '##name##', k: '42' }, { name: 'Ann' })).toBe(
      '{"id":"7","k":42,"items":[{"n":"1"},{"n":"2"}],"who":"Ann"}',
    );
  });

  it('renders the nested-sections join example', async () => {
    expect(await run('join.jsonata', '{"list":[{"id":"1","v":"a"},{"id":"2","v":"b"},{"id":"3","v":"a"}]}')).toBe(
      '[{"v":"a","ids":["1","3"]},{"v":"b","ids":["2"]},{"v":"a","ids":["1","3"]}]',
    );
  });

  it('writes a string result as plain text', async () => {
    expect(await run('text-output.jsonata', '{"id":"7"}', { who: 'Bo' })).toBe('order 7 for Bo');
  });

  it('escapes parameter values properly in JSON output', async () => {
    expect(await run('jt1.jsonata', '{"id":"7","items":[]}', { who: 'a "b"\nc', k: '1' })).toBe('{"id":"7","k":1,"items":[],"who":"a \\"b\\"\\nc"}');
  });

  it('leaves the body unchanged when the expression gives no result', async () => {
    expect(await run('nothing.jsonata', '{"id":"7"}')).toBe('{"id":"7"}');
  });

  it('fails on a body that is not JSON', async () => {
    await expect(run('jt1.jsonata', 'not json')).rejects.toThrow(JsonInputError);
  });

  it('fails when evaluation fails', async () => {
    await expect(run('failing.jsonata', '{"id":"7"}')).rejects.toThrow(/JSONata evaluation failed/);
  });

  it('fails on a message without a body', async () => {
    await expect(compileJsonataTemplate({ JSONataFile: 'jsonata/jt1.jsonata' }, contextFor('jt'))(new Message())).rejects.toThrow(BodyTypeError);
  });

  it('rejects an expression that does not compile at start-up, naming ruleset, key and file', () => {
    expect(() => compileJsonataTemplate({ JSONataFile: 'jsonata/broken.jsonata' }, contextFor('jt'))).toThrow(
      /ruleset "jt", key JSONataFile: .*broken\.jsonata is not a JSONata expression/,
    );
  });

  it('rejects a missing template file at start-up', () => {
    expect(() => compileJsonataTemplate({ JSONataFile: 'jsonata/nosuch.jsonata' }, contextFor('jt'))).toThrow(/key JSONataFile: cannot read/);
  });

  it('rejects a parameter name that cannot be a variable', () => {
    expect(() => compileJsonataTemplate({ JSONataFile: 'jsonata/jt1.jsonata', JSONParameter: { '.a.b': 'x' } }, contextFor('jt'))).toThrow(
      /JSONParameter\.\.a\.b/,
    );
  });

  it('is selected by JSONataFile', () => {
    expect(jsonataTemplateKind.detect({ JSONataFile: 'x' })).toBe(true);
  });
});

describe('jcut (docs/evaluator/transforms.md, extension)', () => {
  const cut = (path: string, body: string) => {
    const msg = Message.text(body);
    compileJCut({ JSONPath: path }, contextFor('jcut'))(msg);
    return msg.bodyText();
  };

  it('removes a key from its object, keeping numbers as written', () => {
    expect(cut('.a.c', '{"a":{"b":2.50,"c":"C"},"n":1}')).toBe('{"a":{"b":2.50},"n":1}');
  });

  it('removes an element from its list', () => {
    expect(cut('.l[1]', '{"l":["x","y","z"]}')).toBe('{"l":["x","z"]}');
  });

  it('removes the first element matching a condition', () => {
    expect(cut('.items[#{qty} > 2]', ORDER.slice(9, -1))).toBe('{"id":"A-7","items":[{"sku":"s1","qty":"1"}]}');
  });

  it('changes nothing when the path is not found', () => {
    expect(cut('.a.zz', '{"a": {}}')).toBe('{"a": {}}');
  });

  it('fails for a path that does not fit the data', () => {
    expect(() => cut('.l.x', '{"l":[1]}')).toThrow(TransformError);
  });

  it('refuses the root path at start-up', () => {
    expect(() => compileJCut({ JSONPath: '.' }, contextFor('jcut'))).toThrow(TransformConfigError);
  });
});

describe('jmerge (docs/evaluator/transforms.md, extension)', () => {
  const merge = (rule: Record<string, string>, body: string, src: string | undefined) => {
    const msg = Message.text(body, src === undefined ? {} : { src });
    compileJMerge({ JSONField: 'src', ...rule }, contextFor('jmerge'))(msg);
    return msg.bodyText();
  };

  it('appends a source list to a target list, skipping nulls', () => {
    expect(merge({ TargetJSONPath: '.l' }, '{"l":["y"]}', '["z",null,1]')).toBe('{"l":["y","z",1]}');
  });

  it('appends a non-list source as one element', () => {
    expect(merge({ SourceJSONPath: '.x', TargetJSONPath: '.l' }, '{"l":[]}', '{"x":{"k":1}}')).toBe('{"l":[{"k":1}]}');
  });

  it('adds only the keys the target object lacks (union)', () => {
    expect(merge({ TargetJSONPath: '.a' }, '{"a":{"b":"1","c":"C"}}', '{"c":"C2","d":"D"}')).toBe('{"a":{"b":"1","c":"C","d":"D"}}');
  });

  it('merges into the root by default', () => {
    expect(merge({}, '{"a":1}', '{"b":2}')).toBe('{"a":1,"b":2}');
  });

  it('changes nothing when the source path is not found', () => {
    expect(merge({ SourceJSONPath: '.zz' }, '{"a": 1}', '{"b":2}')).toBe('{"a": 1}');
  });

  it('changes nothing when every key already exists', () => {
    expect(merge({}, '{"a": 1}', '{"a":2}')).toBe('{"a": 1}');
  });

  it('fails when the target is not found', () => {
    expect(() => merge({ TargetJSONPath: '.zz' }, '{"a":1}', '{"b":2}')).toThrow(SelectionError);
  });

  it('fails when a list is merged into an object', () => {
    expect(() => merge({}, '{"a":1}', '[1]')).toThrow(/cannot merge a list into an object/);
  });

  it('fails when the JSONField property is missing', () => {
    expect(() => merge({}, '{}', undefined)).toThrow(/no property "src"/);
  });

  it('fails when the JSONField property is not JSON', () => {
    expect(() => merge({}, '{}', '{x')).toThrow(JsonInputError);
  });

  it('is selected by JSONField', () => {
    expect(jmergeKind.detect({ JSONField: 'src' })).toBe(true);
  });
});
