/**
 * The admin endpoint of `xroute run --admin HOST:PORT` (off by default): plain node:http, or https with
 * --admin-tls-cert/--admin-tls-key.
 *   GET /healthz  200 while the process and its event loop answer (liveness)
 *   GET /readyz   200 when every component is running, else 503 naming each one that is not and why; both list
 *                 the stuck links (a stuck link whose consumer is not running makes it 503 through that consumer)
 *                 and the parked messages per component (degraded, still 200)
 *   GET /status   the flow status as JSON
 *   GET /metrics  Prometheus text format (prom-client)
 *   GET /events   the status as server-sent events, every second (the status page's feed); each reload's
 *                 receipt as an event named `reload`
 *   GET /components/NAME  one component's details: status, configuration and recent errors (the page's details)
 *   GET|POST /trace       the components whose messages are traced; POST turns a trace on or off (trace-route.ts)
 *   GET /         the live status page
 *   POST /reload[?dryRun=1]                          re-read the topology file and reload (the receipt as JSON)
 *   POST /components/NAME/pause|resume|restart       one component (Flow.pause, resume, restart)
 *   /parked/...   parked messages of the receivers: list, show (GET), retry, drop (POST) (parked-routes.ts)
 * Who may use which route is admin-auth.ts's to decide: the POST routes always need the admin token; the others
 * need it on an address other hosts can reach; /healthz and /readyz never do.
 * Everything that leaves it is masked like the logs (configured secrets, URI passwords, secret keys, the token).
 * It binds only where it is told; 127.0.0.1 is the documented choice.
 */
import { XrouteError } from '../foundation/xroute-error';
import * as http from 'http';
import * as https from 'https';
import { AddressInfo } from 'net';
import { Flow, FlowStatus } from '../runtime/flow';
import { ReloadReceipt } from '../runtime/reload-receipt';
import { adminGuard } from './admin-auth';
import { controlRoute, ReloadControl } from './control-routes';
import { Logger, silentLogger } from '../logging/logger';
import { redact, redactText } from '../logging/redact';
import { flowMetrics } from './metrics';
import { STATUS_PAGE_HTML } from './status-page';
import { parkedRoute } from './parked-routes';
import { handleTraceRoute } from './trace-route';

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
  /** Base URL, e.g. http://127.0.0.1:9090 (https:// with TLS) */
  readonly url: string;
  /**
   * Pushes a reload's receipt to every /events stream, as an event named `reload`. The served flow's own receipts
   * (flow.onReload) are pushed already: this is for those of a reload refused before the flow saw it.
   */
  publishReload(receipt: ReloadReceipt): void;
  close(): Promise<void>;
}

