import { compileFormatter } from '../../../src/rules/formatter';
import { Message } from '../../../src/message';
import { RuleConfigError, RuleEvaluationError } from '../../../src/rules/errors';

function format(entries: unknown[], msg: Message): Message {
  compileFormatter(entries).apply(msg);
  return msg;
}

describe('the default formatter (spec rule 5)', () => {
  it.each([
    [undefined, ['s/A/Z/'], 'AAA', 'BB', 'ZAA'],
    [[null, '##b##'], ['s/A/1/g', 's/B/2/'], 'AA', 'BB', '112B'],
    [['##b##', '', null], ['s/B/1/', 's/B/2/', 's/B/3/'], 'AA', 'BBBB', '123B'],
    [['', 'X'], [], 'AA', 'BB', 'X'],
    [['##a##', '-##b##'], ['s/A/a/g', null], 'AA', 'BB', 'aa-BB'],
  ])('Template %j with Substitution %j on a=%s b=%s gives %s', (template, substitution, a, b, result) => {
    const entry: Record<string, unknown> = { FieldName: 'a', Substitution: substitution };
    if (template !== undefined) entry.Template = template;
    expect(format([entry], Message.text('', { a, b })).getProperty('a')).toBe(result);
  });

  it('lets later entries see the fields earlier entries wrote', () => {
    const m = format(
      [
        { FieldName: 'x', Template: ['1'] },
        { FieldName: 'y', Template: ['##x##2'] },
      ],
      Message.text(''),
    );
    expect(m.getProperty('y')).toBe('12');
  });

  it('writes the body', () => {
    expect(format([{ FieldName: 'body', Template: ['<##body##|##a##>'] }], Message.text('hi', { a: 'A' })).bodyText()).toBe('<hi|A>');
  });

  it('keeps a bytes body bytes', () => {
    const m = format([{ FieldName: 'body', Template: ['##body##!'] }], Message.bytes(Buffer.from('hi')));
    expect(m.body.kind).toBe('bytes');
    expect(m.bodyText()).toBe('hi!');
  });

  it('writes and reads the MapKey entry of a map body', () => {
    const m = format([{ FieldName: 'body', MapKey: 'k', Template: ['[##body##]'] }], Message.map({ k: 'v', other: 'o' }));
    expect(m.body).toEqual({ kind: 'map', map: { k: '[v]', other: 'o' } });
  });

  it('skips the body of a map message without MapKey', () => {
    const m = format([{ FieldName: 'body', Template: ['x'] }], Message.map({ k: 'v' }));
    expect(m.body).toEqual({ kind: 'map', map: { k: 'v' } });
  });

  it('fails on an object body', () => {
    expect(() => format([{ FieldName: 'body', Template: ['x'] }], Message.object({}))).toThrow(RuleEvaluationError);
  });

  it('writes JMS headers and silently ignores the ones that cannot be written', () => {
    const m = format(
      [
        { FieldName: 'JMSType', Template: ['t2'] },
        { FieldName: 'JMSPriority', Template: ['7'] },
        { FieldName: 'JMSDestination', Template: ['queue://x'] },
        { FieldName: 'JMSReplyTo', Template: ['topic://y'] },
      ],
      Message.text(''),
    );
    expect(m.headers).toEqual({ JMSType: 't2', JMSPriority: 7, JMSDeliveryMode: 2, JMSReplyTo: 'topic://y' });
  });

  it('fails on a priority outside 0-9', () => {
    expect(() => format([{ FieldName: 'JMSPriority', Template: ['12'] }], Message.text(''))).toThrow(/outside 0-9/);
  });

  it('reads JMSDate as an age and sets the timestamp to now minus it (quirk kept)', () => {
    const m = Message.text('');
    compileFormatter([{ FieldName: 'JMSDate', Template: ['500'] }], { clock: () => 10000 }).apply(m);
    expect(m.headers.JMSTimestamp).toBe(9500);
  });

  it('converts a new property by DataType and fails on a bad value, keeping earlier writes', () => {
    const m = Message.text('');
    expect(format([{ FieldName: 'n', Template: ['+5'], DataType: 'int' }], m).getProperty('n')).toBe('5');
    expect(format([{ FieldName: 'd', Template: ['5'], DataType: 'double' }], Message.text('')).getProperty('d')).toBe('5.0');
    const m2 = Message.text('');
    expect(() =>
      format(
        [
          { FieldName: 'ok', Template: ['1'] },
          { FieldName: 'bad', Template: ['x'], DataType: 'int' },
        ],
        m2,
      ),
    ).toThrow(RuleEvaluationError);
    expect(m2.getProperty('ok')).toBe('1');
  });

  it('lets an existing property keep its (string) type over DataType (quirk kept)', () => {
    expect(format([{ FieldName: 'n', Template: ['x'], DataType: 'int' }], Message.text('', { n: 'old' })).getProperty('n')).toBe('x');
  });

  it('fails the rule when a substitution returns nothing', () => {
    expect(() => format([{ FieldName: 'n', Template: ['abc'], Substitution: ['s//+=1/e'] }], Message.text(''))).toThrow(/substitution 0/);
  });

  it.each([
    [['not a map'], /not a map/],
    [[{ Template: ['x'] }], /FieldName: is missing/],
    [[{ FieldName: 'a' }], /neither Template nor Substitution/],
    [[{ Name: 'a', Template: ['x'] }], /did you mean "FieldName"/],
    [[{ FieldName: 'a', Template: ['x'], DataType: 'money' }], /unknown data type/],
  ])('rejects the malformed entry %j at start-up (bug fixed)', (entries, message) => {
    expect(() => compileFormatter(entries, { where: { ruleset: 'r', key: 'FormatterArgument' } })).toThrow(RuleConfigError);
    expect(() => compileFormatter(entries)).toThrow(message);
  });

  it('accepts and ignores ResetOption', () => {
    expect(format([{ FieldName: 'a', Template: ['x'], ResetOption: 'true' }], Message.text('')).getProperty('a')).toBe('x');
  });
});
