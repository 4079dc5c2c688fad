/**
 * The admin endpoint of `xroute run --admin HOST:PORT` (off by default): plain node:http.
 *   GET /healthz  200 while the process and its event loop answer (liveness)
 *   GET /readyz   200 when every component is running, else 503 naming each one that is not and why; both list
 *                 the stuck links (a stuck link whose consumer is not running makes it 503 through that consumer)
 *   GET /status   the flow status as JSON
 *   GET /metrics  Prometheus text format (prom-client)
 *   GET /events   the status as server-sent events, every second (the status page's feed)
 *   GET /         the live status page
 * Everything that leaves it is masked like the logs (configured secrets, URI passwords, secret keys).
 * It binds only where it is told; 127.0.0.1 is the documented choice.
 */
import { XrouteError } from '../foundation/xroute-error';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Flow, FlowStatus } from '../runtime/flow';
import { Logger, silentLogger } from '../logging/logger';
import { redact, redactText } from '../logging/redact';
import { flowMetrics } from './metrics';
import { STATUS_PAGE_HTML } from './status-page';

class AdminAddressError extends XrouteError {
  constructor(
    readonly value: string,
    readonly source: string,
  ) {
    super(`${source} ${JSON.stringify(value)}: expected HOST:PORT, e.g. 127.0.0.1:9090 (port 0-65535)`);
    this.name = 'AdminAddressError';
  }
}

export interface AdminAddress {
  readonly host: string;
  readonly port: number;
}

/** "HOST:PORT", "[::1]:PORT", ":PORT" or "PORT" (host 127.0.0.1). `source` names the flag or variable for errors. */
export function parseAdminAddress(text: string, source = '--admin'): AdminAddress {
  const m = /^(?:(?:\[([^\]]+)\]|([^:]*)):)?(\d+)$/.exec(text.trim());
  if (!m) throw new AdminAddressError(text, source);
  const port = Number(m[3]);
  if (port > 65535) throw new AdminAddressError(text, source);
  const host = m[1] ?? (m[2] !== undefined && m[2] !== '' ? m[2] : '127.0.0.1');
  return { host, port };
}

export interface AdminServer {
  /** Base URL, e.g. http://127.0.0.1:9090 */
  readonly url: string;
  close(): Promise<void>;
}

const SSE_INTERVAL_MS = 1000;

function maskedStatus(flow: Flow): FlowStatus {
  return redact(flow.status()) as FlowStatus;
}

/** Components that are not ready, with the reason, for /readyz and `xroute status`. */
function notReady(status: FlowStatus): { component: string; status: string; detail?: string }[] {
  return status.components.filter((c) => !c.ready).map((c) => ({ component: c.name, status: c.status, ...(c.detail ? { detail: c.detail } : {}) }));
}

/** An admin endpoint that listens already and serves a flow once it is given one (`serve`). */
export interface BoundAdminServer extends AdminServer {
  serve(flow: Flow): void;
}

/** Binds the endpoint and serves `flow` on it. */
export async function startAdminServer(flow: Flow, address: AdminAddress, logger: Logger = silentLogger): Promise<AdminServer> {
  const server = await bindAdminServer(address, logger);
  server.serve(flow);
  return server;
}

/**
 * Binds the endpoint before any flow exists, so that `xroute run` fails on a port already taken before a
 * receiver takes a message; until `serve`, every route answers 503 "starting".
 */
export async function bindAdminServer(address: AdminAddress, logger: Logger = silentLogger): Promise<BoundAdminServer> {
  let served: { flow: Flow; metrics: ReturnType<typeof flowMetrics> } | undefined;
  const streams = new Set<http.ServerResponse>();
  const json = (res: http.ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body, null, 2) + '\n');
  };
  const server = http.createServer((req, res) => {
    const route = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    if (served === undefined) {
      json(res, 503, { error: 'the flow is starting' });
      return;
    }
    const { flow, metrics } = served;
    switch (route) {
      case '/healthz':
        json(res, 200, { status: 'alive', uptimeMs: Date.now() - flow.startedAt });
        return;
      case '/readyz': {
        const status = maskedStatus(flow);
        json(res, status.ready ? 200 : 503, { ready: status.ready, degraded: status.degraded, notReady: notReady(status), stuckLinks: status.stuckLinks });
        return;
      }
      case '/status':
        json(res, 200, maskedStatus(flow));
        return;
      case '/metrics':
        metrics.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': metrics.contentType });
            res.end(redactText(text));
          },
          (e: unknown) => json(res, 500, { error: redactText(String(e)) }),
        );
        return;
      case '/events':
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        // A HEAD asks for the headers only: a stream answered to it would never end.
        if (req.method === 'HEAD') {
          res.end();
          return;
        }
        res.write(`data: ${JSON.stringify(maskedStatus(flow))}\n\n`);
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      case '/':
      case '/index.html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(STATUS_PAGE_HTML);
        return;
      default:
        json(res, 404, { error: `no route ${route}; routes: /healthz /readyz /status /metrics /events /` });
    }
  });
  const ticker = setInterval(() => {
    if (streams.size === 0 || served === undefined) return;
    const frame = `data: ${JSON.stringify(maskedStatus(served.flow))}\n\n`;
    for (const s of streams) s.write(frame);
  }, SSE_INTERVAL_MS);
  ticker.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address.port, address.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    clearInterval(ticker);
    throw e;
  }
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}`;
  logger.info('admin endpoint listening', { url });
  return {
    url,
    serve: (flow) => {
      served = { flow, metrics: flowMetrics(flow) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(ticker);
        for (const s of streams) s.end();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
