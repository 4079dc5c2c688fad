import { makeEngine } from './helpers';
import { MessageEvaluatorEngine } from '../../../src/evaluator';
import { RuleConfigError } from '../../../src/rules/errors';

function configError(fn: () => unknown): RuleConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleConfigError) return e;
    throw e;
  }
  throw new Error('no error was thrown');
}

describe('start-up validation of the MessageEvaluator configuration', () => {
  it('rejects a list-valued Ruleset with a clear error (the original silently ran with no rules)', () => {
    const e = configError(() => new MessageEvaluatorEngine({ Name: 'ev', Ruleset: [{ Name: 'a' }] }, { baseDir: '.', pluginDirs: [] }));
    expect(e.component).toBe('ev');
    expect(e.key).toBe('Ruleset');
    expect(e.message).toMatch(/is a list/);
  });

  it('names the ruleset and key of an unknown key and suggests the near miss', () => {
    const e = configError(() => makeEngine({ cache: { StaticCache: { a: 'b' }, KeyTemplat: '##k##' } }));
    expect(e.ruleset).toBe('cache');
    expect(e.key).toBe('KeyTemplat');
    expect(e.message).toMatch(/did you mean "KeyTemplate"\?/);
  });

  it('rejects a bad regex naming the ruleset and the property', () => {
    const e = configError(() => makeEngine({ r: { JMSPropertyGroup: [{ name: '(' }] } }));
    expect(e.ruleset).toBe('r');
    expect(e.key).toBe('JMSPropertyGroup[0].name');
  });

  it('rejects a missing template file naming the ruleset and key', () => {
    const e = configError(() => makeEngine({ t: { TemplateFile: 'templates/nope.txt' } }));
    expect(e.key).toBe('TemplateFile');
    expect(e.message).toMatch(/cannot read/);
  });

  it('rejects a malformed substitution', () => {
    expect(configError(() => makeEngine({ f: { FormatterArgument: [{ FieldName: 'a', Substitution: ['s//:= lower/e'] }] } })).key).toBe(
      'FormatterArgument.[0].Substitution[0]',
    );
  });

  it('rejects a non-numeric DisplayMask and a ruleset that is not a map', () => {
    expect(configError(() => makeEngine({ a: { DisplayMask: 'lots' } })).key).toBe('DisplayMask');
    expect(configError(() => makeEngine({ a: 'not a map' })).ruleset).toBe('a');
  });

  it('rejects more rulesets than MaxNumberRules, and accepts the documented spelling MaxNumberRule', () => {
    expect(() => makeEngine({ a: {}, b: {} }, { MaxNumberRules: '1' })).toThrow(/more than MaxNumberRules 1/);
    expect(() => makeEngine({ a: {}, b: {} }, { MaxNumberRule: '1' })).toThrow(/more than MaxNumberRules 1/);
    expect(makeEngine({ a: {}, b: {} }, { MaxNumberRule: '2' }).engine.rulesetNames).toEqual(['a', 'b']);
  });

  it('rejects a ruleset that mixes kinds, naming the ruleset, the foreign key and the kind that decided', () => {
    expect(() => makeEngine({ mixed: { FormatterArgument: [{ FieldName: 'a', Template: ['x'] }], ParserArgument: [{ a: '(.)' }] } })).toThrow(
      /mixed.*ParserArgument.*belongs to simpleParser rulesets, but this is a formatter ruleset \(its FormatterArgument decides/s,
    );
  });

  it('rejects a key of a kind that is not there (a filter-only ruleset with NeedChop)', () => {
    expect(() => makeEngine({ f: { JMSPropertyGroup: [{ a: 'x' }], NeedChop: 'true' } })).toThrow(/f.*NeedChop.*this is a filter-only ruleset/s);
  });

  it('keeps keys two kinds share with the kind that wins (TemplateFile with the formatter)', () => {
    expect(makeEngine({ t: { FormatterArgument: [{ FieldName: 'a', Template: ['x'] }], TemplateFile: 'templates/bill.txt' } }).engine.rulesetKind('t')).toBe(
      'formatter',
    );
  });

  it('gives the plugin precedence over the formatter (ClassName first)', () => {
    expect(makeEngine({ p: { ClassName: 'upper', FormatterArgument: [] } }).engine.rulesetKind('p')).toBe('plugin');
  });

  it('treats a ruleset with only pattern groups as a filter', () => {
    expect(makeEngine({ f: { JMSPropertyGroup: [{ a: 'b' }] } }).engine.rulesetKind('f')).toBe('filter');
  });

  it('rejects a time-window key without a time-window ruleset', () => {
    expect(() => makeEngine({ t: { ActiveTime: { TimeWindow: [{ Interval: '0:0:0-1:0:0', Threshold: '-5' }] } } })).toThrow(/KeyTemplate/);
  });

  it('accepts the original sample configuration, with its single-string Pattern (extension)', () => {
    const { engine } = makeEngine(
      {
        zero: {
          JMSPropertyGroup: [{ OriginalRC: '^0$' }],
          PatternGroup: [{ Pattern: ['>0[1-9]'] }],
          StringProperty: { OriginalRC: '', ReturnCode: '', TID: '' },
        },
        perm_count: {
          JMSPropertyGroup: [{ OriginalRC: '^0$' }],
          PatternGroup: [{ Pattern: '>[1-9]' }],
          DisplayMask: '6',
          StringProperty: { OriginalRC: '', login: '' },
        },
      },
      { Description: 'test', Operation: 'evaluate', LinkName: 'eval', DisplayMask: '0', Debug: '1' },
    );
    expect(engine.rulesetNames).toEqual(['zero', 'perm_count']);
  });
});

describe('Perl constructs JavaScript would read as letters are refused at start-up, naming component, ruleset and construct', () => {
  it.each([
    ['\\p{L}+', '\\p{L} (a Unicode property) is not supported'],
    ['^a\\Kb', '\\K (keep the text matched so far out of the match) is not supported'],
    ['^(\\d)\\2$', '\\2 refers to group 2, which the pattern does not have'],
    ['\\k<id>', '\\k<id> (a named backreference) is not supported'],
  ])('%s in a PatternGroup', (pattern, reason) => {
    expect(() => makeEngine({ hosts: { PatternGroup: [{ Pattern: pattern }] } })).toThrow(
      new RegExp(
        `component "[^"]+", ruleset "hosts", key PatternGroup\\[0\\]\\.Pattern.*: bad regular expression ${JSON.stringify(pattern).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}: ${reason.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}`,
      ),
    );
  });

  it('runs a hostname pattern under (?i) with a class ending in -', () => {
    const { engine } = makeEngine({ hosts: { JMSPropertyGroup: [{ host: '(?i)^[a-z0-9.-]+$' }] } });
    expect(engine).toBeDefined();
  });
});
