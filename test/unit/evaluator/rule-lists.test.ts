import { evaluateSync, makeEngine, message, rc } from './helpers';

/** The rulesets of the verified examples in docs/evaluator/rules.md: isA/isB append to tag, any appends *, bad always fails. */
const RULESETS = {
  isA: { JMSPropertyGroup: [{ kind: '^a$' }], FormatterArgument: [{ FieldName: 'tag', Template: ['##tag##A'] }] },
  isB: { JMSPropertyGroup: [{ kind: '^b$' }], FormatterArgument: [{ FieldName: 'tag', Template: ['##tag##B'] }] },
  any: { FormatterArgument: [{ FieldName: 'tag', Template: ['##tag##*'] }] },
  bad: { FormatterArgument: [{ FieldName: 'n', Template: ['x'], Substitution: ['s//+=1/e'] }] },
  sawZero: { JMSPropertyGroup: [{ OriginalRC: '^0$' }], FormatterArgument: [{ FieldName: 'saw', Template: ['yes'] }] },
  body2: { FormatterArgument: [{ FieldName: 'body', Template: ['[m]'] }] },
  bodyhas: { PatternGroup: [{ Pattern: ['^\\['] }] },
  branch: { Branch: ['isB', 'isA', 'any'] },
  gated: { JMSPropertyGroup: [{ go: '^y$' }], Branch: ['isB', 'isA'] },
  loop: { Loop: ['isA', 'isB', 'any'] },
  loopBad: { Loop: ['any', 'bad', 'isA'] },
  loopB: { Loop: ['isB'] },
  loopBody: { Loop: ['body2', 'bodyhas', 'any'] },
};

const { engine, logged } = makeEngine(RULESETS);
const run = (rule: string, props: Record<string, string> = {}, body = 'm') => evaluateSync(engine, message({ RuleName: rule, tag: '', ...props }, body));

describe('comma lists: a chain where every item must succeed', () => {
  it('applies every item in order', () => {
    const m = run('isA, any', { kind: 'a' });
    expect(rc(m)).toBe('0');
    expect(m.getProperty('tag')).toBe('A*');
  });

  it('stops at the first item that does not match, with 1, after applying the earlier ones', () => {
    const m = run('isA,isB', { kind: 'a', ReturnCode: '1' });
    expect(rc(m)).toBe('1');
    expect(m.getProperty('tag')).toBe('A');
    expect(m.getProperty('OriginalRC')).toBe('0');
  });

  it('sets OriginalRC to "0" after each successful item so later items see a success (kept)', () => {
    const m = run('any,sawZero', { ReturnCode: '1' });
    expect(rc(m)).toBe('0');
    expect(m.getProperty('saw')).toBe('yes');
  });

  it('stops with -1 when a transformation fails (bug fixed: the original went on, bad,any gave 0)', () => {
    const m = run('bad,any');
    expect(rc(m)).toBe('-1');
    expect(m.getProperty('tag')).toBe('');
  });

  it('gives -1 when the last item fails', () => {
    expect(rc(run('any,bad'))).toBe('-1');
  });

  it('re-reads the body for each item, so later items see earlier changes', () => {
    expect(rc(run('body2,bodyhas'))).toBe('0');
  });

  it('stops with -1 at an unknown item, including an empty one', () => {
    expect(rc(run('any,nosuch'))).toBe('-1');
    expect(rc(run('any,'))).toBe('-1');
    expect(logged.error.some((e) => /unknown ruleset "nosuch" in rule list "any,nosuch"/.test(e))).toBe(true);
  });

  it('never mixes separators: a|b,c is a comma list whose item a|b is unknown', () => {
    expect(rc(run('isA|any,any', { kind: 'a' }))).toBe('-1');
  });

  it('does not treat a leading separator as a list: ,a is an unknown single name', () => {
    expect(rc(run(',any'))).toBe('-1');
  });
});

