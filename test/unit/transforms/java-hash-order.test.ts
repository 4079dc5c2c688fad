/** Expected orders were printed by java.util.HashMap (OpenJDK 17) for the same keys inserted in the same order. */
import { javaHashMapOrder, javaStringHash } from '../../../src/transforms/java-hash-order';

const sevens = (n: number) => Array.from({ length: n }, (_, i) => `k${i * 7}`);

describe('Java HashMap iteration order (docs/evaluator/transforms.md, JSONT output)', () => {
  it("computes Java's String.hashCode, overflow included", () => {
    expect([javaStringHash(''), javaStringHash('a'), javaStringHash('aa'), javaStringHash('hello world, this overflows')]).toEqual([0, 97, 3104, 161437415]);
  });

  it('orders keys by bucket, in insertion order within a bucket', () => {
    expect(javaHashMapOrder(['b', 'a', 'B', 'aa'])).toEqual(['aa', 'a', 'b', 'B']);
    expect(javaHashMapOrder(['id', 'who', 'fixed', 'lit'])).toEqual(['lit', 'fixed', 'id', 'who']);
  });

  it('keeps 16 buckets for 12 keys and doubles them for the 13th', () => {
    expect(javaHashMapOrder(sevens(12)).join(',')).toBe('k28,k49,k0,k70,k42,k63,k77,k21,k7,k35,k56,k14');
    expect(javaHashMapOrder(sevens(13)).join(',')).toBe('k0,k70,k84,k42,k63,k77,k21,k7,k35,k56,k14,k28,k49');
  });

  it('follows several doublings', () => {
    expect(javaHashMapOrder(sevens(40)).join(',')).toBe(
      'k91,k70,k77,k98,k35,k56,k14,k161,k182,k140,k189,k266,k147,k224,k168,k245,k105,k126,k203,k0,k84,k42,k63,k21,k7,k28,k49,k196,k273,k154,k231,k175,k252,k112,k133,k210,k259,k217,k238,k119',
    );
  });

  it('grows a small table when one bucket chains 9 keys, as Java does instead of a tree', () => {
    const sameBucket = ['c6', 'c10', 'c21', 'c32', 'c43', 'c54', 'c65', 'c76', 'c87', 'c98'];
    expect(javaHashMapOrder(sameBucket).join(',')).toBe('c10,c32,c54,c76,c98,c21,c43,c65,c87,c6');
  });
});
