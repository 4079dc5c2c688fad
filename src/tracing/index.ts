/** Tracing (docs/operations.md#tracing): OpenTelemetry spans per hop, W3C propagation, OTLP/HTTP export. */
export { startTracing } from './trace-sdk';
export type { RunningTracing } from './trace-sdk';
export { readTraceSettings } from './trace-settings';
// The components import the per-message hooks below from ./message-trace itself, not through this index: compiled to
// CommonJS, an index of re-exports is an object of getters in V8's dictionary mode, so every call through it is a
// hash lookup and a getter call that the optimiser cannot inline (about 15 ns a hook, measured by the tracing
// bench's off row, docs/operations.md#tracing), where a call into ./message-trace inlines to its first line's check.
export {
  traceDelivery,
  traceSettled,
  traceCheckout,
  traceCheckin,
  settleTraceOnDone,
  startStep,
  endStep,
  traceRoute,
  traceJobStart,
  traceJobEnd,
  tracePublish,
  tracePublished,
  withTraceHeaders,
  tracingActive,
  tracesMessage,
  ATTR_RULESET,
  ATTR_RETURN_CODE,
} from './message-trace';
export type { TraceStep } from './message-trace';
export { traceCounts, slowTracesOf } from './trace-stats';
export type { SlowTrace } from './trace-stats';
