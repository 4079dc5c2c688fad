/**
 * The order in which a java.util.HashMap (default capacity and load factor) iterates its keys, for
 * output that must match the original's (QBroker's JSONT serializes maps and substitutes template
 * fields in this order: docs/evaluator/transforms.md). A key's bucket is its spread String.hashCode
 * masked by the table size; keys come out by ascending bucket, and in insertion order within one.
 * The table starts at 16 buckets and doubles when the size passes 3/4 of it, or when a bucket's chain
 * reaches 9 entries while the table is under 64 buckets (where Java grows the table instead of turning
 * the chain into a tree). Chains of 9 or more in a table of 64 or more are trees in Java, whose
 * iteration order is not reproduced: that takes 9 keys whose hashes agree in their low 6+ bits.
 */

/** Java's String.hashCode: 31*h + UTF-16 unit, in 32-bit arithmetic. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

const INITIAL_CAPACITY = 16;
const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/** `keys` (distinct, in insertion order) in the order a HashMap holding them iterates. */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  const spread = keys.map((k) => {
    const h = javaStringHash(k);
    return h ^ (h >>> 16);
  });
  let capacity = INITIAL_CAPACITY;
  let chains = new Map<number, number>();
  const grow = (inserted: number): void => {
    capacity *= 2;
    chains = new Map();
    for (let j = 0; j < inserted; j++) {
      const b = spread[j] & (capacity - 1);
      chains.set(b, (chains.get(b) ?? 0) + 1);
    }
  };
  for (let i = 0; i < keys.length; i++) {
    const bucket = spread[i] & (capacity - 1);
    const before = chains.get(bucket) ?? 0;
    chains.set(bucket, before + 1);
    if (before >= TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY) grow(i + 1);
    if (i + 1 > capacity * 0.75) grow(i + 1);
  }
  const mask = capacity - 1;
  return keys
    .map((key, index) => ({ key, index, bucket: spread[index] & mask }))
    .sort((a, b) => a.bucket - b.bucket || a.index - b.index)
    .map((e) => e.key);
}
