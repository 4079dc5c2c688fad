/**
 * Tracing (docs/operations.md#tracing): OpenTelemetry spans per hop, W3C propagation, OTLP/HTTP export.
 *
 * This index is for the tests and benchmarks. Modules of src/ and actors/ import from the module that defines a name
 * (eslint.config.mjs, the barrel rule): compiled to CommonJS, an index of re-exports is an object of getters in V8's
 * dictionary mode, so every call through it is a hash lookup and a getter call that the optimiser cannot inline (about
 * 15 ns a hook, the tracing bench's off row, docs/operations.md#tracing), where a call into ./message-trace inlines to
 * the check on its first line.
 */
export { startTracing } from './trace-sdk';
export type { RunningTracing } from './trace-sdk';
export { readTraceSettings } from './trace-settings';
export type { SlowTrace } from './trace-stats';
