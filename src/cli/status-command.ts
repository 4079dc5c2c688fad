/**
 * `xroute status [--admin URL] [--json] [--watch [--interval S] [--count N]]`: reads /status of a running
 * `xroute run --admin` and prints a table of components and links (or the JSON as is); --watch prints it again
 * every interval. Exit 0 when ready, 1 when reachable but not ready, 2 when unreachable, 4 when ready but a link
 * is stuck or messages are parked (degraded), so scripts and health checks can use it directly (docs/operations.md).
 */
import { CliIo } from './commands';
import type { FlowStatus } from '../runtime/flow';
import { readAdminToken } from '../admin/admin-auth';
import { XrouteError } from '../foundation/xroute-error';

export const DEFAULT_ADMIN = '127.0.0.1:9090';
const TIMEOUT_MS = 5000;
/** Exit code of `xroute status` for a ready flow with a stuck (full) link or parked messages. */
const EXIT_DEGRADED = 4;

/** Accepts a URL or HOST:PORT; the admin endpoint speaks plain http. */
export function adminBaseUrl(text: string): string {
  const t = text.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(t) ? t : `http://${t.startsWith(':') ? '127.0.0.1' + t : t}`;
}

/** Columns of words (names, states, times), left-aligned; the others are figures, right-aligned. */
const TEXT_COLUMNS = new Set(['COMPONENT', 'CLASS', 'STATE', 'LINK', 'FROM -> TO', 'LAST MSG', 'NEXT RETRY', 'STUCK']);

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const left = rows[0].map((h) => TEXT_COLUMNS.has(h));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (left[i] ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** "12 s ago" / "in 3 s" relative to `now`; "-" when unset. */
function when(at: number | undefined, now: number): string {
  if (at === undefined) return '-';
  const s = Math.round((at - now) / 1000);
  return s > 0 ? `in ${s} s` : `${-s} s ago`;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** STATE column: the state, and the health when it is not ok ("RUNNING amber"). */
function stateCell(state: string, health: string | undefined): string {
  return health === undefined || health === 'ok' ? state : `${state} ${health}`;
}

function formatStatus(s: FlowStatus, now = Date.now()): string {
  const comps = [['COMPONENT', 'CLASS', 'STATE', 'RESTARTS', 'IN', 'DONE', 'FAILED', 'INFLIGHT', 'IN/S', 'OUT/S', 'LAST MSG', 'NEXT RETRY']];
  for (const c of s.components) {
    const r = c.rate;
    comps.push([
      c.name,
      c.className,
      stateCell(c.status, c.health),
      String(c.restarts),
      String(c.messages.in),
      String(c.messages.done),
      String(c.messages.failed),
      String(c.inFlight ?? 0),
      r ? `${r.in1s}/${r.in1m}` : '-',
      r ? `${r.out1s}/${r.out1m}` : '-',
      when(c.lastMessageAt, now),
      when(c.nextRetryAt, now),
    ]);
  }
  const links = [['LINK', 'STATE', 'FROM -> TO', 'DEPTH/CAPACITY', 'IN/S', 'OUT/S', 'OLDEST', 'STUCK']];
  for (const l of s.links) {
    const r = l.rate;
    links.push([
      l.name,
      stateCell(l.state, l.health),
      `${l.producers.join(',') || '-'} -> ${l.consumerNames.join(',') || '-'}`,
      `${l.size}/${l.capacity}`,
      r ? `${r.in1s}/${r.in1m}` : '-',
      r ? `${r.out1s}/${r.out1m}` : '-',
      l.size > 0 ? seconds(l.oldestAgeMs ?? 0) : '-',
      l.stuck ?? '-',
    ]);
  }
  const endpoints = s.components
    .filter((c) => c.endpoint !== undefined)
    .map(
      (c) =>
        `  ${c.name}: ${Object.entries(c.endpoint!)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
    );
  const problems = s.components.filter((c) => !c.ready && c.detail).map((c) => `  ${c.name}: ${c.status}: ${c.detail}`);
  const holding = s.components
    .filter((c) => (c.unsettled?.deliveries ?? 0) > 0)
    .map((c) => `  ${c.name}: ${c.unsettled!.deliveries}, oldest ${c.unsettled!.oldestAgeSeconds.toFixed(1)} s`);
  const stuck = (s.stuckLinks ?? []).map((l) => `  ${l.link}: ${l.reason}`);
  const parked = s.components.filter((c) => (c.parked ?? 0) > 0).map((c) => `  ${c.name}: ${c.parked} (xroute parked list --component ${c.name})`);
  const why = [(s.stuckLinks ?? []).length > 0 ? 'a link is stuck' : '', (s.parkedMessages ?? 0) > 0 ? `${s.parkedMessages} messages parked` : '']
    .filter((w) => w !== '')
    .join(', ');
  const verdict = !s.ready ? 'NOT READY' : s.degraded ? `DEGRADED (${why})` : 'ready';
  return [
    `flow ${s.name}: ${verdict}, up ${Math.round(s.uptimeMs / 1000)} s   (rates: per second over 1 s/1 min)`,
    '',
    table(comps),
    '',
    table(links),
    ...(holding.length ? ['', 'deliveries held unsettled until downstream is done:', ...holding] : []),
    ...(endpoints.length ? ['', 'endpoints:', ...endpoints] : []),
    ...(stuck.length ? ['', 'stuck links:', ...stuck] : []),
    ...(parked.length ? ['', 'parked messages:', ...parked] : []),
    ...(problems.length ? ['', 'not ready:', ...problems] : []),
  ].join('\n');
}

/** 0 ready, 1 not ready, 4 ready but degraded (a stuck link, or parked messages). */
export function statusExitCode(s: FlowStatus): number {
  if (!s.ready) return 1;
  return s.degraded ? EXIT_DEGRADED : 0;
}

/**
 * The headers of a request to the admin endpoint: the admin token, read as `xroute run` reads it
 * (--admin-token-file, else XROUTE_ADMIN_TOKEN), when there is one. Throws AdminTokenError.
 */
export function adminRequestHeaders(tokenFile: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const token = readAdminToken(tokenFile, env);
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** An answer that is not 2xx, with the endpoint's own error when it gave one (a 401 says which token is missing). */
export class AdminAnswerError extends XrouteError {
  constructor(
    readonly code: number,
    readonly body: string,
  ) {
    let why = '';
    try {
      const error = (JSON.parse(body) as { error?: unknown }).error;
      if (typeof error === 'string') why = `: ${error}`;
    } catch {
      // not JSON: the code says enough
    }
    super(`HTTP ${code}${why}`);
    this.name = 'AdminAnswerError';
  }
}

/** fetch wraps the socket error (ECONNREFUSED, ...) in `cause`, sometimes in an AggregateError. */
export function networkReason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; errors?: { code?: string }[]; message?: string } }).cause;
  return cause?.code ?? cause?.errors?.find((x) => x.code)?.code ?? cause?.message ?? (e as Error).message;
}

export interface StatusOptions {
  admin?: string;
  /** --admin-token-file (else XROUTE_ADMIN_TOKEN). */
  tokenFile?: string;
  json: boolean;
  /** Print again every intervalMs, `count` times (forever when undefined). */
  watch?: { intervalMs: number; count?: number };
}

export async function statusCommand(options: StatusOptions, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (options.watch === undefined) return statusOnce(options, io, env, false);
  const { intervalMs, count } = options.watch;
  let code = 0;
  for (let i = 0; count === undefined || i < count; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, intervalMs));
    code = await statusOnce(options, io, env, i > 0);
  }
  return code;
}

async function statusOnce(options: StatusOptions, io: CliIo, env: NodeJS.ProcessEnv, again: boolean): Promise<number> {
  const base = adminBaseUrl(options.admin ?? (env.XROUTE_ADMIN || DEFAULT_ADMIN));
  let status: FlowStatus;
  let text: string;
  try {
    const res = await fetch(`${base}/status`, { headers: adminRequestHeaders(options.tokenFile, env), signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await res.text();
    if (!res.ok) throw new AdminAnswerError(res.status, text);
    status = JSON.parse(text) as FlowStatus;
  } catch (e) {
    io.stderr.write(`xroute status: cannot read ${base}/status: ${networkReason(e)}\n`);
    return 2;
  }
  // Watching a terminal: clear it and redraw; into a pipe or file: one block after another.
  const tty = (io.stdout as { isTTY?: boolean }).isTTY === true;
  if (again) io.stdout.write(tty && !options.json ? '\x1b[2J\x1b[H' : options.json ? '' : '\n');
  io.stdout.write(options.json ? (again ? JSON.stringify(status) + '\n' : text) : formatStatus(status) + '\n');
  return statusExitCode(status);
}

/** --interval and --count of --watch, or the reason they are wrong. */
export function watchOptions(interval: unknown, count: unknown): { intervalMs: number; count?: number } | string {
  const seconds = typeof interval === 'string' ? Number(interval) : 2;
  if (!Number.isFinite(seconds) || seconds <= 0) return `--interval ${String(interval)}: expected a number of seconds above 0, e.g. 2`;
  if (count === undefined) return { intervalMs: Math.round(seconds * 1000) };
  const n = Number(count);
  if (!Number.isInteger(n) || n < 1) return `--count ${String(count)}: expected a whole number of prints, 1 or more`;
  return { intervalMs: Math.round(seconds * 1000), count: n };
}
