/**
 * `xroute status [--admin URL] [--json]`: reads /status of a running `xroute run --admin` and prints a
 * table of components and links (or the JSON as is). Exit 0 when ready, 1 when reachable but not ready,
 * 2 when unreachable, so scripts and health checks can use it directly.
 */
import { CliIo } from './commands';
import type { FlowStatus } from '../runtime/flow';

export const DEFAULT_ADMIN = '127.0.0.1:9090';
const TIMEOUT_MS = 5000;

/** Accepts a URL or HOST:PORT; the admin endpoint speaks plain http. */
export function adminBaseUrl(text: string): string {
  const t = text.trim().replace(/\/+$/, '');
  return /^https?:\/\//i.test(t) ? t : `http://${t.startsWith(':') ? '127.0.0.1' + t : t}`;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 || i === 1 || i === 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd()).join('\n');
}

export function formatStatus(s: FlowStatus): string {
  const comps = [['COMPONENT', 'CLASS', 'STATE', 'RESTARTS', 'IN', 'DONE', 'FAILED']];
  for (const c of s.components) comps.push([c.name, c.className, c.status, String(c.restarts), String(c.messages.in), String(c.messages.done), String(c.messages.failed)]);
  const links = [['LINK', 'STATE', 'FROM -> TO', 'DEPTH/CAPACITY']];
  for (const l of s.links) links.push([l.name, l.state, `${l.producers.join(',') || '-'} -> ${l.consumerNames.join(',') || '-'}`, `${l.size}/${l.capacity}`]);
  const problems = s.components.filter((c) => !c.ready && c.detail).map((c) => `  ${c.name}: ${c.status}: ${c.detail}`);
  const holding = s.components.filter((c) => (c.unsettled?.deliveries ?? 0) > 0).map((c) => `  ${c.name}: ${c.unsettled!.deliveries}, oldest ${c.unsettled!.oldestAgeSeconds.toFixed(1)} s`);
  return [
    `flow ${s.name}: ${s.ready ? 'ready' : 'NOT READY'}, up ${Math.round(s.uptimeMs / 1000)} s`,
    '',
    table(comps),
    '',
    table(links),
    ...(holding.length ? ['', 'deliveries held unsettled until downstream is done:', ...holding] : []),
    ...(problems.length ? ['', 'not ready:', ...problems] : []),
  ].join('\n');
}

/** fetch wraps the socket error (ECONNREFUSED, ...) in `cause`, sometimes in an AggregateError. */
function networkReason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; errors?: { code?: string }[]; message?: string } }).cause;
  return cause?.code ?? cause?.errors?.find((x) => x.code)?.code ?? cause?.message ?? (e as Error).message;
}

export async function statusCommand(options: { admin?: string; json: boolean }, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const base = adminBaseUrl(options.admin ?? (env.XROUTE_ADMIN || DEFAULT_ADMIN));
  let status: FlowStatus;
  let text: string;
  try {
    const res = await fetch(`${base}/status`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await res.text();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    status = JSON.parse(text) as FlowStatus;
  } catch (e) {
    io.stderr.write(`xroute status: cannot read ${base}/status: ${networkReason(e)}\n`);
    return 2;
  }
  io.stdout.write(options.json ? text : formatStatus(status) + '\n');
  return status.ready ? 0 : 1;
}
