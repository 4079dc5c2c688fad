/**
 * Who may use the admin endpoint (docs/operations.md#the-admin-token): one guard every route module calls.
 *
 * - A route that changes the flow (reload, pause, resume, restart, ...) always needs the admin token. Without a
 *   configured token those routes answer 401: the control plane fails closed.
 * - A route that only reads (status, metrics, the status page) is open on a loopback address and needs the token
 *   on any other address. /healthz and /readyz never ask for it (probes carry no token); they do not call the guard.
 * - The token comes from XROUTE_ADMIN_TOKEN or a file (--admin-token-file), never from the command line, where
 *   `ps` shows it. It is remembered as a secret, so it is masked in every log, error, status and metric, and it is
 *   compared in constant time over SHA-256 digests (equal lengths, whatever the caller sends).
 * - The token is accepted as `Authorization: Bearer TOKEN` (xroute status/reload, curl) or as the password of
 *   HTTP Basic (any user name), so that a browser can open the status page of a remote endpoint.
 */
import { XrouteError } from '../foundation/xroute-error';
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { rememberSecret } from '../logging/redact';

/** What a route does: reads the flow's state, or changes it. */
type AccessKind = 'read' | 'change';

/** The one check of every admin route: true to go on; false when it has answered 401 itself. */
export type Authorize = (req: IncomingMessage, res: ServerResponse, kind: AccessKind) => boolean;

/** Where the token may come from; named in every error about it. */
const TOKEN_SOURCES = 'XROUTE_ADMIN_TOKEN or --admin-token-file FILE';

/** Shorter tokens are refused: they can be guessed, and redact.ts would not mask them (MIN_SECRET_LENGTH). */
const MIN_TOKEN_LENGTH = 16;

/** The admin token could not be read, or is too weak to protect anything. */
export class AdminTokenError extends XrouteError {
  constructor(
    readonly source: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`admin token from ${source}: ${reason}`, options);
    this.name = 'AdminTokenError';
  }
}

/** The endpoint would be reachable from other hosts without a token: it refuses to start. */
export class UnprotectedAdminError extends XrouteError {
  constructor(
    readonly host: string,
    /** Where the address came from: --admin or XROUTE_ADMIN. */
    readonly source = '--admin',
  ) {
    super(
      `refusing to serve the admin endpoint on ${host} (${source}), which other hosts can reach, without an admin token: ` +
        `set ${TOKEN_SOURCES} (a file readable only by xroute), or bind ${source} to 127.0.0.1:PORT`,
    );
    this.name = 'UnprotectedAdminError';
  }
}

/**
 * Reads the admin token: --admin-token-file (its content, a trailing newline dropped) before XROUTE_ADMIN_TOKEN,
 * as a command-line option comes before the environment. Undefined when neither is given. Throws AdminTokenError.
 */
export function readAdminToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  let token: string;
  let source: string;
  if (tokenFile !== undefined) {
    source = `--admin-token-file ${tokenFile}`;
    try {
      token = readFileSync(tokenFile, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : 'cannot read it';
      throw new AdminTokenError(source, why, { cause: e });
    }
  } else if (env.XROUTE_ADMIN_TOKEN !== undefined && env.XROUTE_ADMIN_TOKEN !== '') {
    source = 'XROUTE_ADMIN_TOKEN';
    token = env.XROUTE_ADMIN_TOKEN;
  } else {
    return undefined;
  }
  if (token.length < MIN_TOKEN_LENGTH)
    throw new AdminTokenError(source, `expected at least ${MIN_TOKEN_LENGTH} characters, got ${token.length} (e.g. openssl rand -hex 32)`);
  if (/[^!-~]/.test(token)) throw new AdminTokenError(source, 'expected one line of visible ASCII characters, without spaces (it travels in an HTTP header)');
  rememberSecret(token);
  return token;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time comparison: both sides are hashed first, so neither the content nor the length leaks through timing. */
export function tokenMatches(expected: string, presented: string): boolean {
  return timingSafeEqual(digest(expected), digest(presented));
}

/** The token an `Authorization` header carries: `Bearer TOKEN`, or the password of `Basic base64(user:TOKEN)`. */
export function presentedToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^(Bearer|Basic)[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m) return undefined;
  if (m[1].toLowerCase() === 'bearer') return m[2];
  const decoded = Buffer.from(m[2], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/** 127.0.0.0/8, ::1 and localhost: only this host can connect. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export interface AdminGuard {
  readonly authorize: Authorize;
  /** True when a token is configured (the change routes can be used at all). */
  readonly hasToken: boolean;
}

/**
 * The guard of an endpoint bound to `host`. Throws UnprotectedAdminError for a non-loopback host without a token:
 * call it before binding, so that nothing starts.
 */
export function adminGuard(host: string, token: string | undefined, source?: string): AdminGuard {
  const loopback = isLoopbackHost(host);
  if (!loopback && token === undefined) throw new UnprotectedAdminError(host, source);
  const authorize: Authorize = (req, res, kind) => {
    if (kind === 'read' && loopback) return true;
    const presented = presentedToken(req.headers.authorization);
    if (token !== undefined && presented !== undefined && tokenMatches(token, presented)) return true;
    const error =
      token === undefined
        ? `this route changes the flow and needs the admin token, but none is configured: start xroute run with ${TOKEN_SOURCES}`
        : presented === undefined
          ? 'this route needs the admin token: send "Authorization: Bearer TOKEN" (xroute status and xroute reload read it from ' + TOKEN_SOURCES + ')'
          : 'the admin token sent does not match';
    // A browser asks for Basic credentials on a read route (the status page); scripts use Bearer.
    const challenges = kind === 'read' ? ['Bearer realm="xroute admin"', 'Basic realm="xroute admin", charset="UTF-8"'] : ['Bearer realm="xroute admin"'];
    res.writeHead(401, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'www-authenticate': challenges });
    res.end(JSON.stringify({ error }) + '\n');
    return false;
  };
  return { authorize, hasToken: token !== undefined };
}
