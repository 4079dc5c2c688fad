import { Template } from '../../../src/rules/template';
import { Message } from '../../../src/message';
import { RuleConfigError } from '../../../src/rules/errors';

process.env.TZ = 'UTC';

describe('##name## templates', () => {
  const msg = Message.text('the body', { a: 'A', b: 'B', 'x y': 'XY' }, { JMSType: 'order', JMSPriority: 4, JMSTimestamp: 1000 });

  it('replaces properties, headers and the body', () => {
    expect(new Template('##a##-##JMSType##-##JMSPriority##-##body##').format(msg)).toBe('A-order-4-the body');
  });

  it('scans placeholders left to right without overlap', () => {
    expect(new Template('##a####b##').fields).toEqual(['a', 'b']);
    expect(new Template('##a##b##').fields).toEqual(['a']);
    expect(new Template('####z##').fields).toEqual(['z']);
  });

  it('lists each field once, in order of first appearance', () => {
    expect(new Template('##b## ##a## ##b##').fields).toEqual(['b', 'a']);
  });

  it('renders a missing property as the empty string', () => {
    expect(new Template('[##nope##]').format(msg)).toBe('[]');
  });

  it('accepts names with spaces and dots and matches them literally (quirk fixed: ##a.b## does not replace ##aXb##)', () => {
    expect(new Template('##x y##').format(msg)).toBe('XY');
    const m = Message.text('', { 'a.b': '1', aXb: '2' });
    expect(new Template('##a.b##/##aXb##').format(m)).toBe('1/2');
  });

  it('rejects a name with a parenthesis at start-up (kept for compatibility)', () => {
    expect(() => new Template('##a(b##')).toThrow(RuleConfigError);
  });

  it('replaces in one pass, so a value containing ##y## is not expanded again (quirk fixed)', () => {
    const m = Message.text('', { x: '##y##', y: 'Y' });
    expect(new Template('##x## ##y##').format(m)).toBe('##y## Y');
  });

  it('lets a property called body shadow the body (quirk kept)', () => {
    const m = Message.text('real', { body: 'shadow' });
    expect(new Template('##body##').format(m)).toBe('shadow');
  });

  it('computes JMSDate, JMSAge and JMSFamily', () => {
    const t = new Template('##JMSDate##|##JMSAge##|##JMSFamily##', { clock: () => 5000 });
    expect(t.format(msg)).toBe('1970/01/01.00:00:01.000.UTC|4000|jms_text');
  });

  it('renders an unknown JMS name as the empty string', () => {
    expect(new Template('[##JMSNothing##]').format(msg)).toBe('[]');
  });

  it('renders a map body as <name>value</name> lines', () => {
    expect(new Template('##body##').format(Message.map({ k: 'v' }))).toBe('<k>v</k>\n');
  });

  it('reports whether a text has placeholders', () => {
    expect(Template.hasPlaceholders('a ##b## c')).toBe(true);
    expect(Template.hasPlaceholders('a # b')).toBe(false);
    expect(new Template('static').isStatic).toBe(true);
  });
});
