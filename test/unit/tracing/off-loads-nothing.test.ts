/**
 * Zero cost when off (docs/operations.md#tracing): without OTEL_* configuration, starting tracing loads none of the
 * OpenTelemetry SDK, exporter or resource packages. Run in a fresh node process on dist/ (npm run build first), whose
 * module cache shows what was loaded.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const TRACING = path.resolve(__dirname, '../../../dist/src/tracing');

function loadedAfterStart(env: Record<string, string>): { started: boolean; sdk: string[] } {
  const script = `
    const { startTracing } = require(${JSON.stringify(TRACING)});
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    startTracing(process.env, quiet).then(async (t) => {
      const sdk = Object.keys(require.cache).filter((k) => /@opentelemetry[\\\\/](sdk-trace|exporter|otlp|resources)/.test(k)).map((k) => k.split('@opentelemetry')[1].split(/[\\\\/]/)[1]);
      console.log(JSON.stringify({ started: t !== undefined, sdk: [...new Set(sdk)].sort() }));
      await t?.shutdown();
    });`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...clean, ...env }, encoding: 'utf8' })) as { started: boolean; sdk: string[] };
}

describe('tracing off', () => {
  it('loads no OpenTelemetry SDK, exporter or resource package', () => {
    expect(loadedAfterStart({})).toEqual({ started: false, sdk: [] });
  });

  it('loads them once an endpoint is configured (the same check, seeing them)', () => {
    const on = loadedAfterStart({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/v1/traces' });
    expect(on.started).toBe(true);
    expect(on.sdk).toEqual(expect.arrayContaining(['exporter-trace-otlp-http', 'resources', 'sdk-trace-base']));
  });
});
