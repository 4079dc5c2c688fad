import { SLOW_TRACES_KEPT, SLOW_TRACE_WINDOW_MS, recordSlowTrace, resetTraceStats, slowTracesOf } from '../../../src/tracing/trace-stats';

describe('the slowest recent messages of a component', () => {
  beforeEach(() => resetTraceStats());

  it('keeps the slowest few, slowest first', () => {
    const ms = [5, 40, 1, 30, 20, 10, 50];
    ms.forEach((m, i) => recordSlowTrace('c', `t${i}`, m, 1000 + i));
    const slow = slowTracesOf('c', 2000)!;
    expect(slow.map((s) => s.ms)).toEqual([50, 40, 30, 20, 10]);
    expect(slow).toHaveLength(SLOW_TRACES_KEPT);
  });

  it('forgets what is older than its window', () => {
    recordSlowTrace('c', 'old', 99, 0);
    recordSlowTrace('c', 'new', 1, SLOW_TRACE_WINDOW_MS);
    expect(slowTracesOf('c', SLOW_TRACE_WINDOW_MS + 1)?.map((s) => s.traceId)).toEqual(['new']);
  });

  it('has nothing for a component it never timed (tracing off)', () => {
    expect(slowTracesOf('never')).toBeUndefined();
  });
});
