import { FunctionBuilder } from '../../../src/rules/codegen';
import { Template } from '../../../src/rules/template';
import { compileMessageFilter } from '../../../src/rules/message-filter';
import { compileFormatter } from '../../../src/rules/formatter';
import { Message } from '../../../src/message';

// Names that would break out of a string literal or a template literal if they were pasted into code.
const HOSTILE_NAMES = ['a"b', "a'b", 'a\\b', '${process.exit(1)}', '"); throw new Error("injected"); ("', 'line\nbreak', 'para\u2028sep', '`x`', '__proto__'];

// Templates refuse names with parentheses at start-up (kept for compatibility), so they get the others.
const HOSTILE_TEMPLATE_NAMES = HOSTILE_NAMES.filter((n) => !/[()]/.test(n));

describe('generated code (codegen.ts)', () => {
  it('passes bound values in by identity, not by text', () => {
    const b = new FunctionBuilder();
    const marker = { value: 41 };
    const f = b.build<() => number>('bound', [], `return ${b.bind(marker)}.value + 1;`);
    expect(f()).toBe(42);
  });

  it('binds the same value once', () => {
    const b = new FunctionBuilder();
    const v = {};
    expect(b.bind(v)).toBe(b.bind(v));
  });

  it('declares temporaries at the top of the function', () => {
    const b = new FunctionBuilder();
    const t = b.temp();
    const f = b.build<(x: number) => number>('temps', ['x'], `${t} = x * 2;\nreturn ${t};`);
    expect(f(21)).toBe(42);
  });

  it('refuses a parameter that is not an identifier', () => {
    expect(() => new FunctionBuilder().build('bad', ['a);('], 'return 1;')).toThrow(/not an identifier/);
  });

  it.each(HOSTILE_TEMPLATE_NAMES)('a template reads the property named %j literally', (name) => {
    const msg = Message.text('', { [name]: 'value' });
    expect(new Template(`<##${name}##>`).format(msg)).toBe('<value>');
  });

  it.each(HOSTILE_NAMES)('a pattern group tests the property named %j literally', (name) => {
    const filter = compileMessageFilter({ JMSPropertyGroup: [{ [name]: '^v' }] });
    expect(filter.matches(Message.text('', { [name]: 'value' }))).toBe(true);
    expect(filter.matches(Message.text('', { other: 'value' }))).toBe(false);
  });

  it.each(HOSTILE_NAMES)('the formatter writes the field named %j literally', (name) => {
    const formatter = compileFormatter([{ FieldName: name, Template: ['x'] }]);
    const msg = Message.text('');
    formatter.apply(msg);
    expect(msg.properties.get(name)).toBe('x');
  });

  it('keeps template literal text with quotes, backslashes and ${} as text', () => {
    const msg = Message.text('', { a: 'A' });
    expect(new Template('"\\${a}` ##a## \'\n').format(msg)).toBe('"\\${a}` A \'\n');
  });
});
