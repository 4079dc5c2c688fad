/**
 * Whether tracing is on, read from the standard OpenTelemetry environment variables (docs/operations.md#tracing).
 * Off unless configured: an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or
 * OTEL_TRACES_EXPORTER=otlp turns it on; OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true keeps it off. The
 * other variables (service name, resource attributes, sampler and its ratio, batch sizes, timeouts, headers) are
 * read by the OpenTelemetry packages themselves.
 */

export type TraceSettings =
  | { readonly enabled: false; readonly why: string }
  | {
      readonly enabled: true;
      /** Where spans go (for the log line): the traces endpoint or the base endpoint, or the exporter's default. */
      readonly endpoint: string;
      /** Spans held for export at most (OTEL_BSP_MAX_QUEUE_SIZE, default 2048): more are dropped and counted. */
      readonly maxQueueSize: number;
      /**
       * The longest one export may take, its retries included (OTEL_BSP_EXPORT_TIMEOUT): by default the exporter's own
       * timeout plus a second, not the SDK's 30 s. An export still unfinished then is given up (its spans counted as
       * dropped) and a fresh exporter takes the next batch (src/tracing/bounded-export.ts).
       */
      readonly exportTimeoutMs: number;
      /** Settings that were ignored, with the reason (logged as warnings). */
      readonly ignored: readonly string[];
    };

/** The batch span processor's default queue bound (OpenTelemetry SDK configuration). */
const DEFAULT_MAX_QUEUE_SIZE = 2048;
/** The OTLP exporter's default timeout per export (OTEL_EXPORTER_OTLP_TIMEOUT). */
const DEFAULT_EXPORTER_TIMEOUT_MS = 10_000;
/** The OTLP/HTTP exporter's default endpoint for traces. */
const DEFAULT_TRACES_ENDPOINT = 'http://localhost:4318/v1/traces';

type Env = Readonly<Record<string, string | undefined>>;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

export function readTraceSettings(env: Env): TraceSettings {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { enabled: false, why: 'OTEL_SDK_DISABLED is true' };
  const exporters = (value(env, 'OTEL_TRACES_EXPORTER') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  const tracesEndpoint = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const ignored: string[] = [];
  if (exporters.includes('none')) return { enabled: false, why: 'OTEL_TRACES_EXPORTER is none' };
  const others = exporters.filter((e) => e !== 'otlp');
  if (others.length > 0) ignored.push(`OTEL_TRACES_EXPORTER ${others.join(', ')}: only otlp is supported`);
  const wanted = exporters.includes('otlp') || (exporters.length === 0 && (tracesEndpoint !== undefined || baseEndpoint !== undefined));
  if (!wanted) return { enabled: false, why: exporters.length > 0 ? 'OTEL_TRACES_EXPORTER names no supported exporter' : 'no OTLP endpoint is configured' };
  const protocol = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/json') ignored.push(`OTEL_EXPORTER_OTLP_PROTOCOL ${protocol}: spans are sent as http/json`);
  const queue = Number(value(env, 'OTEL_BSP_MAX_QUEUE_SIZE') ?? DEFAULT_MAX_QUEUE_SIZE);
  const maxQueueSize = Number.isInteger(queue) && queue > 0 ? queue : DEFAULT_MAX_QUEUE_SIZE;
  if (maxQueueSize !== queue)
    ignored.push(`OTEL_BSP_MAX_QUEUE_SIZE ${value(env, 'OTEL_BSP_MAX_QUEUE_SIZE')}: not a positive integer, ${DEFAULT_MAX_QUEUE_SIZE} is used`);
  const exporterTimeout = positive(value(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT') ?? value(env, 'OTEL_EXPORTER_OTLP_TIMEOUT')) ?? DEFAULT_EXPORTER_TIMEOUT_MS;
  const exportTimeoutMs = positive(value(env, 'OTEL_BSP_EXPORT_TIMEOUT')) ?? exporterTimeout + 1000;
  const endpoint = tracesEndpoint ?? (baseEndpoint !== undefined ? `${baseEndpoint.replace(/\/$/, '')}/v1/traces` : DEFAULT_TRACES_ENDPOINT);
  return { enabled: true, endpoint, maxQueueSize, exportTimeoutMs, ignored };
}

function positive(text: string | undefined): number | undefined {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
}
