import { MessageEvaluatorEngine } from '../../../src/evaluator';
import { Message } from '../../../src/message';
import { defaultRulesetKinds } from '../../../src/evaluator/default-kinds';
import { BodyTypeError, JsonInputError, TransformConfigError, TransformError } from '../../../src/transforms/errors';
import { compileJsonFormatter, jsonFormatterKind } from '../../../src/transforms/json-formatter';
import { contextFor } from './context';

/** The payload of every verified example in docs/evaluator/transforms.md (with property k=42). */
const PAYLOAD = '{"a":{"b":"1","c":"C"},"l":["y","x","y"],"n":5}';

type Op = Record<string, unknown>;

function compile(ops: Op[], warnings: string[] = []) {
  return compileJsonFormatter({ JSONFormatter: ops }, { ...contextFor('jf'), logger: { warn: (m) => warnings.push(m), error: () => undefined } });
}

/** Runs the operations on a message (body PAYLOAD, property k=42 unless given) and returns it. */
function run(ops: Op[], body: string = PAYLOAD, props: Record<string, string> = { k: '42' }): Message {
  const msg = Message.text(body, props);
  void compile(ops)(msg);
  return msg;
}

const json = (msg: Message): unknown => JSON.parse(msg.bodyText()!);
const startupError = (ops: Op[]) => () => compile(ops);

describe('JSONFormatter verified examples (docs/evaluator/transforms.md, payload with k=42)', () => {
  it('set .a.b with template ##k## and DataType long stores the integer 42 (n stays 5: Java writes 5.0, a known difference)', () => {
    const msg = run([{ JSONPath: '.a.b', Operation: 'set', Template: '##k##', DataType: 'long' }]);
    expect(msg.bodyText()).toBe('{"a":{"b":42,"c":"C"},"l":["y","x","y"],"n":5}');
  });

  it('merge .a with a map template overwrites existing keys and adds new ones', () => {
    const msg = run([{ JSONPath: '.a', Operation: 'merge', Template: '{"c":"C2","d":"D"}', DataType: 'map' }]);
    expect(msg.bodyText()).toBe('{"a":{"b":"1","c":"C2","d":"D"},"l":["y","x","y"],"n":5}');
  });

  it('union .a with the same template keeps existing keys', () => {
    const msg = run([{ JSONPath: '.a', Operation: 'union', Template: '{"c":"C2","d":"D"}', DataType: 'map' }]);
    expect(json(msg)).toEqual({ a: { b: '1', c: 'C', d: 'D' }, l: ['y', 'x', 'y'], n: 5 });
  });

  it('merge .l with a list template appends its items', () => {
    const msg = run([{ JSONPath: '.l', Operation: 'merge', Template: '["z"]', DataType: 'list' }]);
    expect(json(msg)).toEqual({ a: { b: '1', c: 'C' }, l: ['y', 'x', 'y', 'z'], n: 5 });
  });

  it('remove .a.c with template removed deletes the key and stores its value in property removed', () => {
    const msg = run([{ JSONPath: '.a.c', Operation: 'remove', Template: 'removed' }]);
    expect([msg.bodyText(), msg.getProperty('removed')]).toEqual(['{"a":{"b":"1"},"l":["y","x","y"],"n":5}', 'C']);
  });

  it('parse .a.c with template prop_##k## sets property prop_42=C and leaves the body unchanged', () => {
    const msg = run([{ JSONPath: '.a.c', Operation: 'parse', Template: 'prop_##k##' }]);
    expect([msg.getProperty('prop_42'), msg.bodyText()]).toEqual(['C', PAYLOAD]);
  });

  it('select .a with selector ^c$ keeps only key c', () => {
    const msg = run([{ JSONPath: '.a', Operation: 'select', Selector: '^c$' }]);
    expect(json(msg)).toEqual({ a: { c: 'C' }, l: ['y', 'x', 'y'], n: 5 });
  });

  it('get .zz fails (code -1)', () => {
    expect(() => run([{ JSONPath: '.zz', Operation: 'get' }])).toThrow(TransformError);
  });
});

