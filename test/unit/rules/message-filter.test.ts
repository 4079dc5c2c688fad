import { compileMessageFilter } from '../../../src/rules/message-filter';
import { Message } from '../../../src/message';
import { RuleConfigError } from '../../../src/rules/errors';

const filter = (config: Record<string, unknown>, warn?: (t: string) => void) => compileMessageFilter(config, { ruleset: 'r' }, { warn });

describe('pattern groups', () => {
  it('matches everything when there are no groups', () => {
    expect(filter({}).matches(Message.text('x'))).toBe(true);
  });

  it('ANDs the conditions inside a group and ORs the groups', () => {
    const f = filter({ JMSPropertyGroup: [{ a: '^1$', b: '^2$' }, { c: 'x' }] });
    expect(f.matches(Message.text('', { a: '1', b: '2' }))).toBe(true);
    expect(f.matches(Message.text('', { a: '1', b: '3' }))).toBe(false);
    expect(f.matches(Message.text('', { c: 'xyz' }))).toBe(true);
  });

  it('fails a group on a missing property', () => {
    expect(filter({ JMSPropertyGroup: [{ a: '.*' }] }).matches(Message.text(''))).toBe(false);
  });

  it('excludes with XJMSPropertyGroup', () => {
    const f = filter({ XJMSPropertyGroup: [{ region: '-test$' }] });
    expect(f.matches(Message.text('', { region: 'eu-test' }))).toBe(false);
    expect(f.matches(Message.text('', { region: 'eu-west' }))).toBe(true);
  });

  it('treats an empty group as matching everything, so an empty exclusion group excludes everything', () => {
    expect(filter({ JMSPropertyGroup: [{}] }).matches(Message.text(''))).toBe(true);
    expect(filter({ XJMSPropertyGroup: [{}] }).matches(Message.text(''))).toBe(false);
  });

  it('treats an empty list like an absent one', () => {
    expect(filter({ JMSPropertyGroup: [], XJMSPropertyGroup: [] }).matches(Message.text(''))).toBe(true);
  });

  it('reads JMS names as headers and unknown JMS names as absent', () => {
    const f = filter({ JMSPropertyGroup: [{ JMSType: '^order$', JMSPriority: ['[5,)'] }] });
    expect(f.matches(Message.text('', {}, { JMSType: 'order', JMSPriority: 7 }))).toBe(true);
    expect(f.matches(Message.text('', {}, { JMSType: 'order', JMSPriority: 4 }))).toBe(false);
    expect(filter({ JMSPropertyGroup: [{ JMSXGroupID: '.*' }] }).matches(Message.text('', { JMSXGroupID: 'g' }))).toBe(false);
  });

  it('tests body patterns with find semantics, all patterns of a group required', () => {
    const f = filter({ PatternGroup: [{ Pattern: ['error', 'disk'] }, { Pattern: ['fatal'] }], XPatternGroup: [{ Pattern: ['ignore'] }] });
    expect(f.needsBody).toBe(true);
    expect(f.matches(Message.text('disk error on sda'))).toBe(true);
    expect(f.matches(Message.text('disk error on sda (ignore)'))).toBe(false);
    expect(f.matches(Message.text('disk only'))).toBe(false);
    expect(f.matches(Message.text('fatal'))).toBe(true);
  });

  it('never matches a message without body text when a body list is present, even an empty one', () => {
    const f = filter({ PatternGroup: [] });
    expect(f.needsBody).toBe(true);
    expect(f.matches(new Message())).toBe(false);
    expect(f.matches(Message.text('x'))).toBe(true);
  });

  it('accepts a single string as Pattern (extension)', () => {
    expect(filter({ PatternGroup: [{ Pattern: '>[1-9]' }] }).matches(Message.text('a>5'))).toBe(true);
  });

  it('uses the body text the caller already read', () => {
    expect(filter({ PatternGroup: [{ Pattern: ['pre-read'] }] }).matches(Message.text('actual body'), 'pre-read')).toBe(true);
  });

  it('keeps the quirk that a non-map group makes the rule unmatchable, and warns', () => {
    const warnings: string[] = [];
    const f = filter({ JMSPropertyGroup: ['oops', {}] }, (t) => warnings.push(t));
    expect(f.matches(Message.text(''))).toBe(false);
    expect(filter({ XJMSPropertyGroup: ['oops'] }).matches(Message.text(''))).toBe(false);
    expect(warnings[0]).toMatch(/JMSPropertyGroup\[0\] is not a map/);
  });

  it('never treats a list condition as a list of regexes', () => {
    expect(() => filter({ JMSPropertyGroup: [{ a: ['^x$'] }] })).toThrow(RuleConfigError);
  });

  it('rejects a misspelt key in a body group with a suggestion', () => {
    expect(() => filter({ PatternGroup: [{ Patern: ['x'] }] })).toThrow(/did you mean "Pattern"/);
  });

  it('rejects a non-list group list', () => {
    expect(() => filter({ JMSPropertyGroup: { a: 'x' } })).toThrow(/expected a list of maps/);
  });
});
