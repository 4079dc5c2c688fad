import { evaluateSync, makeEngine, message, rc } from './helpers';
import { Message } from '../../../src/message';

process.env.TZ = 'UTC';

describe('default formatter through the engine (docs/evaluator/rules.md)', () => {
  const { engine } = makeEngine({
    site: {
      FormatterArgument: [
        { FieldName: 'site', Template: ['##name##'], Substitution: ['s/_.+$//', 's//:=upper/e'] },
        { FieldName: 'summary', Template: ['[##site##]', ' ##JMSType##', ' ##body##'], Substitution: [null, 's/ //', 's/^(.{6}).*$/$1.../'] },
        { FieldName: 'count', Template: ['##count##'], Substitution: ['s//+=1/e'], DataType: 'int' },
      ],
    },
    wrap: { FormatterArgument: [{ FieldName: 'body', Template: ['<##body##|##a##>'] }] },
    broken: {
      FormatterArgument: [
        { FieldName: 'first', Template: ['done'] },
        { FieldName: 'n', Template: ['##n##'], Substitution: ['s//+=1/e'] },
      ],
    },
  });

  it('formats site, summary and count and leaves the body alone', () => {
    const m = evaluateSync(engine, message({ RuleName: 'site', name: 'east_dc1', count: '41' }, 'hello world', { JMSType: 'alert' }));
    expect(rc(m)).toBe('0');
    expect(m.getProperty('site')).toBe('EAST');
    expect(m.getProperty('summary')).toBe('[EAST]alert hello...');
    expect(m.getProperty('count')).toBe('42');
    expect(m.bodyText()).toBe('hello world');
  });

  it('rewrites the body with a template', () => {
    const m = evaluateSync(engine, message({ RuleName: 'wrap', a: 'A' }, 'hi'));
    expect(rc(m)).toBe('0');
    expect(m.bodyText()).toBe('<hi|A>');
  });

  it('gives EXCEPTION on a failed substitution and keeps the fields written before it (no rollback)', () => {
    const m = evaluateSync(engine, message({ RuleName: 'broken', n: 'abc' }, 'x'));
    expect(rc(m)).toBe('-1');
    expect(m.getProperty('first')).toBe('done');
  });
});

describe('TemplateFile (docs/evaluator/rules.md)', () => {
  const bill = (extra: Record<string, unknown>) =>
    makeEngine({
      bill: {
        FormatterArgument: [{ FieldName: 'amount', Template: ['##amount##'], Substitution: ['s//*=2/e'] }],
        TemplateFile: 'templates/bill.txt',
        ...extra,
      },
    }).engine;

  it('renders the file after the formatter and chops one newline with NeedChop', () => {
    const m = evaluateSync(bill({ NeedChop: 'true' }), message({ RuleName: 'bill', name: 'Ann', amount: '5' }, ''));
    expect(rc(m)).toBe('0');
    expect(m.getProperty('amount')).toBe('10');
    expect(m.bodyText()).toBe('Hello Ann, you owe 10.');
  });

  it('keeps the final newline without NeedChop', () => {
    expect(evaluateSync(bill({}), message({ RuleName: 'bill', name: 'Ann', amount: '5' }, '')).bodyText()).toBe('Hello Ann, you owe 10.\n');
  });

  it('is a kind of its own without FormatterArgument', () => {
    const { engine } = makeEngine({ t: { TemplateFile: 'templates/bill.txt', NeedChop: 'true' } });
    expect(evaluateSync(engine, message({ RuleName: 't', name: 'Bo', amount: '1' }, '')).bodyText()).toBe('Hello Bo, you owe 1.');
  });

  it('gives EXCEPTION when the body cannot be replaced (a map body)', () => {
    const { engine } = makeEngine({ t: { TemplateFile: 'templates/bill.txt' } });
    const m = Message.map({ a: '1' }, { RuleName: 't' });
    expect(rc(evaluateSync(engine, m))).toBe('-1');
  });
});

describe('StaticCache (docs/evaluator/rules.md)', () => {
  const { engine } = makeEngine({
    country: { StaticCache: { US: 'United States', FR: 'France' }, KeyTemplate: '##country##', KeySubstitution: 's//:=upper/e', ResultField: 'countryName' },
    plain: { StaticCache: { hello: 'HI', nested: { a: 1 }, num: 7 } },
  });

  it('looks the rendered key up and stores the value in ResultField', () => {
    const m = evaluateSync(engine, message({ RuleName: 'country', country: 'fr' }));
    expect(rc(m)).toBe('0');
    expect(m.getProperty('countryName')).toBe('France');
  });

  it('gives EXCEPTION for a missing key and writes nothing', () => {
    const m = evaluateSync(engine, message({ RuleName: 'country', country: 'de' }));
    expect(rc(m)).toBe('-1');
    expect(m.getProperty('countryName')).toBeUndefined();
  });

  it('defaults to the body as key and as result field', () => {
    expect(evaluateSync(engine, message({ RuleName: 'plain' }, 'hello')).bodyText()).toBe('HI');
  });

  it('converts scalar values to text and fails on nested values', () => {
    expect(evaluateSync(engine, message({ RuleName: 'plain' }, 'num')).bodyText()).toBe('7');
    expect(rc(evaluateSync(engine, message({ RuleName: 'plain' }, 'nested')))).toBe('-1');
  });

  it('gives EXCEPTION for an empty key', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'plain' }, '')))).toBe('-1');
  });
});