describe('JSONFormatter README example', () => {
  it('sets, merges with a ##.path## template, removes, de-duplicates and sorts', () => {
    const msg = run([
      { JSONPath: '.a.b', Operation: 'set', Template: '##k##', DataType: 'long' },
      { JSONPath: '.a', Operation: 'merge', Template: '{"d":"##.a.c##"}', DataType: 'map' },
      { JSONPath: '.a.c', Operation: 'remove', Template: 'removed' },
      { JSONPath: '.l', Operation: 'uniq' },
      { JSONPath: '.l', Operation: 'sort' },
    ]);
    expect([msg.bodyText(), msg.getProperty('removed')]).toEqual(['{"a":{"b":42,"d":"C"},"l":["x","y"],"n":5}', 'C']);
  });
});

describe('JSONFormatter known defects and quirks', () => {
  it('[BUG] fixed: first on an array of 3 or more items keeps the first item', () => {
    const msg = run([{ JSONPath: '.l', Operation: 'first' }], '{"l":["c","b","a","d"]}');
    expect(msg.bodyText()).toBe('{"l":["c"]}');
  });

  it('[BUG] fixed: sort sorts the whole array, the last element included', () => {
    const msg = run([{ JSONPath: '.l', Operation: 'sort' }], '{"l":["c","b","a"]}');
    expect(msg.bodyText()).toBe('{"l":["a","b","c"]}');
  });

  it('[BUG] fixed: uniq removes every duplicate, keeping the first of each in order', () => {
    const msg = run([{ JSONPath: '.l', Operation: 'uniq' }], '{"l":["a","b","a","c","a","b"]}');
    expect(msg.bodyText()).toBe('{"l":["a","b","c"]}');
  });

  it('[QUIRK] reproduced: set without DataType on a path that does not exist yet stores null', () => {
    const msg = run([{ JSONPath: '.a.new', Operation: 'set', Template: 'x' }]);
    expect(json(msg)).toMatchObject({ a: { b: '1', c: 'C', new: null } });
  });

  it('a quirk of the original not reproduced: numbers are not turned into doubles (1 stays 1, 2.50 stays 2.50)', () => {
    const msg = run([{ JSONPath: '.s', Operation: 'set', Template: 'v' }], '{"i":1,"d":2.50,"s":"u"}');
    expect(msg.bodyText()).toBe('{"i":1,"d":2.50,"s":"v"}');
  });

  it('a quirk of the original not reproduced: keys keep their order instead of hash order', () => {
    const msg = run([{ JSONPath: '.z', Operation: 'merge', Template: '{"m":1,"b":2}', DataType: 'map' }], '{"z":{"y":0},"a":1}');
    expect(msg.bodyText()).toBe('{"z":{"y":0,"m":1,"b":2},"a":1}');
  });
});

