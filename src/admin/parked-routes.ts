/**
 * The admin endpoint's routes for parked messages (docs/operations.md "Parked and dead-lettered messages"): the
 * operations of `xroute parked`, on the parking queue of a receiver of the running flow, with its own connection.
 *   GET  /parked                         receivers with a parking place, and how many messages each has parked
 *   GET  /parked/NAME/messages?limit=N   list (id, origin, reason, age, attempts, body, headers), without consuming
 *   GET  /parked/NAME/messages/ID        one message
 *   POST /parked/NAME/retry              {"ids": [...]} | {"all": true} | {"limit": N}, optional "to", "window", "rate"
 *   POST /parked/NAME/drop               the same selection
 * Reads are asked of admin-auth.ts as 'read', retry and drop as 'change' (they need the admin token).
 */
import { XrouteError } from '../foundation/xroute-error';
import type { IncomingMessage, ServerResponse } from 'http';
import { Flow } from '../runtime/flow';
import { Authorize } from './admin-auth';
import { redactText } from '../logging/redact';
import { EmptySelectionError, ParkedStore, RetryOptions, Selection, checkSelection, parkedJson } from '../parking/parked-store';

/** The most a POST body may hold (a selection of ids). */
const MAX_BODY_BYTES = 1 << 20;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

class BadRequest extends XrouteError {}

function json(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body, null, 2) + '\n');
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BadRequest(`the request body is over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      try {
        resolve(text === '' ? {} : JSON.parse(text));
      } catch (e) {
        reject(new BadRequest('the request body is not JSON; expected e.g. {"ids": ["..."]}, {"all": true} or {"limit": 10}', { cause: e }));
      }
    });
    req.on('error', reject);
  });
}

function positive(v: unknown, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new BadRequest(`"${what}" must be a whole number, 1 or more`);
  return v;
}

/** The selection and retry options of a POST body, or a BadRequest naming what is wrong. */
export function readSelection(body: unknown): { selection: Selection; options: RetryOptions } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('expected a JSON object, e.g. {"ids": ["..."]}');
  const b = body as Record<string, unknown>;
  if (b.ids !== undefined && (!Array.isArray(b.ids) || !b.ids.every((x) => typeof x === 'string')))
    throw new BadRequest('"ids" must be a list of message ids (strings)');
  if (b.all !== undefined && typeof b.all !== 'boolean') throw new BadRequest('"all" must be true or false');
  if (b.to !== undefined && (typeof b.to !== 'string' || b.to === '')) throw new BadRequest('"to" must be a queue name');
  const selection: Selection = {
    ...(b.ids !== undefined ? { ids: b.ids as string[] } : {}),
    ...(b.all === true ? { all: true } : {}),
    ...(b.limit !== undefined ? { limit: positive(b.limit, 'limit') } : {}),
  };
  checkSelection(selection);
  const options: RetryOptions = {
    ...(b.to !== undefined ? { to: b.to as string } : {}),
    ...(b.window !== undefined ? { window: positive(b.window, 'window') } : {}),
    ...(b.rate !== undefined ? { ratePerSecond: positive(b.rate, 'rate') } : {}),
  };
  return { selection, options };
}

/** Serves a route under /parked; `route` is the path without its query. */
export function parkedRoute(route: string, req: IncomingMessage, res: ServerResponse, flow: Flow, authorize: Authorize): void {
  const parts = route
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const method = req.method ?? 'GET';
  const change = parts.length === 3 && (parts[2] === 'retry' || parts[2] === 'drop');
  if (change ? method !== 'POST' : method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { allow: change ? 'POST' : 'GET, HEAD' });
    res.end();
    return;
  }
  if (!authorize(req, res, change ? 'change' : 'read')) return;
  if (parts.length === 1) {
    const receivers = flow.componentViews().filter((c) => c.status.parkingPlace() !== undefined);
    json(
      res,
      200,
      receivers.map((c) => ({ component: c.name, parked: c.status.parked() ?? 0 })),
    );
    return;
  }
  const component = flow.component(parts[1]);
  const open = component?.status.parkingPlace();
  if (component === undefined || open === undefined) {
    const known = flow
      .componentViews()
      .filter((c) => c.status.parkingPlace() !== undefined)
      .map((c) => c.name);
    json(res, 404, { error: `no receiver ${JSON.stringify(parts[1])} with a parking place; receivers with one: ${known.join(', ') || 'none'}` });
    return;
  }
  const query = new URL(req.url ?? '/', 'http://admin').searchParams;
  void serve(parts.slice(2), query, req, res, open).catch((e: unknown) => {
    if (res.headersSent) return;
    const bad = e instanceof BadRequest || e instanceof EmptySelectionError;
    json(res, bad ? 400 : 502, { error: redactText((e as Error).message) });
  });
}

async function serve(
  rest: readonly string[],
  query: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
  open: () => Promise<ParkedStore>,
): Promise<void> {
  const [what, id] = rest;
  if (what === 'messages' && rest.length <= 2) {
    const limitText = query.get('limit');
    const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new BadRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
    const store = await open();
    try {
      if (id === undefined) {
        json(res, 200, (await store.list(limit)).map(parkedJson));
        return;
      }
      const m = await store.show(id);
      if (m === undefined) json(res, 404, { error: `no message ${id} in ${store.place}` });
      else json(res, 200, parkedJson(m));
    } finally {
      await store.close();
    }
    return;
  }
  if ((what === 'retry' || what === 'drop') && rest.length === 1) {
    const { selection, options } = readSelection(await readBody(req));
    const store = await open();
    try {
      json(res, 200, what === 'retry' ? await store.retry(selection, options) : await store.drop(selection));
    } finally {
      await store.close();
    }
    return;
  }
  throw new BadRequest('routes: /parked, /parked/NAME/messages[/ID], POST /parked/NAME/retry, POST /parked/NAME/drop');
}
