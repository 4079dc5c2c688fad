/** The export queue's bound and its count of lost spans (src/tracing/bounded-export.ts), around the SDK's processor. */
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ClockTimer } from '../../../src/runtime/clock';
import { BoundedSpanProcessor, CountingExporter, ExportTimers } from '../../../src/tracing/bounded-export';
import { resetTraceStats, traceCounts } from '../../../src/tracing/trace-stats';
import { waitFor } from '../../support/wait';
import { VirtualClock } from '../../support/virtual-clock';

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

const DEADLINE_MS = 11_000;

function virtualTimers(clock: VirtualClock): ExportTimers {
  return { setTimeout: (fn, ms) => clock.set(fn, ms), clearTimeout: (timer) => clock.clear(timer as ClockTimer) };
}

/** Spans to hand to an exporter directly. */
/** A CountingExporter over `held` (never replaced), with the deadline above and its timers on a virtual clock. */
function exporterOver(held: SpanExporter, onDrop: (n: number, why: string) => void = () => undefined, queue = 10): CountingExporter {
  return new CountingExporter(() => held, onDrop, DEADLINE_MS, queue, virtualTimers(new VirtualClock()));
}

function endedSpans(n: number): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer('t');
  for (let i = 0; i < n; i++) tracer.startSpan(`s${i}`).end();
  return memory.getFinishedSpans();
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

  it('frees the queue as a batch leaves for the exporter, and counts a failed batch as dropped', () => {
    const reports: string[] = [];
    const held = new HeldExporter();
    const exporter = exporterOver(held, (n, why) => reports.push(`${n} ${why}`));
    const queue = new BoundedSpanProcessor(new SimpleSpanProcessor(exporter), 10, () => undefined);
    exporter.queue = queue;
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    tracer.startSpan('a').end();
    expect(queue.queuedSpans).toBe(0);
    held.settle(ExportResultCode.FAILED);
    expect([traceCounts.dropped, traceCounts.exported, reports]).toEqual([1, 0, ['1 connect ECONNREFUSED']]);
  });

  it('counts what the collector accepted', () => {
    const held = new HeldExporter();
    const exporter = exporterOver(held);
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
    tracer.startSpan('a').end();
    held.settle(ExportResultCode.SUCCESS);
    expect(traceCounts.exported).toBe(1);
  });

  it('tells the processor an export is done even when it failed (the loss is counted here)', () => {
    const held = new HeldExporter();
    const exporter = exporterOver(held);
    const told: ExportResult[] = [];
    exporter.export(endedSpans(2), (r) => told.push(r));
    held.settle(ExportResultCode.FAILED);
    expect([told, traceCounts.dropped]).toEqual([[{ code: ExportResultCode.SUCCESS }], 2]);
  });

  it('sends one batch at a time: a batch handed over while one is in flight waits for it', () => {
    const held = new HeldExporter();
    const exporter = exporterOver(held);
    const told: ExportResult[] = [];
    exporter.export(endedSpans(2), (r) => told.push(r));
    exporter.export(endedSpans(3), (r) => told.push(r));
    expect([held.pending.length, told.length]).toEqual([1, 0]);
    held.settle(ExportResultCode.SUCCESS);
    expect([held.pending.length, told.length]).toEqual([1, 1]);
    held.settle(ExportResultCode.SUCCESS);
    expect([told.length, traceCounts.exported]).toEqual([2, 5]);
  });

  it('drops and counts a batch that would make more spans wait than the queue holds', () => {
    const reports: string[] = [];
    const held = new HeldExporter();
    const exporter = exporterOver(held, (n, why) => reports.push(`${n} ${why}`), 4);
    const told: ExportResult[] = [];
    exporter.export(endedSpans(2), (r) => told.push(r));
    exporter.export(endedSpans(3), (r) => told.push(r));
    exporter.export(endedSpans(2), (r) => told.push(r));
    expect([held.pending.length, told.length, reports]).toEqual([1, 1, ['2 an export is still in progress']]);
  });

  it('gives up an export that has not finished by its deadline and sends the next batch with a fresh exporter', () => {
    const clock = new VirtualClock();
    const reports: string[] = [];
    const made: HeldExporter[] = [];
    const exporter = new CountingExporter(
      () => {
        made.push(new HeldExporter());
        return made[made.length - 1];
      },
      (n, why) => reports.push(`${n} ${why}`),
      DEADLINE_MS,
      10,
      virtualTimers(clock),
    );
    const told: ExportResult[] = [];
    exporter.export(endedSpans(2), (r) => told.push(r));
    clock.advance(DEADLINE_MS - 1);
    expect(told).toEqual([]);
    clock.advance(1);
    expect([told.length, traceCounts.dropped, reports]).toEqual([1, 2, [`2 export not finished within ${DEADLINE_MS} ms`]]);
    exporter.export(endedSpans(1), (r) => told.push(r));
    made[1].settle(ExportResultCode.SUCCESS);
    // The given-up export answering late changes nothing.
    made[0].settle(ExportResultCode.SUCCESS);
    expect([made.length, told.length, traceCounts.exported, traceCounts.dropped]).toEqual([2, 2, 1, 2]);
  });

  it('keeps the SDK batch processor to one export at a time while exports fail', async () => {
    // With the collector down every export fails: the processor must not hand over a batch while one is in flight.
    let exports = 0;
    const failing: SpanExporter = {
      export(_spans, done) {
        exports++;
        setImmediate(() => done({ code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED') }));
      },
      shutdown: async () => undefined,
    };
    const exporter = new CountingExporter(
      () => failing,
      () => undefined,
      DEADLINE_MS,
      20,
    );
    // What the processor hands over, and how many of its exports are outstanding at once.
    let outstanding = 0;
    let most = 0;
    const watched: SpanExporter = {
      export(spans, done) {
        most = Math.max(most, ++outstanding);
        exporter.export(spans, (r) => {
          outstanding--;
          done(r);
        });
      },
      shutdown: () => exporter.shutdown(),
    };
    const queue = new BoundedSpanProcessor(
      new BatchSpanProcessor(watched, { maxQueueSize: 20, maxExportBatchSize: 4, scheduledDelayMillis: 1 }),
      20,
      () => undefined,
    );
    exporter.queue = queue;
    const tracer = new BasicTracerProvider({ spanProcessors: [queue] }).getTracer('t');
    // Spans keep ending while exports fail: each poll ends ten more.
    await waitFor(
      () => {
        for (let i = 0; i < 10; i++) tracer.startSpan('s').end();
        return exports >= 30;
      },
      () => `30 exports (have ${exports})`,
      10_000,
      1,
    );
    expect(most).toBe(1);
  });
});