describe('JSONFormatter operations', () => {
  it('get makes the value at the path the current node and the new payload', () => {
    expect(run([{ JSONPath: '.a', Operation: 'get' }]).bodyText()).toBe('{"b":"1","c":"C"}');
  });

  it('runs later operations and ##.path## templates on the current node left by get', () => {
    const msg = run([
      { JSONPath: '.a', Operation: 'get' },
      { JSONPath: '.d', Operation: 'set', Template: '##.c##-##k##', DataType: 'string' },
    ]);
    expect(msg.bodyText()).toBe('{"b":"1","c":"C","d":"C-42"}');
  });

  it('get fails when the path holds a scalar', () => {
    expect(() => run([{ JSONPath: '.n', Operation: 'get' }])).toThrow(/JSONFormatter\[0\] \(get \.n\).*not an object or a list/);
  });

  it('matches the operation name case-insensitively', () => {
    expect(json(run([{ JSONPath: '.a.c', Operation: 'ReMoVe' }]))).toMatchObject({ a: { b: '1' } });
  });

  it('does nothing for an unknown operation and warns at start-up with a suggestion', () => {
    const warnings: string[] = [];
    const msg = Message.text(PAYLOAD);
    void compile([{ JSONPath: '.a', Operation: 'sorted' }], warnings)(msg);
    expect(msg.bodyText()).toBe(PAYLOAD);
    expect(warnings[0]).toMatch(/JSONFormatter\[0\]\.Operation: "sorted" is not an operation.*did you mean "sort"/);
  });

  it('leaves the body text untouched (whitespace included) when no operation changed anything', () => {
    const body = '{ "a": {"b": "1"} }';
    const msg = run(
      [
        { JSONPath: '.a.b', Operation: 'set', Template: '1' },
        { JSONPath: '.a', Operation: 'select', Selector: '.' },
      ],
      body,
    );
    expect(msg.bodyText()).toBe(body);
  });

  it('set without DataType keeps the type of the existing value', () => {
    const msg = run([
      { JSONPath: '.n', Operation: 'set', Template: '##k##' },
      { JSONPath: '.a.b', Operation: 'set', Template: '##k##' },
    ]);
    expect(json(msg)).toMatchObject({ a: { b: '42' }, n: 42 });
  });

  it.each([
    ['double, in its shortest form', '1.50', 'double', '1.5'],
    ['boolean, true in any case', 'TRUE', 'boolean', 'true'],
    ['boolean, anything else false (Java parseBoolean)', 'yes', 'boolean', 'false'],
    ['map, parsed as JSON', '{"x":[1]}', 'map', '{"x":[1]}'],
    ['list, parsed as JSON', '[]', 'list', '[]'],
  ])('set converts with DataType %s', (_name, template, dataType, stored) => {
    expect(run([{ JSONPath: '.v', Operation: 'set', Template: template, DataType: dataType }], '{}').bodyText()).toBe(`{"v":${stored}}`);
  });

  it('set fails when the text does not fit the DataType', () => {
    expect(() => run([{ JSONPath: '.n', Operation: 'set', Template: '1.5', DataType: 'long' }])).toThrow(/not a 64-bit integer/);
    expect(() => run([{ JSONPath: '.n', Operation: 'set', Template: '[1]', DataType: 'map' }])).toThrow(/not a JSON object/);
    expect(() => run([{ JSONPath: '.n', Operation: 'set', Template: '{', DataType: 'list' }])).toThrow(/not JSON/);
  });

  it('set replaces a list item by index', () => {
    expect(json(run([{ JSONPath: '.l[-1]', Operation: 'set', Template: 'z' }]))).toMatchObject({ l: ['y', 'x', 'z'] });
  });

  it('set fails when a step before the last is not found', () => {
    expect(() => run([{ JSONPath: '.q.r', Operation: 'set', Template: 'x', DataType: 'string' }])).toThrow(/no container/);
  });

  it('applies the Substitution to the rendered template', () => {
    const msg = run([{ JSONPath: '.a.b', Operation: 'set', Template: '##k##', Substitution: 's//+=8/e', DataType: 'long' }]);
    expect(json(msg)).toMatchObject({ a: { b: 50 } });
  });

  it('fails when the Substitution fails', () => {
    expect(() => run([{ JSONPath: '.a.b', Operation: 'set', Template: '##.a.c##', Substitution: 's//+=8/e' }])).toThrow(/Substitution s\/\/\+=8\/e failed/);
  });

  it('inserts ##.path## values once: a JSON string holding ##k## is not expanded again', () => {
    const msg = run([{ JSONPath: '.out', Operation: 'set', Template: '[##.x##|##k##]', DataType: 'string' }], '{"x":"##k##"}');
    expect(json(msg)).toEqual({ x: '##k##', out: '[##k##|42]' });
  });

  it('renders a ##.path## object as compact JSON and a missing path as empty text', () => {
    const msg = run([
      { JSONPath: '.a', Operation: 'parse', Template: 'p##.nope##' },
      { JSONPath: '.z', Operation: 'set', Template: '##.a##', DataType: 'map' },
    ]);
    expect([msg.getProperty('p'), json(msg)]).toEqual(['{"b":"1","c":"C"}', expect.objectContaining({ z: { b: '1', c: 'C' } })]);
  });

  it('merge into an object copies only the keys a regex Selector accepts', () => {
    const msg = run([{ JSONPath: '.a', Operation: 'merge', Template: '{"c":"C2","d":"D"}', DataType: 'map', Selector: '^d$' }]);
    expect(json(msg)).toMatchObject({ a: { b: '1', c: 'C', d: 'D' } });
  });

  it.each([
    ['map', '{"k":"##k##"}', '{"k":"42"}'],
    ['string', 's', '"s"'],
    ['long', '##k##', '42'],
    ['boolean', 'true', 'true'],
  ])('merge appends one %s to a list', (dataType, template, appended) => {
    expect(run([{ JSONPath: '.l', Operation: 'merge', Template: template, DataType: dataType }], '{"l":[0]}').bodyText()).toBe(`{"l":[0,${appended}]}`);
  });

  it('merge on a missing path acts like set', () => {
    expect(json(run([{ JSONPath: '.m', Operation: 'merge', Template: '{"x":1}', DataType: 'map' }]))).toMatchObject({ m: { x: 1 } });
  });

  it('merge into an object with a DataType other than map fails', () => {
    expect(() => run([{ JSONPath: '.a', Operation: 'merge', Template: 'x', DataType: 'string' }])).toThrow(/needs DataType map/);
  });

  it('union on a list fails (not supported for arrays)', () => {
    expect(() => run([{ JSONPath: '.l', Operation: 'union', Template: '["z"]', DataType: 'list' }])).toThrow(/union works on objects only/);
  });

  it('remove deletes a list item and does nothing for a missing path', () => {
    expect(json(run([{ JSONPath: '.l[1]', Operation: 'remove' }]))).toMatchObject({ l: ['y', 'y'] });
    expect(run([{ JSONPath: '.nope', Operation: 'remove', Template: 'p' }]).bodyText()).toBe(PAYLOAD);
  });

  it('remove stores a removed object as compact JSON', () => {
    expect(run([{ JSONPath: '.a', Operation: 'remove', Template: 'was' }]).getProperty('was')).toBe('{"b":"1","c":"C"}');
  });

  it('parse does not set the property for a missing path or a null value', () => {
    const msg = run(
      [
        { JSONPath: '.nope', Operation: 'parse', Template: 'p' },
        { JSONPath: '.z', Operation: 'parse', Template: 'q' },
      ],
      '{"z":null}',
    );
    expect([msg.properties.has('p'), msg.properties.has('q')]).toEqual([false, false]);
  });

  it('fails when a property-name template renders empty text', () => {
    expect(() => run([{ JSONPath: '.a.c', Operation: 'parse', Template: '##missing##' }])).toThrow(/empty property name/);
  });

  it('select keeps the array values a regex accepts', () => {
    expect(json(run([{ JSONPath: '.l', Operation: 'select', Selector: '^y$' }]))).toMatchObject({ l: ['y', 'y'] });
  });

  it('select keeps the array numbers a list of intervals accepts', () => {
    expect(run([{ JSONPath: '.', Operation: 'select', Selector: ['[5,10]', '(50,)'] }], '[1,5,10,20,60]').bodyText()).toBe('[5,10,60]');
  });

  it('select keeps the array items a {path: regex} map accepts (every path must pass)', () => {
    const body = '[{"id":1,"t":"a"},{"id":2,"t":"b"},{"id":3,"t":"b"}]';
    expect(run([{ Operation: 'select', Selector: { '.t': '^b$', '.id': ['[3,)'] } }], body).bodyText()).toBe('[{"id":3,"t":"b"}]');
  });

  it('select with a list of maps keeps items any map accepts', () => {
    const body = '[{"id":1,"t":"a"},{"id":2,"t":"b"},{"id":3}]';
    expect(run([{ Operation: 'select', Selector: [{ '.t': '^a$' }, { '.id': ['[3,3]'] }] }], body).bodyText()).toBe('[{"id":1,"t":"a"},{"id":3}]');
  });

  it('select on object entries with a path map tests the entry values', () => {
    expect(run([{ Operation: 'select', Selector: { '.': '^C$' } }], '{"b":"1","c":"C"}').bodyText()).toBe('{"c":"C"}');
  });

  it('select fails on a scalar', () => {
    expect(() => run([{ JSONPath: '.n', Operation: 'select', Selector: 'x' }])).toThrow(/not an object or a list/);
  });

  it('last keeps the last list item and stores its index in the Template property', () => {
    const msg = run([{ JSONPath: '.l', Operation: 'last', Template: 'idx' }]);
    expect([json(msg), msg.getProperty('idx')]).toEqual([expect.objectContaining({ l: ['y'] }), '2']);
  });

  it('first and last keep the entry with the smallest or largest key of an object', () => {
    const body = '{"m":{"b":1,"c":2,"a":3}}';
    const first = run([{ JSONPath: '.m', Operation: 'first', Template: 'key' }], body);
    const last = run([{ JSONPath: '.m', Operation: 'last' }], body);
    expect([first.bodyText(), first.getProperty('key'), last.bodyText()]).toEqual(['{"m":{"a":3}}', 'a', '{"m":{"c":2}}']);
  });

  it('first with DataType map makes the kept item the current node', () => {
    expect(run([{ JSONPath: '.items', Operation: 'first', DataType: 'map' }], '{"items":[{"x":1},{"x":2},{"x":3}]}').bodyText()).toBe('{"x":1}');
  });

  it('first with DataType list on a map item fails; with any other DataType it fails', () => {
    expect(() => run([{ JSONPath: '.items', Operation: 'first', DataType: 'list' }], '{"items":[{"x":1}]}')).toThrow(/not a list/);
    expect(() => run([{ JSONPath: '.l', Operation: 'first', DataType: 'string' }])).toThrow(/only replace the current node as a map or a list/);
  });

  it('first leaves an empty list as it is', () => {
    expect(run([{ JSONPath: '.l', Operation: 'first', Template: 'i' }], '{"l":[]}').properties.has('i')).toBe(false);
  });

  it('sort orders numbers numerically', () => {
    expect(run([{ Operation: 'sort' }], '[10,9,100,1.5]').bodyText()).toBe('[1.5,9,10,100]');
  });

  it('sort orders maps by the rendered template, as text or (DataType long) as numbers', () => {
    const body = '[{"n":"b","q":10},{"n":"c","q":9},{"n":"a","q":100}]';
    expect(run([{ Operation: 'sort', Template: '##.n##' }], body).bodyText()).toBe('[{"n":"a","q":100},{"n":"b","q":10},{"n":"c","q":9}]');
    expect(run([{ Operation: 'sort', Template: '##.q##', DataType: 'long' }], body).bodyText()).toBe('[{"n":"c","q":9},{"n":"b","q":10},{"n":"a","q":100}]');
  });

  it('sort of maps without a Template fails', () => {
    expect(() => run([{ Operation: 'sort' }], '[{"a":1},{"a":0}]')).toThrow(/needs a Template/);
  });

  it('sort fails on an object', () => {
    expect(() => run([{ JSONPath: '.a', Operation: 'sort' }])).toThrow(/works on lists/);
  });

  it('uniq de-duplicates maps keyed by the template, keeping the first', () => {
    const body = '[{"id":1,"v":"a"},{"id":2,"v":"b"},{"id":1,"v":"c"},{"id":1,"v":"d"}]';
    expect(run([{ Operation: 'uniq', Template: '##.id##' }], body).bodyText()).toBe('[{"id":1,"v":"a"},{"id":2,"v":"b"}]');
  });

  it('uniq treats numbers by value and keeps a string apart from a number', () => {
    expect(run([{ Operation: 'uniq' }], '[1,1.0,"1",2,1]').bodyText()).toBe('[1,"1",2]');
  });

  it('each rewrites every list item with the template rendered on that item', () => {
    expect(json(run([{ JSONPath: '.l', Operation: 'each', Template: '<##.##:##k##>' }]))).toMatchObject({ l: ['<y:42>', '<x:42>', '<y:42>'] });
  });

  it('each rewrites every object entry and converts with DataType', () => {
    expect(run([{ Operation: 'each', Template: '##.##', Substitution: 's//*=2/e', DataType: 'long' }], '{"a":"1","b":"2"}').bodyText()).toBe('{"a":2,"b":4}');
  });
});

