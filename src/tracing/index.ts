/** Tracing (docs/operations.md#tracing): OpenTelemetry spans per hop, W3C propagation, OTLP/HTTP export. */
export { startTracing } from './trace-sdk';
export type { RunningTracing } from './trace-sdk';
export { readTraceSettings } from './trace-settings';
// The per-message hooks (traceDelivery, startStep, tracePublish, ...) are imported from ./message-trace itself, not
// re-exported here: compiled to CommonJS, an index of re-exports is an object of getters in V8's dictionary mode, so
// every call through it is a hash lookup and a getter call that the optimiser cannot inline (about 15 ns a hook,
// the tracing bench's off row, docs/operations.md#tracing), where a call into ./message-trace inlines to the check
// on its first line.
export { traceCounts, slowTracesOf } from './trace-stats';
export type { SlowTrace } from './trace-stats';
