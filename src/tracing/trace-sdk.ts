/**
 * Starting and stopping tracing for a run (docs/operations.md#tracing). When the environment configures no
 * exporter nothing is loaded: the OpenTelemetry SDK, exporter and resources are imported only here, only when
 * tracing is on, and the hooks of src/tracing/message-trace.ts stay on their first-line return.
 *
 * When on: a BasicTracerProvider (sampler from OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, read by the SDK),
 * a BatchSpanProcessor bounded by OTEL_BSP_MAX_QUEUE_SIZE around the OTLP/HTTP exporter (endpoint, headers and
 * timeout from OTEL_EXPORTER_OTLP_*, read by the exporter; one export in flight at a time, given up at its deadline), a resource from OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES over service.name "xroute", and the W3C trace-context propagator. Lost spans are
 * counted (bounded-export.ts) and reported by a rate-limited warning.
 */
import { trace } from '@opentelemetry/api';
import { Logger } from '../logging/logger';
import { FailureSummary } from '../logging/failure-summary';
import { redactText } from '../logging/redact';
import { BoundedSpanProcessor, CountingExporter } from './bounded-export';
import { PooledIdGenerator } from './pooled-ids';
import { setActiveTracing } from './message-trace';
import { readTraceSettings } from './trace-settings';

/** How often a repeated loss or malformed context is logged at most (one line per window, with the count). */
const WARN_WINDOW_MS = 30_000;
/** The longest a stop waits for the last spans to be exported. */
const SHUTDOWN_TIMEOUT_MS = 5_000;

export interface RunningTracing {
  /** Exports what is queued (bounded by SHUTDOWN_TIMEOUT_MS) and turns tracing off. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** service.version of the resource. */
  readonly version?: string;
  /** Milliseconds between two warnings of the same kind (default 30 s). */
  readonly warnWindowMs?: number;
}

const unrefTimers = {
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms).unref(),
};

/** Starts tracing when `env` configures it; undefined (and nothing loaded) when it does not. */
export async function startTracing(
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  options: TracingOptions = {},
): Promise<RunningTracing | undefined> {
  const settings = readTraceSettings(env);
  if (!settings.enabled) {
    logger.debug('tracing off', { reason: settings.why });
    return undefined;
  }
  for (const ignored of settings.ignored) logger.warn(`tracing: ignored ${ignored}`);
  const [
    { BasicTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { defaultResource, detectResources, envDetector, resourceFromAttributes },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } = await import('@opentelemetry/semantic-conventions');
  const windowMs = options.warnWindowMs ?? WARN_WINDOW_MS;
  const endpoint = redactText(settings.endpoint);
  const losses = new FailureSummary(logger, 'tracing', 'spans dropped', unrefTimers, windowMs);
  const dropped = (spans: number, why: string) =>
    losses.record(
      why,
      `tracing: ${spans} span(s) dropped (${why}); the flow goes on, spans are lost until the collector accepts them again`,
      { endpoint, spans },
      spans,
    );
  const malformedContexts = new FailureSummary(logger, 'tracing', 'malformed trace contexts ignored', unrefTimers, windowMs);

  const exporter = new CountingExporter(() => new OTLPTraceExporter(), dropped, settings.exportTimeoutMs, settings.maxQueueSize);
  const queue = new BoundedSpanProcessor(
    // The processor's own export timeout only backs up the exporter's deadline: a second later, so that it never fires first.
    new BatchSpanProcessor(exporter, { maxQueueSize: settings.maxQueueSize, exportTimeoutMillis: settings.exportTimeoutMs + 1000 }),
    settings.maxQueueSize,
    dropped,
  );
  exporter.queue = queue;
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'xroute', ...(options.version !== undefined ? { [ATTR_SERVICE_VERSION]: options.version } : {}) }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [queue], idGenerator: new PooledIdGenerator() });
  // Registered globally too, so that plugins using @opentelemetry/api add their spans to the same traces.
  trace.setGlobalTracerProvider(provider);
  setActiveTracing({
    tracer: provider.getTracer('xroute', options.version),
    propagator: new W3CTraceContextPropagator(),
    malformed: (component, value) =>
      malformedContexts.record(component, 'tracing: a malformed traceparent was ignored; the message starts a new trace', {
        receiver: component,
        traceparent: value.slice(0, 100),
      }),
  });
  logger.info('tracing on', {
    endpoint,
    serviceName: resource.attributes[ATTR_SERVICE_NAME],
    sampler: env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
    maxQueueSize: settings.maxQueueSize,
  });
  return {
    async shutdown() {
      setActiveTracing(undefined);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_TIMEOUT_MS)));
      await Promise.race([provider.shutdown().catch(() => undefined), timeout]);
      clearTimeout(timer);
      losses.flush();
      malformedContexts.flush();
      trace.disable();
    },
  };
}
