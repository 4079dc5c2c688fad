/**
 * A node's OutLink list as the original writes it: each entry a link name or a map with Name (and Capacity,
 * Partition). Shared by the nodes that read one (JobNode, CollectNode); each checks the count and the
 * distinctness its outlink positions need.
 */
import { ConfigValue, JsonSchema } from '../../src/runtime/component';
import { isRecord } from '../../src/rules/errors';

/** Builds the node's own config error for the property, what is wrong, and what was expected. */
export type OutlinkConfigError = (property: string, problem: string, expected: string) => Error;

export interface OutlinkEntries {
  names: string[];
  /** The Partition of each entry ("start,length"), undefined where none is given. */
  partitions: (string | undefined)[];
}

/** The schema of an OutLink list of at least `minItems` entries, each a link name or a map with Name (and Capacity, Partition). */
export function outlinkListSchema(minItems: number, description: string): JsonSchema {
  return {
    type: 'array',
    minItems,
    description,
    items: {
      anyOf: [
        { type: 'string' },
        {
          type: 'object',
          properties: { Name: { type: 'string' }, Capacity: { type: 'string' }, Partition: { type: 'string' } },
          required: ['Name'],
          additionalProperties: false,
        },
      ],
    },
  };
}

/** Reads the entries; `listExpected` says what the list should hold (e.g. "a list: notice, bypass, then ..."). */
export function readOutlinkEntries(value: ConfigValue | undefined, fail: OutlinkConfigError, listExpected: string): OutlinkEntries {
  if (!Array.isArray(value)) throw fail('OutLink', 'is missing or not a list', listExpected);
  const names: string[] = [];
  const partitions: (string | undefined)[] = [];
  value.forEach((entry, i) => {
    if (typeof entry === 'string' && entry.trim() !== '') {
      names.push(entry.trim());
      partitions.push(undefined);
    } else if (isRecord(entry) && typeof entry.Name === 'string' && entry.Name.trim() !== '') {
      names.push(entry.Name.trim());
      partitions.push(typeof entry.Partition === 'string' ? entry.Partition : undefined);
    } else {
      throw fail(`OutLink/${i}`, 'is neither a link name nor a map with Name', 'a link name or {"Name": ..., "Capacity": ..., "Partition": ...}');
    }
  });
  return { names, partitions };
}
