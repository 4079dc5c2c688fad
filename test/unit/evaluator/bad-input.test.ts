import fc from 'fast-check';
import { evaluateSync, makeEngine, message, rc } from './helpers';
import { Message, MessageBody } from '../../../src/message';

const RULESETS = {
  body: { PatternGroup: [{ Pattern: ['error'] }] },
  parse: { ParserArgument: [{ level: '^(\\w+) ' }] },
  fmt: { FormatterArgument: [{ FieldName: 'n', Template: ['##n##'], Substitution: ['s//+=1/e'] }, { FieldName: 'body', Template: ['<##body##>'] }] },
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
    const props = fc.dictionary(fc.constantFrom('n', 'x', 'expr', 'attempts', 'ReturnCode', 'OriginalRC', 'tag', 'other'), fc.oneof(fc.string(), fc.integer().map(String)));
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