describe('JSONFormatter per-message failures', () => {
  it('fails on a body that is not JSON', () => {
    expect(() => run([{ JSONPath: '.a', Operation: 'get' }], '{"a":')).toThrow(JsonInputError);
  });

  it('fails on a map body or a message without body', () => {
    const fmt = compile([{ JSONPath: '.a', Operation: 'get' }]);
    expect(() => fmt(Message.map({ a: '1' }))).toThrow(BodyTypeError);
    expect(() => fmt(new Message({}))).toThrow(BodyTypeError);
  });

  it('fails on a path that does not fit the data (an index on an object)', () => {
    expect(() => run([{ JSONPath: '.a[0]', Operation: 'remove' }])).toThrow(TransformError);
  });

  it('keeps properties set before a failing operation but does not rewrite the body', () => {
    const msg = Message.text(PAYLOAD, { k: '42' });
    const fmt = compile([
      { JSONPath: '.a.c', Operation: 'remove', Template: 'removed' },
      { JSONPath: '.zz', Operation: 'get' },
    ]);
    expect(() => fmt(msg)).toThrow(TransformError);
    expect([msg.getProperty('removed'), msg.bodyText()]).toEqual(['C', PAYLOAD]);
  });

  it('rewrites a bytes body as text', () => {
    const msg = Message.bytes(Buffer.from('{"a":1}'));
    void compile([{ JSONPath: '.b', Operation: 'set', Template: '2', DataType: 'long' }])(msg);
    expect(msg.bodyText()).toBe('{"a":1,"b":2}');
  });
});

