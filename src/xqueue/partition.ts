import { PartitionError } from './errors';

/** A range of cells [offset, offset + length) that a producer may reserve. length 0 = the whole queue. */
export interface Partition {
  readonly offset: number;
  readonly length: number;
}

export const WHOLE_QUEUE: Partition = Object.freeze({ offset: 0, length: 0 });

/**
 * Parses the original's Partition string: "offset,length" or a single "offset" (one cell).
 * Unlike the original, only plain integers are accepted (no "1:30" time strings),
 * and a single number is accepted everywhere.
 */
export function parsePartition(text: string | undefined, capacity: number, queue = '?'): Partition {
  if (text === undefined || text.trim() === '') return WHOLE_QUEUE;
  const parts = text.split(',').map((p) => p.trim());
  const expected = `"offset,length" or "offset" with integers, offset + length <= capacity ${capacity}`;
  if (parts.length > 2 || parts.some((p) => !/^\d+$/.test(p))) throw new PartitionError(queue, text, expected);
  const offset = Number(parts[0]);
  const length = parts.length === 1 ? 1 : Number(parts[1]);
  if (length === 0 && offset !== 0) throw new PartitionError(queue, text, 'length 0 (whole queue) only with offset 0');
  if (offset + length > capacity) throw new PartitionError(queue, text, expected);
  return { offset, length };
}

export function inPartition(cell: number, p: Partition): boolean {
  return p.length === 0 || (cell >= p.offset && cell < p.offset + p.length);
}
