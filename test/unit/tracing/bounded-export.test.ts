/** The export queue's bound and its count of lost spans (src/tracing/bounded-export.ts), around the SDK's processor. */
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BoundedSpanProcessor, CountingExporter } from '../../../src/tracing/bounded-export';
import { resetTraceStats, traceCounts } from '../../../src/tracing/trace-stats';

/** An exporter whose exports stay pending until `settle` is called, like one whose collector does not answer. */
class HeldExporter implements SpanExporter {
  readonly pending: ((r: ExportResult) => void)[] = [];
  export(_spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.pending.push(done);
  }
  settle(code: ExportResultCode): void {
    for (const done of this.pending.splice(0)) done({ code, ...(code === ExportResultCode.FAILED ? { error: new Error('connect ECONNREFUSED') } : {}) });
  }
  async shutdown(): Promise<void> {}
}

describe('the bounded export queue', () => {
  beforeEach(() => resetTraceStats());

  it('drops and counts the spans that would not fit, reporting why', () => {
    const reports: string[] = [];
    const queue = new BoundedSpanProcessor(new SimpleSpanProcessor(new InMemorySpanExporter()), 3, (n, why) => reports.push(`${n} ${why}`));
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    for (let i = 0; i < 5; i++) tracer.startSpan(`s${i}`).end();
    expect([queue.queuedSpans, traceCounts.dropped, reports]).toEqual([3, 2, ['1 export queue full', '1 export queue full']]);
  });

  it('still hands a span beyond its count to the processor it wraps, so that a count that drifted cannot stop export', () => {
    const memory = new InMemorySpanExporter();
    const queue = new BoundedSpanProcessor(new SimpleSpanProcessor(memory), 3, () => undefined);
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    for (let i = 0; i < 5; i++) tracer.startSpan(`s${i}`).end();
    expect([memory.getFinishedSpans().length, traceCounts.dropped]).toEqual([5, 2]);
  });

  it('frees the queue as batches leave for the exporter, and counts a failed batch as dropped', () => {
    const reports: string[] = [];
    const held = new HeldExporter();
    const exporter = new CountingExporter(held, (n, why) => reports.push(`${n} ${why}`));
    const queue = new BoundedSpanProcessor(new SimpleSpanProcessor(exporter), 10, () => undefined);
    exporter.queue = queue;
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    tracer.startSpan('a').end();
    tracer.startSpan('b').end();
    expect(queue.queuedSpans).toBe(0);
    held.settle(ExportResultCode.FAILED);
    expect([traceCounts.dropped, traceCounts.exported, reports]).toEqual([2, 0, ['1 connect ECONNREFUSED', '1 connect ECONNREFUSED']]);
  });

  it('counts what the collector accepted', () => {
    const held = new HeldExporter();
    const exporter = new CountingExporter(held, () => undefined);
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
    tracer.startSpan('a').end();
    held.settle(ExportResultCode.SUCCESS);
    expect(traceCounts.exported).toBe(1);
  });
});