describe('JSONFormatter start-up validation', () => {
  it('rejects an unknown key with a suggestion, naming ruleset, operation index and key', () => {
    expect(
      startupError([
        { JSONPath: '.a', Operation: 'get' },
        { JSONPath: '.a', Operation: 'set', Templat: 'x' },
      ]),
    ).toThrow(/ruleset "jf", key JSONFormatter\[1\]\.Templat: unknown key in a JSONFormatter operation; did you mean "Template"\?/);
  });

  it('rejects an unknown DataType with a suggestion', () => {
    expect(startupError([{ JSONPath: '.a', Operation: 'set', Template: 'x', DataType: 'lng' }])).toThrow(
      /key JSONFormatter\[0\]\.DataType: unknown DataType "lng"; did you mean "long"\?/,
    );
  });

  it('rejects a bad regex Selector', () => {
    expect(startupError([{ JSONPath: '.a', Operation: 'select', Selector: '(a' }])).toThrow(/key JSONFormatter\[0\]\.Selector: bad regular expression/);
  });

  it('rejects a bad interval and a bad regex inside a path Selector', () => {
    expect(startupError([{ Operation: 'select', Selector: ['[1,'] }])).toThrow(/key JSONFormatter\[0\]\.Selector: cannot parse interval/);
    expect(startupError([{ Operation: 'select', Selector: [{ '.t': '[' }] }])).toThrow(/key JSONFormatter\[0\]\.Selector\[0\]\.\.t: bad regular expression/);
  });

  it('rejects a Selector of the wrong shape', () => {
    expect(startupError([{ Operation: 'select', Selector: 5 }])).toThrow(/key JSONFormatter\[0\]\.Selector: is 5/);
  });

  it('rejects a missing JSONPath where the operation needs one', () => {
    expect(startupError([{ Operation: 'set', Template: 'x' }])).toThrow(/key JSONFormatter\[0\]\.JSONPath: is missing \(operation set needs it\)/);
  });

  it('rejects a missing Template for parse and each, and a missing Selector for select', () => {
    expect(startupError([{ JSONPath: '.a', Operation: 'parse' }])).toThrow(/JSONFormatter\[0\]\.Template: is missing/);
    expect(startupError([{ Operation: 'each' }])).toThrow(/JSONFormatter\[0\]\.Template: is missing/);
    expect(startupError([{ Operation: 'select' }])).toThrow(/JSONFormatter\[0\]\.Selector: is missing/);
  });

  it('rejects a non-regex Selector on merge', () => {
    expect(startupError([{ JSONPath: '.a', Operation: 'merge', Template: '{}', Selector: ['[1,2]'] }])).toThrow(
      /JSONFormatter\[0\]\.Selector: merge filters the merged keys with a regex string only/,
    );
  });

  it('rejects remove of the current node', () => {
    expect(startupError([{ JSONPath: '.', Operation: 'remove' }])).toThrow(TransformConfigError);
  });

  it('rejects a malformed path, naming the JSONPath key', () => {
    expect(startupError([{ JSONPath: '.a[0', Operation: 'get' }])).toThrow(/JSONFormatter\[0\]\.JSONPath/);
  });

  it('rejects a bad substitution, naming the Substitution key', () => {
    expect(startupError([{ JSONPath: '.a', Operation: 'set', Template: 'x', Substitution: 'x/a/b/' }])).toThrow(/JSONFormatter\[0\]\.Substitution/);
  });

  it('rejects an entry that is not a map', () => {
    expect(startupError(['get'] as never)).toThrow(/key JSONFormatter\[0\]: is "get"/);
  });

  it('rejects a template field with a parenthesis, naming the Template key', () => {
    expect(startupError([{ JSONPath: '.a', Operation: 'parse', Template: '##a(b##' }])).toThrow(/JSONFormatter\[0\]\.Template/);
  });
});

