/**
 * The export path's bound and its count of losses. The SDK's BatchSpanProcessor already holds at most
 * maxQueueSize spans and exports one batch at a time, so memory stays bounded whatever the collector does; but it
 * only logs what it drops. These two wrappers count every lost span (queue full, or an export that failed after
 * the exporter's own retries) for the metric and the rate-limited warning:
 *  - BoundedSpanProcessor keeps a count of the spans queued in the processor it wraps and counts a span beyond
 *    the bound as dropped (the inner processor drops it silently). It never refuses a span itself: a count that
 *    drifted above the inner queue would otherwise refuse every span for good, and export would never resume;
 *  - CountingExporter tells it when a batch leaves the queue, and counts a failed batch as dropped.
 */
import type { Context } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { traceCounts } from './trace-stats';

/** Where lost spans are reported: `why` is "export queue full" or the export error. */
export type DropReport = (spans: number, why: string) => void;

const SAMPLED = 1;

export class BoundedSpanProcessor implements SpanProcessor {
  private queued = 0;

  constructor(
    private readonly inner: SpanProcessor,
    private readonly maxQueueSize: number,
    private readonly dropped: DropReport,
  ) {}

  /** Spans queued and not yet handed to the exporter. */
  get queuedSpans(): number {
    return this.queued;
  }

  /** A batch of `n` spans left the queue for the exporter. */
  left(n: number): void {
    this.queued = Math.max(0, this.queued - n);
  }

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & SAMPLED) === 0) return; // never exported, so never queued
    if (this.queued >= this.maxQueueSize) {
      traceCounts.dropped++;
      this.dropped(1, 'export queue full');
    } else {
      this.queued++;
    }
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

export class CountingExporter implements SpanExporter {
  /** Set once the processor that feeds this exporter exists (it is built around the exporter). */
  queue?: BoundedSpanProcessor;

  constructor(
    private readonly inner: SpanExporter,
    private readonly dropped: DropReport,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.queue?.left(spans.length);
    this.inner.export(spans, (result) => {
      // ExportResultCode.SUCCESS is 0
      if (result.code === 0) traceCounts.exported += spans.length;
      else {
        traceCounts.dropped += spans.length;
        this.dropped(spans.length, result.error?.message ?? 'export failed');
      }
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
