import { inPartition, parsePartition, WHOLE_QUEUE } from '../../../src/xqueue/partition';
import { PartitionError } from '../../../src/xqueue/errors';

describe('parsePartition', () => {
  it('reads "offset,length" as a range of cells', () => {
    expect(parsePartition('2,3', 8)).toEqual({ offset: 2, length: 3 });
  });

  it('reads a single number as a one-cell partition', () => {
    expect(parsePartition('5', 8)).toEqual({ offset: 5, length: 1 });
  });

  it('treats an absent or blank value as the whole queue', () => {
    expect(parsePartition(undefined, 8)).toEqual(WHOLE_QUEUE);
    expect(parsePartition('  ', 8)).toEqual(WHOLE_QUEUE);
  });

  it('treats "0,0" as the whole queue', () => {
    expect(parsePartition('0,0', 8)).toEqual(WHOLE_QUEUE);
  });

  it('tolerates spaces around the numbers', () => {
    expect(parsePartition(' 1 , 2 ', 8)).toEqual({ offset: 1, length: 2 });
  });

  it('accepts a partition that ends exactly at the capacity', () => {
    expect(parsePartition('6,2', 8)).toEqual({ offset: 6, length: 2 });
  });

  it('rejects a partition that reaches past the capacity', () => {
    expect(() => parsePartition('7,2', 8)).toThrow(PartitionError);
  });

  it('rejects a single cell beyond the last cell', () => {
    expect(() => parsePartition('8', 8)).toThrow(PartitionError);
  });

  it('rejects length 0 with a non-zero offset', () => {
    expect(() => parsePartition('3,0', 8)).toThrow(/length 0/);
  });

  it('rejects time strings such as "1:30" (plain integers only)', () => {
    expect(() => parsePartition('1:30', 100)).toThrow(PartitionError);
  });

  it('rejects negative numbers', () => {
    expect(() => parsePartition('-1,2', 8)).toThrow(PartitionError);
  });

  it('rejects more than two numbers', () => {
    expect(() => parsePartition('0,1,2', 8)).toThrow(PartitionError);
  });

  it('rejects words', () => {
    expect(() => parsePartition('first', 8)).toThrow(PartitionError);
  });

  it('names the queue, the value and what was expected in its error', () => {
    let caught: unknown;
    try {
      parsePartition('9,9', 4, 'root');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PartitionError);
    const err = caught as PartitionError;
    expect(err.name).toBe('PartitionError');
    expect(err.queue).toBe('root');
    expect(err.partition).toBe('9,9');
    expect(err.message).toContain('root');
    expect(err.message).toContain('capacity 4');
  });
});

describe('inPartition', () => {
  it('holds every cell for the whole queue', () => {
    expect([0, 1, 99].every((c) => inPartition(c, WHOLE_QUEUE))).toBe(true);
  });

  it('holds exactly the cells in [offset, offset + length)', () => {
    const p = { offset: 2, length: 2 };
    expect([1, 2, 3, 4].map((c) => inPartition(c, p))).toEqual([false, true, true, false]);
  });
});
