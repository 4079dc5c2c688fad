import { evaluateSync, makeEngine, message, rc } from './helpers';

describe('MessageEvaluator return-code protocol', () => {
  const { engine, logged } = makeEngine({ any: {}, never: { JMSPropertyGroup: [{ nope: '.' }] } });

  it('writes SUCCESS as "0" when the rule matches and has nothing to transform', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'any' })))).toBe('0');
  });

  it('writes FAILURE as "1" when the filter does not match', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'never' })))).toBe('1');
  });

  it('copies the incoming return code into OriginalRC before resetting it', () => {
    const m = evaluateSync(engine, message({ RuleName: 'any', ReturnCode: '1' }));
    expect(m.getProperty('OriginalRC')).toBe('1');
    expect(rc(m)).toBe('0');
  });

  it('leaves OriginalRC absent when the message had no return code', () => {
    expect(evaluateSync(engine, message({ RuleName: 'any', OriginalRC: 'stale' })).getProperty('OriginalRC')).toBeUndefined();
  });

  it('leaves EXCEPTION "-1" and warns when the message names no rule', () => {
    const m = evaluateSync(engine, message({ ReturnCode: '0' }));
    expect(rc(m)).toBe('-1');
    expect(m.getProperty('OriginalRC')).toBe('0');
    expect(logged.warn.some((w) => /no rule name in RuleName/.test(w))).toBe(true);
  });

  it('leaves EXCEPTION "-1" and warns, with a suggestion, for an unknown rule name', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'anny' })))).toBe('-1');
    expect(logged.warn.some((w) => /unknown ruleset "anny"; did you mean "any"\?/.test(w))).toBe(true);
  });

  it('does not trim a single rule name (kept): " any " is unknown', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: ' any ' })))).toBe('-1');
  });

  it('reads FieldName, RCField and OriginalRC from the configuration', () => {
    const custom = makeEngine({ any: {} }, { FieldName: 'rule', RCField: 'rc', OriginalRC: 'orc' }).engine;
    const m = evaluateSync(custom, message({ rule: 'any', rc: '5' }));
    expect(m.getProperty('rc')).toBe('0');
    expect(m.getProperty('orc')).toBe('5');
  });

  it('reads FieldName as a property even when it is named like a header (quirk kept)', () => {
    const custom = makeEngine({ order: {} }, { FieldName: 'JMSType' }).engine;
    expect(rc(evaluateSync(custom, message({}, 'x', { JMSType: 'order' })))).toBe('-1');
    expect(rc(evaluateSync(custom, message({ JMSType: 'order' }, 'x')))).toBe('0');
  });

  it('lets a pattern on ReturnCode see "-1" because the reset happens before matching', () => {
    const { engine: e } = makeEngine({ rc0: { JMSPropertyGroup: [{ ReturnCode: '^0$' }] }, orc0: { JMSPropertyGroup: [{ OriginalRC: '^0$' }] } });
    expect(rc(evaluateSync(e, message({ RuleName: 'rc0', ReturnCode: '0' })))).toBe('1');
    expect(rc(evaluateSync(e, message({ RuleName: 'orc0', ReturnCode: '0' })))).toBe('0');
  });
});

describe('worked examples of docs/evaluator/rules.md', () => {
  const { engine } = makeEngine({
    zero: {
      JMSPropertyGroup: [{ OriginalRC: '^0$' }],
      PatternGroup: [{ Pattern: ['error', 'disk'] }, { Pattern: ['fatal'] }],
      XPatternGroup: [{ Pattern: ['ignore'] }],
    },
    prio: {
      JMSPropertyGroup: [{ JMSPriority: ['[5,)'], region: '^(us|eu)-' }, { attempts: ['(,0)', '[3, 10)'] }],
      XJMSPropertyGroup: [{ region: '-test$' }],
    },
  });

  it.each([
    ['0', 'disk error on sda', '0', '0'],
    ['0', 'disk error on sda (ignore)', '1', '0'],
    ['1', 'fatal', '1', '1'],
  ])('zero: ReturnCode %s and body %j give RC %s and OriginalRC %s', (incoming, body, out, original) => {
    const m = evaluateSync(engine, message({ RuleName: 'zero', ReturnCode: incoming }, body));
    expect(rc(m)).toBe(out);
    expect(m.getProperty('OriginalRC')).toBe(original);
  });

  it.each([
    ['us-east', '12', '1'],
    ['eu-test', '4', '1'],
    ['ap-south', '4', '0'],
    ['ap-south', '4.0', '1'],
  ])('prio: priority 4, region %s, attempts %s give %s', (region, attempts, out) => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'prio', region, attempts }, 'x', { JMSPriority: 4 })))).toBe(out);
  });
});
