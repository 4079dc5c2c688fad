import { readTraceSettings } from '../../../src/tracing';

describe('tracing settings from the OTEL_* environment', () => {
  it('is off when nothing is configured', () => {
    expect(readTraceSettings({})).toEqual({ enabled: false, why: 'no OTLP endpoint is configured' });
  });

  it('is on with an OTLP endpoint, sending to its /v1/traces', () => {
    expect(readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      enabled: true,
      endpoint: 'http://collector:4318/v1/traces',
    });
  });

  it('takes the traces endpoint as the full URL, over the base endpoint', () => {
    expect(readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom' })).toMatchObject({
      endpoint: 'http://b:4318/custom',
    });
  });

  it('is on with OTEL_TRACES_EXPORTER=otlp alone, to the default local collector', () => {
    expect(readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ enabled: true, endpoint: 'http://localhost:4318/v1/traces' });
  });

  it('stays off with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true, whatever the endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect([
      readTraceSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).enabled,
      readTraceSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).enabled,
    ]).toEqual([false, false]);
  });

  it('names the settings it ignores: another exporter, another protocol, a bad queue size', () => {
    const s = readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp,console', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_BSP_MAX_QUEUE_SIZE: 'lots' });
    expect(s.enabled && s.ignored).toEqual([
      'OTEL_TRACES_EXPORTER console: only otlp is supported',
      'OTEL_EXPORTER_OTLP_PROTOCOL grpc: spans are sent as http/json',
      'OTEL_BSP_MAX_QUEUE_SIZE lots: not a positive integer, 2048 is used',
    ]);
  });

  it('bounds the export queue by OTEL_BSP_MAX_QUEUE_SIZE and one export by the exporter timeout plus a second', () => {
    const s = readTraceSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_EXPORTER_OTLP_TIMEOUT: '2000' });
    expect(s.enabled && [s.maxQueueSize, s.exportTimeoutMs]).toEqual([100, 3000]);
  });
});
