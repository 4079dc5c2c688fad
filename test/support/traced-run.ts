/**
 * What the tracing tests share: a real `xroute run --admin` started with the OTEL_* environment variables an
 * operator sets, exporting to an OtlpReceiver inside the test, and helpers to read one trace. (The exporter loads
 * node:http with a dynamic import, which jest's module sandbox refuses: the flow runs as its own process, as it does
 * in production.)
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FlowStatus } from '../../src/runtime/flow';
import { waitFor } from './component-harness';
import { waitForOutput } from './process-output';
import { stopProcess } from './xroute-cli';
import { OtlpReceiver, ReceivedSpan } from './otlp-receiver';

const MAIN = path.resolve(__dirname, '../../dist/src/cli/main.js');

export interface TracedRun {
  readonly child: ChildProcess;
  /** The admin endpoint, http://127.0.0.1:PORT. */
  readonly url: string;
  /** Everything the process printed so far (JSON log lines). */
  output(): string;
  status(): Promise<FlowStatus>;
  /** The value of a metric without labels on /metrics. */
  metric(name: string): Promise<number>;
  /** SIGTERM, and resolves when the process has exited (after exporting what it queued). */
  stop(): Promise<void>;
}

/**
 * Runs `topology` with tracing to `receiver` (OTEL_* `env` on top, e.g. the sampler) and resolves once every
 * component is ready. Short batch delay, so that spans arrive soon after they end.
 */
export async function runTraced(topology: object, receiver: OtlpReceiver | undefined, env: Record<string, string> = {}): Promise<TracedRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'xroute-trace-'));
  const file = path.join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(topology));
  const otel: Record<string, string> =
    receiver === undefined
      ? {}
      : {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint,
          OTEL_BSP_SCHEDULE_DELAY: '50',
          OTEL_SERVICE_NAME: 'xroute-under-test',
          OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
        };
  const child = spawn(process.execPath, [MAIN, 'run', file, '--json-logs', '--keep-running', '--admin', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...otel, ...env },
  });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += String(d)));
  child.stderr!.on('data', (d: Buffer) => (text += String(d)));
  const [, url] = await waitForOutput(child, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
  const status = async () => (await (await fetch(`${url}/status`)).json()) as FlowStatus;
  await waitFor(
    async () => (await status()).ready,
    () => `the flow ready; output: ${text}`,
    20_000,
  );
  return {
    child,
    url,
    output: () => text,
    status,
    async metric(name) {
      const body = await (await fetch(`${url}/metrics`)).text();
      const m = body.match(new RegExp(`^${name} (\\S+)$`, 'm'));
      if (m === null) throw new Error(`no metric ${name} on /metrics`);
      return Number(m[1]);
    },
    async stop() {
      await stopProcess(child, 'SIGTERM', undefined, () => text);
    },
  };
}

/** A fresh W3C traceparent (sampled) and its parts. */
export function upstreamContext(): { traceId: string; parentId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

/** The one span of `spans` whose name starts with `prefix`; fails naming what there is. */
export function oneSpan(spans: readonly ReceivedSpan[], prefix: string): ReceivedSpan {
  const found = spans.filter((s) => s.name.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one span "${prefix}...", got ${found.length} among ${spans.map((s) => s.name).join(', ')}`);
  return found[0];
}

/** Spans in the order they started. */
export function byStart(spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  return [...spans].sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
}
