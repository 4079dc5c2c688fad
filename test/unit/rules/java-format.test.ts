import { javaDoubleToString, javaFloatToString, parseJavaDouble, parseJavaLong } from '../../../src/rules/java-numbers';
import { compileDatePattern } from '../../../src/rules/java-date';

process.env.TZ = 'UTC';

describe('Java number formatting and parsing', () => {
  it.each([
    [8, '8.0'],
    [3.5, '3.5'],
    [0.001, '0.001'],
    [1.00000005e7, '1.00000005E7'],
    [1e-4, '1.0E-4'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [-0, '-0.0'],
  ])('prints %p as %s like Double.toString', (x, text) => {
    expect(javaDoubleToString(x)).toBe(text);
  });

  it.each([
    [Math.fround(1.1), '1.1'],
    [Math.fround(123), '123.0'],
    [Math.fround(0.1), '0.1'],
    [Math.fround(3.4028235e38), '3.4028235E38'],
    [Math.fround(1e-5), '1.0E-5'],
  ])('prints the float %p as %s like Float.toString', (x, text) => {
    expect(javaFloatToString(x)).toBe(text);
  });

  it('parses longs strictly and within 64 bits', () => {
    expect(parseJavaLong('+5')).toBe(5n);
    expect(parseJavaLong(' 5')).toBeUndefined();
    expect(parseJavaLong('9223372036854775808')).toBeUndefined();
  });

  it('parses doubles like Double.parseDouble', () => {
    expect(parseJavaDouble(' 1.5e3 ')).toBe(1500);
    expect(parseJavaDouble('Infinity')).toBe(Infinity);
    expect(parseJavaDouble('abc')).toBeUndefined();
  });
});

describe('Java date patterns', () => {
  it('formats the JMSDate pattern', () => {
    expect(compileDatePattern('yyyy/MM/dd.HH:mm:ss.SSS.zz').format(Date.UTC(2024, 2, 1, 13, 5, 9, 42))).toBe('2024/03/01.13:05:09.042.UTC');
  });

  it('parses leniently, ignoring trailing text', () => {
    expect(compileDatePattern('yyyy-MM-dd').parse('2020-01-02 and more')).toBe(1577923200000);
  });

  it('rolls over out-of-range fields like a lenient SimpleDateFormat', () => {
    expect(compileDatePattern('yyyy-MM-dd').parse('2020-01-32')).toBe(Date.UTC(2020, 1, 1));
  });

  it('reads abutting numeric fields by width', () => {
    expect(compileDatePattern('yyyyMMddHHmmss').parse('20200102030405')).toBe(Date.UTC(2020, 0, 2, 3, 4, 5));
  });

  it('honours a zone offset in the text', () => {
    expect(compileDatePattern('yyyy-MM-dd HH:mm Z').parse('2020-01-02 10:00 +0200')).toBe(Date.UTC(2020, 0, 2, 8, 0));
  });

  it('returns undefined when the text does not fit', () => {
    expect(compileDatePattern('yyyy-MM-dd').parse('garbage')).toBeUndefined();
  });

  it('rejects an unsupported pattern letter', () => {
    expect(() => compileDatePattern('yyyy-QQ')).toThrow(/unsupported letter Q/);
  });
});
