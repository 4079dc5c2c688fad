/** The figures of test/bench/latency-alloc-bench.ts, from the heap use v8's GCProfiler reports around each collection. */
import { allocArgs, figures, GcEntry } from '../bench/latency-alloc-bench';
import { BenchUsageError } from '../bench/script-args';

function heap(young: number, old: number) {
  return {
    heapStatistics: { usedHeapSize: young + old },
    heapSpaceStatistics: [
      { spaceName: 'new_space', spaceUsedSize: young },
      { spaceName: 'old_space', spaceUsedSize: old },
    ],
  };
}

function gc(gcType: string, before: [number, number], after: [number, number], costUs = 1000): GcEntry {
  return { gcType, cost: costUs, beforeGC: heap(...before), afterGC: heap(...after) };
}

describe('latency-alloc-bench figures', () => {
  // From 1 000 used: grows to 5 000, a scavenge keeps 300 young and promotes 200; grows by 4 000 young and 100 old
  // to 5 600, a second scavenge; then 400 more by the end. 10 messages.
  const entries = [gc('Scavenge', [4000, 1000], [300, 1200]), gc('Scavenge', [4300, 1300], [200, 1400], 2500)];
  const f = figures(entries, 1000, 2000, 10);

  it('counts as allocated the heap growth between collections, and after the last one', () => {
    expect(f.bytesPerMessage).toBe((4000 + (5600 - 1500) + (2000 - 1600)) / 10);
  });

  it('counts as survived what a scavenge left young plus what it promoted', () => {
    expect(f.survivedPerMessage).toBe((300 + 200 + 200 + 100) / 10);
  });

  it('counts the old generation growth between collections apart', () => {
    expect(f.oldDirectPerMessage).toBe(100 / 10);
  });

  it('sums the collections cost in ms and counts them by kind', () => {
    expect([f.gcMs, f.scavenges, f.markCompacts]).toEqual([3.5, 2, 0]);
  });
});

describe('latency-alloc-bench command line', () => {
  it('takes a side, a rate and a message count', () => {
    expect(allocArgs(['raw2', '3000', '500'])).toEqual({ side: 'raw2', rate: 3000, messages: 500 });
  });

  it('rejects an unknown side and a rate that is not a positive integer', () => {
    expect(() => allocArgs(['fast'])).toThrow(BenchUsageError);
    expect(() => allocArgs(['xroute', '1.5'])).toThrow(/"1.5" is not a positive integer/);
  });
});
