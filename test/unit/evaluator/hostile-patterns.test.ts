import { evaluateSync, makeEngine, message, rc } from './helpers';
import { Message } from '../../../src/message';
import { BACKTRACKING_BUDGET_MS, compilePerl5, isLinearTime } from '../../../src/rules/regex-dialect';

/**
 * Milliseconds of CPU one evaluation takes. CPU time, not wall time: on a loaded machine the process is
 * descheduled for part of any wall-clock interval, which says nothing about the work the input caused. A hang
 * still fails: the wall time is bounded too, generously (HANG_MS).
 */
const HANG_MS = 2_000;
function timed(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  fn();
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  expect(wallMs).toBeLessThan(HANG_MS);
  return (cpu.user + cpu.system) / 1000;
}

// The figures: (a+)+$ against 40 'a' and a 'b' blocked the event loop for over 60 s.
const EVIL = 'a'.repeat(40) + 'b';
const BOUND_MS = 100;

const { engine, logged } = makeEngine({
  body: { PatternGroup: [{ Pattern: ['(a+)+$'] }] },
  bodyNoCase: { PatternGroup: [{ Pattern: ['(?i)^(A|a)+$'] }] },
  prop: { JMSPropertyGroup: [{ name: '(a+)+$' }] },
  subst: { FormatterArgument: [{ FieldName: 'name', Template: ['##name##'], Substitution: ['s/(a+)+$/x/'] }] },
  lookahead: { PatternGroup: [{ Pattern: ['(a+)+(?=c)'] }] },
  plain: { PatternGroup: [{ Pattern: ['^a+b$'] }] },
});

describe('hostile messages against rule patterns', () => {
  it.each([
    ['a body PatternGroup', () => message({ RuleName: 'body' }, EVIL)],
    ['a body PatternGroup, body ending with a newline', () => message({ RuleName: 'body' }, EVIL + '\n')],
    ['a case-insensitive body PatternGroup', () => message({ RuleName: 'bodyNoCase' }, 'a'.repeat(5000) + 'b')],
    ['a JMSPropertyGroup value', () => message({ RuleName: 'prop', name: EVIL })],
    ['an s/// substitution', () => message({ RuleName: 'subst', name: EVIL + 'a'.repeat(10_000) + 'b' })],
  ])('evaluates %s within 100 ms', (_label, make) => {
    const msg = make();
    expect(timed(() => evaluateSync(engine, msg))).toBeLessThan(BOUND_MS);
  });

  it('still gives the Perl answers on the hostile inputs', () => {
    expect(rc(evaluateSync(engine, message({ RuleName: 'body' }, EVIL)))).toBe('1');
    expect(rc(evaluateSync(engine, message({ RuleName: 'body' }, 'a'.repeat(40) + '\n')))).toBe('0');
    expect(evaluateSync(engine, message({ RuleName: 'subst', name: `b${'a'.repeat(40)}` })).getProperty('name')).toBe('bx');
  });

  it('ends a pattern that needs the backtracking engine after its budget with EXCEPTION, and evaluates the next message', () => {
    const hostile = message({ RuleName: 'lookahead' }, 'a'.repeat(5000) + 'b');
    const ms = timed(() => evaluateSync(engine, hostile));
    expect(rc(hostile)).toBe('-1');
    expect(ms).toBeLessThan(BACKTRACKING_BUDGET_MS + BOUND_MS);
    expect(logged.warn.concat(logged.error).join('\n')).toMatch(/stopped after 50 ms/);
    expect(rc(evaluateSync(engine, message({ RuleName: 'lookahead' }, 'aac')))).toBe('0');
    expect(rc(evaluateSync(engine, message({ RuleName: 'plain' }, 'aab')))).toBe('0');
  });
});

describe('which patterns run in linear time', () => {
  it.each(['(a+)+$', '(?i)abc[d-f]$', '^\\s*(\\w+)=(.*)$', '\\Aab\\Z'])('runs %s on the linear engine', (p) => {
    expect(isLinearTime(compilePerl5(p))).toBe(true);
  });

  it.each(['a(?=b)', '(a)\\1', '\\d{1,40}'])('runs %s under the time budget', (p) => {
    expect(isLinearTime(compilePerl5(p))).toBe(false);
  });
});

describe('Perl end-of-input semantics without lookahead', () => {
  const finds = (p: string, s: string) => compilePerl5(p).test(s);
  const replace = (p: string, s: string, by: string) => s.replace(compilePerl5(p, { global: true }), by);

  it('matches $ before a final newline and keeps that newline in a replacement', () => {
    expect(finds('foo$', 'foo\n')).toBe(true);
    expect(replace('foo$', 'xfoo\n', 'bar')).toBe('xbar\n');
  });

  it('matches $ both before the final newline and at the end in a global replacement, as Perl does', () => {
    expect(replace('x*$', 'ab\n', '-')).toBe('ab-\n-');
  });

  it('matches a greedy (?s).*$ through the final newline', () => {
    expect(compilePerl5('(?s)a.*$').exec('ab\n')?.[0]).toBe('ab\n');
  });

  it('keeps the whole input for a match found without the final newline', () => {
    const m = compilePerl5('b$').exec('ab\n') as RegExpExecArray;
    expect([m.index, m.input]).toEqual([1, 'ab\n']);
  });

  it('spells (?i) out as letter classes, ranges and negated classes included', () => {
    expect(finds('(?i)^[a-c]X[^d-z]$', 'BxA')).toBe(true);
    expect(finds('(?i)^[^d-z]$', 'D')).toBe(false);
    expect(finds('(?i)[[:cntrl:]]', 'x')).toBe(false);
  });

  it('keeps binary bodies working', () => {
    const m = Message.bytes(Buffer.from('aaab\n'), { RuleName: 'plain' });
    expect(rc(evaluateSync(engine, m))).toBe('0');
  });
});