/** Who may use the endpoint, and how it is reached (docs/operations.md#the-admin-token). */
export interface AdminSecurity {
  /** The admin token (admin-auth.ts readAdminToken); without it only read routes on loopback are served. */
  readonly token?: string;
  /** PEM certificate chain and key: the endpoint speaks https. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
}

const SSE_INTERVAL_MS = 1000;

function maskedStatus(flow: Flow): FlowStatus {
  return redact(flow.status()) as FlowStatus;
}

/** Components that are not ready, with the reason, for /readyz and `xroute status`. */
function notReady(status: FlowStatus): { component: string; status: string; detail?: string }[] {
  return status.components.filter((c) => !c.ready).map((c) => ({ component: c.name, status: c.status, ...(c.detail ? { detail: c.detail } : {}) }));
}

/** Components with parked messages and how many, for /readyz (degraded while any is parked). */
function parkedBy(status: FlowStatus): { component: string; parked: number }[] {
  return status.components.filter((c) => (c.parked ?? 0) > 0).map((c) => ({ component: c.name, parked: c.parked as number }));
}

/** An admin endpoint that listens already and serves a flow once it is given one (`serve`). */
export interface BoundAdminServer extends AdminServer {
  /** `control.reload` serves POST /reload; without it that route answers 501. */
  serve(flow: Flow, control?: ReloadControl): void;
}

/** Binds the endpoint and serves `flow` on it. */
export async function startAdminServer(
  flow: Flow,
  address: AdminAddress,
  logger: Logger = silentLogger,
  security: AdminSecurity = {},
  control?: ReloadControl,
): Promise<AdminServer> {
  const server = await bindAdminServer(address, logger, security);
  server.serve(flow, control);
  return server;
}

/** Routes that never ask for the token: probes carry none. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Binds the endpoint before any flow exists, so that `xroute run` fails on a port already taken before a
 * receiver takes a message; until `serve`, every route answers 503 "starting". Throws UnprotectedAdminError
 * (admin-auth.ts), before binding, for an address other hosts can reach without a token.
 */
export async function bindAdminServer(address: AdminAddress, logger: Logger = silentLogger, security: AdminSecurity = {}): Promise<BoundAdminServer> {
  const guard = adminGuard(address.host, security.token);
  let served: { flow: Flow; metrics: ReturnType<typeof flowMetrics>; control?: ReloadControl } | undefined;
  const streams = new Set<http.ServerResponse>();
  const json = (res: http.ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(redact(body), null, 2) + '\n');
  };
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    // Split by hand: the target is whatever the client sent, and URL parsing throws on some of it.
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const route = query < 0 ? target : target.slice(0, query);
    const params = new URLSearchParams(query < 0 ? '' : target.slice(query + 1));
    const probe = PROBES.has(route);
    if (route === '/parked' || route.startsWith('/parked/')) {
      // parked-routes.ts asks the guard itself: 'read' to list and show, 'change' to retry and drop.
      if (served === undefined) json(res, 503, { error: 'the flow is starting' });
      else parkedRoute(route, req, res, served.flow, (rq, rs, kind) => guard.authorize(rq, rs, kind));
      return;
    }
    if (route === '/trace') {
      // trace-route.ts asks the guard itself: 'read' to list, 'change' to turn a trace on or off.
      if (served === undefined) json(res, 503, { error: 'the flow is starting' });
      else handleTraceRoute(served.flow, req, res, (rq, rs, kind) => guard.authorize(rq, rs, kind));
      return;
    }
    if (req.method === 'POST' && !probe) {
      if (!guard.authorize(req, res, 'change')) return;
      if (served === undefined) json(res, 503, { error: 'the flow is starting' });
      else controlRoute(served.flow, served.control, route, params, logger).then((answer) => json(res, answer.code, answer.body));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: probe ? 'GET, HEAD' : 'GET, HEAD, POST' });
      res.end();
      return;
    }
    if (!probe && !guard.authorize(req, res, 'read')) return;
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
        json(res, status.ready ? 200 : 503, {
          ready: status.ready,
          degraded: status.degraded,
          notReady: notReady(status),
          stuckLinks: status.stuckLinks,
          parked: parkedBy(status),
        });
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
      default: {
        const component = /^\/components\/([^/]+)$/.exec(route);
        if (component !== null) {
          let name: string;
          try {
            name = decodeURIComponent(component[1]);
          } catch {
            json(res, 400, { error: `${route}: the component name is not a valid percent-encoded name` });
            return;
          }
          const details = flow.componentDetails(name);
          if (details !== undefined) json(res, 200, details);
          else
            json(res, 404, {
              error: redactText(
                `no component ${JSON.stringify(name)}; components: ${flow
                  .status()
                  .components.map((c) => c.name)
                  .join(', ')}`,
              ),
            });
          return;
        }
        json(res, 404, {
          error: `no route ${route}; routes: GET /healthz /readyz /status /metrics /events /components/NAME /trace /parked /, POST /reload /components/NAME/pause|resume|restart /trace /parked/NAME/retry|drop`,
        });
      }
    }
  };
  const server = security.tls ? https.createServer({ cert: security.tls.cert, key: security.tls.key }, handler) : http.createServer(handler);
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
  const url = `${security.tls ? 'https' : 'http'}://${host}:${bound.port}`;
  logger.info('admin endpoint listening', {
    url,
    token: guard.hasToken ? 'required by the routes that change the flow' : 'none: the routes that change the flow are refused',
  });
  const publishReload = (receipt: ReloadReceipt) => {
    const frame = `event: reload\ndata: ${JSON.stringify(redact(receipt))}\n\n`;
    for (const s of streams) s.write(frame);
  };
  let unsubscribe: (() => void) | undefined;
  return {
    url,
    serve: (flow, control) => {
      served = { flow, metrics: flowMetrics(flow), ...(control ? { control } : {}) };
      // Whatever asked for it (the API, a signal, a file change, POST /reload), the flow's receipt goes to /events.
      unsubscribe = flow.onReload(publishReload);
    },
    publishReload,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(ticker);
        unsubscribe?.();
        for (const s of streams) s.end();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
