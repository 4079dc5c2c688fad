/**
 * /trace on the admin endpoint: which components' messages are traced (GET), and turning the trace on or off at run
 * time (POST, a change: it needs the admin token, admin-auth.ts), as `xroute run --trace`
 * does at start (docs/operations.md "Tracing messages").
 *
 *   POST /trace  {"components": ["pstr_store"], "trace": "on"}   ->  200 {"traced": ["pstr_store"]}
 */
import { XrouteError } from '../foundation/xroute-error';
import * as http from 'http';
import { Flow } from '../runtime/flow';
import { redactText } from '../logging/redact';
import { Authorize } from './admin-auth';
import { UnknownComponentError } from '../runtime/errors';

/** A request body larger than this is refused (413): the route reads a list of names. */
export const MAX_TRACE_BODY_BYTES = 64 * 1024;

function answer(res: http.ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body, null, 2) + '\n');
}

/** What a POST /trace body must be, for the error that answers a body that is not. */
const EXPECTED = 'expected a JSON object {"components": ["NAME", ...], "trace": "on" | "off"}';

class TraceRequestError extends XrouteError {
  constructor(
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`POST /trace: ${problem}; ${EXPECTED}`, options);
    this.name = 'TraceRequestError';
  }
}

/** Parses a POST /trace body. */
function parseTraceRequest(text: string): { components: string[]; on: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new TraceRequestError('the body is not JSON', { cause: e });
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new TraceRequestError('the body is not a JSON object');
  const { components, trace } = json as Record<string, unknown>;
  if (!Array.isArray(components) || components.length === 0 || !components.every((c) => typeof c === 'string' && c !== ''))
    throw new TraceRequestError('"components" is not a non-empty list of component names');
  if (trace !== 'on' && trace !== 'off') throw new TraceRequestError(`"trace" is ${JSON.stringify(trace) ?? 'missing'}`);
  return { components: components as string[], on: trace === 'on' };
}

/** The body as text, or undefined once it passes `limit` bytes (the rest is read and dropped, not kept). */
function readBody(req: http.IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= limit ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', reject);
  });
}

/** Answers GET and POST /trace for `flow`. */
export function handleTraceRoute(flow: Flow, req: http.IncomingMessage, res: http.ServerResponse, authorize: Authorize): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    if (authorize(req, res, 'read')) answer(res, 200, { traced: flow.traced() });
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'GET, HEAD, POST' });
    res.end();
    return;
  }
  if (!authorize(req, res, 'change')) return;
  readBody(req, MAX_TRACE_BODY_BYTES).then(
    (text) => {
      if (text === undefined) {
        answer(res, 413, { error: `POST /trace: the body is larger than ${MAX_TRACE_BODY_BYTES} bytes; ${EXPECTED}` });
        return;
      }
      try {
        const request = parseTraceRequest(text);
        answer(res, 200, { traced: flow.setTrace(request.components, request.on) });
      } catch (e) {
        if (e instanceof TraceRequestError) answer(res, 400, { error: e.message });
        else if (e instanceof UnknownComponentError) answer(res, 404, { error: e.message });
        else answer(res, 500, { error: redactText(String(e)) });
      }
    },
    () => undefined, // the client went away: nothing to answer
  );
}
