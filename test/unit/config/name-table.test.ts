import { DuplicateNameError, NameTable, UnknownNameError } from '../../../src/foundation/name-table';

describe('NameTable', () => {
  const table = () =>
    new NameTable<number>('colour', [
      ['red', 1],
      ['green', 2],
      ['blue', 3],
    ]);

  it('gives the entry registered under a name', () => {
    expect(table().get('green')).toBe(2);
  });

  it('answers an unknown name with a "did you mean" and the known names', () => {
    expect(() => table().get('gren')).toThrow(new UnknownNameError('colour', 'gren', ['red', 'green', 'blue'], 'green'));
    expect(() => table().get('gren')).toThrow('unknown colour "gren"; did you mean "green"?; known: red, green, blue');
  });

  it('suggests nothing when no known name is close', () => {
    expect(() => table().get('purple')).toThrow('unknown colour "purple"; known: red, green, blue');
  });

  it('refuses a name registered twice', () => {
    expect(() => table().register('red', 9)).toThrow(DuplicateNameError);
  });

  it('matches names whatever their case when asked to', () => {
    const t = new NameTable<number>('ClassName', [['persister.StreamPersister', 1]], { caseInsensitive: true });
    expect(t.find('PERSISTER.streampersister')).toBe(1);
  });

  it('keeps registration order for names and values', () => {
    expect([table().names(), table().values()]).toEqual([
      ['red', 'green', 'blue'],
      [1, 2, 3],
    ]);
  });
});
