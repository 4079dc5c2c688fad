/**
 * The export path's bound and its count of losses. The SDK's BatchSpanProcessor holds at most maxQueueSize spans;
 * it only logs what it drops. These two wrappers count every lost span for the metric and the rate-limited warning,
 * and keep the export path itself bounded and alive whatever the collector does (docs/operations.md#tracing):
 *  - BoundedSpanProcessor keeps a count of the spans queued in the processor it wraps and counts a span beyond
 *    the bound as dropped (the inner processor drops it silently). It never refuses a span itself: a count that
 *    drifted above the inner queue would otherwise refuse every span for good, and export would never resume;
 *  - CountingExporter tells it when a batch leaves the queue and counts a failed batch as dropped. It sends one
 *    export at a time: a batch handed over while one is in flight (the processor's flush at a stop hands over all
 *    its batches at once) waits for it, up to the queue's size in spans; beyond that it is dropped and counted. It
 *    always tells the processor that an export is done, the loss counted here: the processor's own path for a
 *    failed export loses track of the export still in flight, and then starts exports alongside each other, which
 *    with the collector down piled up to the exporter's limit of 30 pending exports, each holding its batch and
 *    retrying for up to its timeout (memory grew by about 100 MB in a 60 s outage), and refused every new batch
 *    ("Concurrent export limit reached") for seconds after the collector was back. An export that has not finished
 *    by its deadline is given up (its spans counted as dropped) and a fresh exporter, with fresh connections, takes
 *    the next batch.
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

/** Timers for the export deadline (Node's, unref'd, unless a test passes virtual ones). */
export interface ExportTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const nodeTimers: ExportTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** What the processor is told of every export (the outcome is counted here). */
const DONE: ExportResult = { code: 0 }; // ExportResultCode.SUCCESS

interface Batch {
  readonly spans: ReadableSpan[];
  readonly done: (result: ExportResult) => void;
}

export class CountingExporter implements SpanExporter {
  /** Set once the processor that feeds this exporter exists (it is built around the exporter). */
  queue?: BoundedSpanProcessor;
  private exporter: SpanExporter;
  private inFlight = false;
  private readonly waiting: Batch[] = [];
  private waitingSpans = 0;

  /**
   * @param create makes the exporter (again, when one is given up)
   * @param deadlineMs how long one export may take, its retries included, before it is given up
   * @param maxWaiting spans that may wait for the export in flight (the queue's size)
   */
  constructor(
    private readonly create: () => SpanExporter,
    private readonly dropped: DropReport,
    private readonly deadlineMs: number,
    private readonly maxWaiting: number,
    private readonly timers: ExportTimers = nodeTimers,
  ) {
    this.exporter = create();
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.queue?.left(spans.length);
    if (!this.inFlight) {
      this.send({ spans, done: resultCallback });
    } else if (this.waitingSpans + spans.length <= this.maxWaiting) {
      this.waiting.push({ spans, done: resultCallback });
      this.waitingSpans += spans.length;
    } else {
      this.lost(spans.length, 'an export is still in progress');
      resultCallback(DONE);
    }
  }

  private send(batch: Batch): void {
    this.inFlight = true;
    let settled = false;
    const exporter = this.exporter;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      this.timers.clearTimeout(deadline);
      return true;
    };
    const next = () => {
      this.inFlight = false;
      batch.done(DONE);
      const waiting = this.waiting.shift();
      if (waiting !== undefined) {
        this.waitingSpans -= waiting.spans.length;
        this.send(waiting);
      }
    };
    const deadline = this.timers.setTimeout(() => {
      if (!finish()) return;
      this.lost(batch.spans.length, `export not finished within ${this.deadlineMs} ms`);
      this.exporter = this.create();
      exporter.shutdown().catch(() => undefined);
      next();
    }, this.deadlineMs);
    exporter.export(batch.spans, (result) => {
      if (!finish()) return;
      // ExportResultCode.SUCCESS is 0
      if (result.code === 0) traceCounts.exported += batch.spans.length;
      else this.lost(batch.spans.length, result.error?.message ?? 'export failed');
      next();
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }

  private lost(spans: number, why: string): void {
    traceCounts.dropped += spans;
    this.dropped(spans, why);
  }
}
