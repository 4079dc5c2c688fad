import fc from 'fast-check';
import { evaluateSync, makeEngine, message, rc } from './helpers';
import { Message, MessageBody } from '../../../src/message';

const RULESETS = {
  body: { PatternGroup: [{ Pattern: ['error'] }] },
  parse: { ParserArgument: [{ level: '^(\\w+) ' }] },
  fmt: {
    FormatterArgument: [
      { FieldName: 'n', Template: ['##n##'], Substitution: ['s//+=1/e'] },
      { FieldName: 'body', Template: ['<##body##>'] },
    ],
  },
  cache: { StaticCache: { a: 'A' } },
  tmpl: { TemplateFile: 'templates/bill.txt' },
  prio: { JMSPropertyGroup: [{ JMSPriority: ['[5,)'], attempts: ['[0,3)'] }] },
  eval: { FormatterArgument: [{ FieldName: 'r', Template: ['##expr##'], Substitution: ['s//:=eval/e'] }] },
  decode: { FormatterArgument: [{ FieldName: 'r', Template: ['##x##'], Substitution: ['s//:=decode/e'] }] },
  branch: { Branch: ['body', 'cache'] },
  loop: { Loop: ['fmt', 'cache'] },
};
const { engine } = makeEngine(RULESETS);

describe('bad messages never make the engine throw', () => {
  it('gives FAILURE for body patterns on a message without a body', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'body' })))).toBe('1');
  });

  it('gives EXCEPTION when a body kind meets a message without a body', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'parse' })))).toBe('-1');
  });

  it('gives EXCEPTION when a formatter substitution meets a missing property', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'fmt' }, 'x')))).toBe('-1');
  });

  it('gives FAILURE for a missing property in a pattern group', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'prio' }, 'x', { JMSPriority: 9 })))).toBe('1');
  });

  it('gives EXCEPTION for a malformed eval expression and a bad URL escape', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'eval', expr: '1 +* (' })))).toBe('-1');
    expect(rc(evaluateSync(engine, message({ RuleName: 'decode', x: '%G1' })))).toBe('-1');
  });

  it('handles binary bodies (invalid UTF-8) without throwing', () => {
    const m = Message.bytes(Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x65, 0x72, 0x72, 0x6f, 0x72]), { RuleName: 'body' });
    expect(rc(evaluateSync(engine, m))).toBe('0');
    expect(rc(evaluateSync(engine, Message.bytes(Buffer.from([0xff, 0x00]), { RuleName: 'parse' })))).toBe('-1');
  });

  it('handles a 10 MB body', () => {
    const big = 'x'.repeat(10 * 1024 * 1024) + ' error';
    expect(rc(evaluateSync(engine, message({ RuleName: 'body' }, big)))).toBe('0');
    const m = evaluateSync(engine, message({ RuleName: 'fmt', n: '1' }, big));
    expect(rc(m)).toBe('0');
    expect(m.bodyText()?.length).toBe(big.length + 2);
  });

  it('gives EXCEPTION when a template file meets an object body', () => {
    expect(rc(evaluateSync(engine, Message.object({ a: 1 }, { RuleName: 'tmpl' })))).toBe('-1');
  });

  it('survives random messages and random rule names (fuzz)', () => {
    const names = [...Object.keys(RULESETS), 'nosuch', '', ' body'];
    const ruleName = fc.oneof(
      fc.constantFrom(...names),
      fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 4 }).chain((items) => fc.constantFrom(',', '|', ':').map((sep) => items.join(sep))),
      fc.string(),
    );
    const body: fc.Arbitrary<MessageBody> = fc.oneof(
      fc.constant({ kind: 'none' } as const),
      fc.string().map((text) => ({ kind: 'text', text }) as const),
      fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: 'bytes', bytes: Buffer.from(b) }) as const),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null))).map((map) => ({ kind: 'map', map }) as const),
      fc.anything().map((object) => ({ kind: 'object', object }) as const),
    );
    const props = fc.dictionary(
      fc.constantFrom('n', 'x', 'expr', 'attempts', 'ReturnCode', 'OriginalRC', 'tag', 'other'),
      fc.oneof(fc.string(), fc.integer().map(String)),
    );
    fc.assert(
      fc.property(ruleName, body, props, fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }), (name, b, p, priority) => {
        const m = new Message({ body: b, properties: { ...p, RuleName: name }, headers: priority === undefined ? {} : { JMSPriority: priority } });
        expect(() => engine.evaluate(m)).not.toThrow();
        expect(['0', '1', '-1']).toContain(m.getProperty('ReturnCode'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('bad messages never make the XML and JSON kinds throw (fuzz)', () => {
  const XML_KINDS = {
    xp: { XPath: { first: '/r/a', dyn: '/r/##el##' } },
    xcut: { XPath: '/r/b' },
    xmerge: { XMLField: 'src', SourceXPath: '/s/*', TargetXPath: '/r/a' },
    xslt: { XSLFile: '../transforms/xsl/greeting.xsl', XSLParameter: { who: '##name##', stat: 's' } },
    x2j: { Translation: 'XML2JSON' },
  };
  const JSON_KINDS = {
    jpath: { JSONPath: { id: '.order.id', first: '.l[0]' } },
    jcut: { JSONPath: '.order.items' },
    jmerge: { JSONField: 'src', TargetJSONPath: '.order' },
    jt: { JSONataFile: '../transforms/jsonata/jt1.jsonata', JSONParameter: { who: '##name##', k: '42' } },
    jfmt: {
      JSONFormatter: [
        { JSONPath: '.a.b', Operation: 'set', Template: '##k##', DataType: 'long' },
        { JSONPath: '.l', Operation: 'uniq' },
        { JSONPath: '.l', Operation: 'sort' },
        { JSONPath: '.a', Operation: 'merge', Template: '{"m":"##.a.c##"}', DataType: 'map' },
        { JSONPath: '.a.c', Operation: 'remove', Template: 'removed' },
      ],
    },
    j2x: { Translation: 'JSON2XML' },
  };
  const PHP_KINDS = { p2j: { Translation: 'PHP2JSON' }, p2x: { Translation: 'PHP2XML' } };
  const { engine: transforms } = makeEngine({ ...XML_KINDS, ...JSON_KINDS, ...PHP_KINDS });

  /** Small XML documents with the element names the rulesets look for; some cut short. */
  const xml: fc.Arbitrary<string> = fc
    .array(fc.tuple(fc.constantFrom('a', 'a', 'b', 'c', 's', '1x'), fc.string({ maxLength: 6 })), { maxLength: 5 })
    .chain((children) => {
      const doc = `<r>${children.map(([n, t]) => `<${n}>${t.replace(/[<&]/g, '')}</${n}>`).join('')}</r>`;
      return fc.nat({ max: 9 }).chain((k) => (k < 2 ? fc.nat({ max: doc.length }).map((cut) => doc.slice(0, cut)) : fc.constant(doc)));
    });
  /** JSON with the paths the rulesets use (all keys optional), or any JSON. */
  const json: fc.Arbitrary<string> = fc.oneof(
    fc
      .record(
        {
          order: fc.record({ id: fc.oneof(fc.string(), fc.integer()), items: fc.array(fc.integer(), { maxLength: 3 }) }, { requiredKeys: [] }),
          a: fc.record({ b: fc.string(), c: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }),
          l: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 5 }),
          id: fc.string(),
          items: fc.array(fc.record({ n: fc.string() }), { maxLength: 3 }),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc.json(),
  );
  /** PHP serialize() texts, valid or cut short. */
  const php: fc.Arbitrary<string> = fc
    .dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer()))
    .map((d) => {
      const entries = Object.entries(d).map(
        ([k, v]) => `s:${Buffer.byteLength(k)}:"${k}";` + (typeof v === 'number' ? `i:${v};` : `s:${Buffer.byteLength(v)}:"${v}";`),
      );
      return `a:${entries.length}:{${entries.join('')}}`;
    })
    .chain((t) => fc.nat({ max: 4 }).map((k) => (k === 0 ? t.slice(0, t.length >> 1) : t)));
  /** A body mostly in the family's format, sometimes anything. */
  const bodyOf = (text: fc.Arbitrary<string>): fc.Arbitrary<MessageBody> =>
    fc.oneof(
      { weight: 6, arbitrary: text.map((t) => ({ kind: 'text', text: t }) as const) },
      { weight: 2, arbitrary: text.map((t) => ({ kind: 'bytes', bytes: Buffer.from(t) }) as const) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: 'bytes', bytes: Buffer.from(b) }) as const) },
      { weight: 1, arbitrary: fc.string().map((t) => ({ kind: 'text', text: t }) as const) },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) },
      { weight: 1, arbitrary: fc.anything().map((object) => ({ kind: 'object', object }) as const) },
    );
  const cases = fc.oneof(
    fc.tuple(fc.constantFrom(...Object.keys(XML_KINDS)), bodyOf(xml), fc.oneof(xml, fc.string())),
    fc.tuple(fc.constantFrom(...Object.keys(JSON_KINDS)), bodyOf(json), fc.oneof(json, fc.string())),
    fc.tuple(fc.constantFrom(...Object.keys(PHP_KINDS)), bodyOf(php), fc.string()),
  );

  it('survives random bodies and properties on every XML/JSON kind, and returns 0, 1 or -1', async () => {
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(cases, fc.string({ maxLength: 4 }), async ([rule, b, src], k) => {
        const m = new Message({ body: b, properties: { RuleName: rule, src, k, el: k, name: k } });
        const r = transforms.evaluate(m);
        if (r !== undefined) await r;
        const code = m.getProperty('ReturnCode') ?? 'none';
        codes.set(code, (codes.get(code) ?? 0) + 1);
        expect(['0', '1', '-1']).toContain(code);
      }),
      { numRuns: 600 },
    );
    // The generators reach the success paths as well as the failures.
    expect(codes.get('0') ?? 0).toBeGreaterThan(100);
    expect(codes.get('-1') ?? 0).toBeGreaterThan(50);
  });
});