describe('SimpleParser (docs/evaluator/rules.md)', () => {
  const { engine } = makeEngine({ parse: { ParserArgument: [{ level: '^(\\w+) ' }, { code: '\\[(\\d+)\\] ' }, { body: '(.*)$' }] } });

  it('sets one property per capture group and replaces the body', () => {
    const m = evaluateSync(engine, message({ RuleName: 'parse' }, 'WARN [42] disk almost full'));
    expect(rc(m)).toBe('0');
    expect(m.getProperty('level')).toBe('WARN');
    expect(m.getProperty('code')).toBe('42');
    expect(m.bodyText()).toBe('disk almost full');
  });

  it('gives EXCEPTION when the regex does not match', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'parse' }, 'no brackets here')))).toBe('-1');
  });

  it('gives EXCEPTION for an empty body', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'parse' }, '')))).toBe('-1');
  });

  it('lets . match newlines (single-line mode)', () => {
    const m = evaluateSync(engine, message({ RuleName: 'parse' }, 'INFO [1] line1\nline2'));
    expect(m.bodyText()).toBe('line1\nline2');
  });
});

describe('time-window rulesets (docs/evaluator/transforms.md, intended behaviour; the original could not start them)', () => {
  const NOW = Date.UTC(2024, 2, 6, 12, 0, 0);
  const { engine } = makeEngine(
    {
      fresh: {
        ActiveTime: { TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '-300' }] },
        KeyTemplate: '##eventTime##',
        TimePattern: 'yyyy-MM-dd HH:mm:ss',
      },
    },
    {},
    { clock: () => NOW },
  );

  it('gives 0 for an event 2 minutes old', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'fresh', eventTime: '2024-03-06 11:58:00' })))).toBe('0');
  });

  it('gives 1 for an event 10 minutes old', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'fresh', eventTime: '2024-03-06 11:50:00' })))).toBe('1');
  });

  it('gives -1 for a time that does not parse', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'fresh', eventTime: 'garbage' })))).toBe('-1');
  });

  it('rejects a missing TimePattern and a single positive threshold at start-up (spec requirement)', () => {
    expect(() => makeEngine({ t: { ActiveTime: { TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '-300' }] }, KeyTemplate: '##t##' } })).toThrow(
      /TimePattern/,
    );
    expect(() =>
      makeEngine({ t: { ActiveTime: { TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '60' }] }, KeyTemplate: '##t##', TimePattern: 'yyyy' } }),
    ).toThrow(/single positive Threshold/);
  });
});

describe('file age and size rulesets (docs/evaluator/transforms.md)', () => {
  // The clock is a day ahead, so the fixture file is about a day old whenever the test runs.
  const { engine } = makeEngine(
    {
      small: { SizeRange: ['[0,1000)'], Template: 'templates/##file##', ResultField: 'size' },
      young: { AgeRange: ['[0,60000)'], Template: 'templates/##file##' },
      old: { AgeRange: ['[3600000,)'], Template: 'templates/##file##' },
    },
    {},
    { clock: () => Date.now() + 86400000 },
  );

  it('checks the size of the file the template names and stores it', () => {
    const m = evaluateSync(engine, message({ RuleName: 'small', file: 'bill.txt' }));
    expect(rc(m)).toBe('0');
    expect(m.getProperty('size')).toBe('36');
  });

  it('checks the age of the file against the injected clock', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'old', file: 'bill.txt' })))).toBe('0');
  });

  it('gives 1 outside the range and -1 for a missing file', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'young', file: 'bill.txt' })))).toBe('1');
    expect(rc(evaluateSync(engine, message({ RuleName: 'small', file: 'nope.txt' })))).toBe('-1');
  });
});

describe('display hook (docs/evaluator/transforms.md)', () => {
  it('calls display with the ruleset name, its mask and its StringProperty names when the mask is > 0', () => {
    const calls: unknown[][] = [];
    const { engine } = makeEngine(
      { shown: { DisplayMask: '6', StringProperty: { OriginalRC: '', ReturnCode: '', TID: '' } }, hidden: {}, minus: { DisplayMask: '-1' } },
      {},
      { display: (name, msg, mask, props) => calls.push([name, msg.getProperty('ReturnCode'), mask, props]) },
    );
    evaluateSync(engine, message({ RuleName: 'shown', TID: 't1' }, 'hello'));
    evaluateSync(engine, message({ RuleName: 'hidden' }));
    evaluateSync(engine, message({ RuleName: 'minus' }));
    expect(calls).toEqual([['shown', '0', 6, ['OriginalRC', 'ReturnCode', 'TID']]]);
  });

  it('uses the component DisplayMask as the default of every ruleset', () => {
    const calls: string[] = [];
    const { engine } = makeEngine({ a: {} }, { DisplayMask: '2' }, { display: (name) => calls.push(name) });
    evaluateSync(engine, message({ RuleName: 'a' }));
    expect(calls).toEqual(['a']);
  });
});
