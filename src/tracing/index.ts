/** Tracing (docs/operations.md#tracing): OpenTelemetry spans per hop, W3C propagation, OTLP/HTTP export. */
export { startTracing } from './trace-sdk';
export type { RunningTracing } from './trace-sdk';
export { readTraceSettings } from './trace-settings';
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