describe('JSONFormatter in the ruleset-kind registry and the engine (docs/evaluator/rules.md, docs/evaluator/transforms.md)', () => {
  const kindOf = (ruleset: Record<string, unknown>) => defaultRulesetKinds().detect(ruleset)?.name;

  it('is selected by a JSONFormatter list, after JTMPFile and before an XPath map', () => {
    expect([
      kindOf({ JSONFormatter: [] }),
      kindOf({ JSONFormatter: 'x' }),
      kindOf({ JSONFormatter: [], JTMPFile: 't' }),
      kindOf({ JSONFormatter: [], XPath: { a: '/a' } }),
    ]).toEqual(['json-formatter', undefined, 'jsont', 'json-formatter']);
    expect(jsonFormatterKind.keys).toEqual(['JSONFormatter']);
  });

  const engine = new MessageEvaluatorEngine(
    {
      Name: 'eval_jf',
      Ruleset: {
        setb: { JSONFormatter: [{ JSONPath: '.a.b', Operation: 'set', Template: '##k##', DataType: 'long' }] },
        getzz: { JSONFormatter: [{ JSONPath: '.zz', Operation: 'get' }] },
        nochange: { JSONFormatter: [{ JSONPath: '.a.c', Operation: 'parse', Template: 'c' }] },
      },
    },
    { baseDir: '.', pluginDirs: [] },
  );
  afterAll(() => engine.close());

  const evaluate = (rule: string, body = PAYLOAD): Message => {
    const msg = Message.text(body, { RuleName: rule, k: '42' });
    void engine.evaluate(msg);
    return msg;
  };

  it('returns 0 and rewrites the body when an operation changed the data', () => {
    const msg = evaluate('setb');
    expect([msg.getProperty('ReturnCode'), msg.bodyText()]).toEqual(['0', '{"a":{"b":42,"c":"C"},"l":["y","x","y"],"n":5}']);
  });

  it('returns -1 for get on a missing path', () => {
    expect(evaluate('getzz').getProperty('ReturnCode')).toBe('-1');
  });

  it('returns -1 for a body that is not JSON', () => {
    expect(evaluate('setb', 'not json').getProperty('ReturnCode')).toBe('-1');
  });

  it('returns 0 without touching the body when no operation changed anything', () => {
    const msg = evaluate('nochange', ' {"a":{"c":"C"}} ');
    expect([msg.getProperty('ReturnCode'), msg.getProperty('c'), msg.bodyText()]).toEqual(['0', 'C', ' {"a":{"c":"C"}} ']);
  });
});