describe('pipe lists: the first hit wins', () => {
  it('applies only the first matching item', () => {
    const m = run('isB|isA|any', { kind: 'a' });
    expect(rc(m)).toBe('0');
    expect(m.getProperty('tag')).toBe('A');
  });

  it('gives 1 when no item matches', () => {
    expect(rc(run('isB|isA', { kind: 'c' }))).toBe('1');
  });

  it('gives -1 at an unknown item even after earlier items did not match', () => {
    expect(rc(run('isB|nosuch|any', { kind: 'a' }))).toBe('-1');
  });

  it('gives -1 when the selected item fails its transformation', () => {
    expect(rc(run('isB|bad|any', { kind: 'a' }))).toBe('-1');
  });
});

describe('colon lists: every hit is applied (fixed semantics)', () => {
  it('applies every matching item and gives 0 when at least one matched (the original reported the last item only)', () => {
    const m = run('isA:any:isB', { kind: 'a' });
    expect(m.getProperty('tag')).toBe('A*');
    expect(rc(m)).toBe('0');
  });

  it('gives 1 when no item matched', () => {
    expect(rc(run('isA:isB', { kind: 'c' }))).toBe('1');
  });

  it('stops with -1 at the first failure (the original went on: bad:any gave 0)', () => {
    const m = run('bad:any');
    expect(rc(m)).toBe('-1');
    expect(m.getProperty('tag')).toBe('');
  });

  it('re-reads the body after a transformation (stale-body bug fixed: body2:bodyhas gives 0)', () => {
    expect(rc(run('body2:bodyhas'))).toBe('0');
  });

  it('gives -1 at an unknown item', () => {
    expect(rc(run('any:nosuch'))).toBe('-1');
  });
});

describe('Branch and Loop rulesets (verified examples, docs/evaluator/rules.md)', () => {
  it('Branch applies the first referenced ruleset whose filter matches', () => {
    const m = run('branch', { kind: 'a' });
    expect(rc(m)).toBe('0');
    expect(m.getProperty('tag')).toBe('A');
  });

  it('Branch falls through to a catch-all', () => {
    const m = run('branch', { kind: 'c' });
    expect(rc(m)).toBe('0');
    expect(m.getProperty('tag')).toBe('*');
  });

  it('Branch matches its own filter first and gives 1 without applying anything when it fails', () => {
    const m = run('gated', { kind: 'a' });
    expect(rc(m)).toBe('1');
    expect(m.getProperty('tag')).toBe('');
  });

  it('Branch gives 1 when no referenced ruleset matches', () => {
    expect(rc(run('gated', { kind: 'c', go: 'y' }))).toBe('1');
  });

  it('Loop applies every matching referenced ruleset', () => {
    const m = run('loop', { kind: 'a' });
    expect(rc(m)).toBe('0');
    expect(m.getProperty('tag')).toBe('A*');
  });

  it('Loop stops with -1 at the first failing transformation', () => {
    const m = run('loopBad', { kind: 'a' });
    expect(rc(m)).toBe('-1');
    expect(m.getProperty('tag')).toBe('*');
  });

  it('Loop gives 0 even when nothing matched (kept)', () => {
    expect(rc(run('loopB', { kind: 'a' }))).toBe('0');
  });

  it('Loop re-reads the body for each referenced ruleset', () => {
    const m = run('loopBody');
    expect(m.bodyText()).toBe('[m]');
    expect(m.getProperty('tag')).toBe('*');
  });

  it('rejects references to unknown rulesets at start-up with a suggestion (the original skipped them)', () => {
    expect(() => makeEngine({ isA: {}, b: { Branch: ['isA', 'isa2'] } })).toThrow(
      /ruleset "b", key Branch\[1\]: refers to unknown ruleset "isa2"; did you mean "isA"\?/,
    );
  });

  it('rejects nested Branch or Loop at start-up', () => {
    expect(() => makeEngine({ a: {}, inner: { Loop: ['a'] }, outer: { Branch: ['inner'] } })).toThrow(/itself a Branch or Loop/);
  });

  it('rejects a non-string entry at start-up', () => {
    expect(() => makeEngine({ a: {}, l: { Loop: ['a', 5] } })).toThrow(/Loop\[1\]/);
  });
});
