/**
 * What tracing counts, for the metrics (src/admin/metrics.ts) and the status (slowTraces of a component):
 * spans dropped (queue full or export failed), spans exported, trace contexts ignored as malformed, and per
 * component the slowest recent messages by trace id. Plain fields and a few small arrays: nothing grows
 * with traffic.
 */

export interface TraceCounts {
  /** Spans lost: the export queue was full (collector slow or unreachable) or their export failed. */
  dropped: number;
  exported: number;
  /** Incoming traceparent values that were not valid W3C trace context (ignored; the message starts a new trace). */
  malformed: number;
}

export const traceCounts: TraceCounts = { dropped: 0, exported: 0, malformed: 0 };

export interface SlowTrace {
  readonly traceId: string;
  readonly ms: number;
  /** Epoch ms when the span ended. */
  readonly at: number;
}

/** How many slow messages a component keeps, and for how long one stays listed. */
export const SLOW_TRACES_KEPT = 5;
export const SLOW_TRACE_WINDOW_MS = 10 * 60_000;

/** The slowest spans of one component within the window: a handful of entries, replaced in place. */
class SlowList {
  readonly entries: SlowTrace[] = [];

  record(traceId: string, ms: number, at: number): void {
    const list = this.entries;
    for (let i = list.length - 1; i >= 0; i--) if (at - list[i].at > SLOW_TRACE_WINDOW_MS) list.splice(i, 1);
    if (list.length < SLOW_TRACES_KEPT) {
      list.push({ traceId, ms, at });
      return;
    }
    let min = 0;
    for (let i = 1; i < list.length; i++) if (list[i].ms < list[min].ms) min = i;
    if (ms > list[min].ms) list[min] = { traceId, ms, at };
  }
}

const slowByComponent = new Map<string, SlowList>();

export function recordSlowTrace(component: string, traceId: string, ms: number, at: number): void {
  let list = slowByComponent.get(component);
  if (list === undefined) slowByComponent.set(component, (list = new SlowList()));
  list.record(traceId, ms, at);
}

/** The component's slowest recent messages, slowest first; undefined when it has none (tracing off). */
export function slowTracesOf(component: string, now = Date.now()): readonly SlowTrace[] | undefined {
  const list = slowByComponent.get(component);
  if (list === undefined) return undefined;
  const recent = list.entries.filter((e) => now - e.at <= SLOW_TRACE_WINDOW_MS);
  return recent.length > 0 ? recent.sort((a, b) => b.ms - a.ms) : undefined;
}

/** Forgets the counts and slow lists (a new tracing start in the same process, tests). */
export function resetTraceStats(): void {
  traceCounts.dropped = 0;
  traceCounts.exported = 0;
  traceCounts.malformed = 0;
  slowByComponent.clear();
}
