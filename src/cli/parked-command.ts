/**
 * `xroute parked list|show|retry|drop`: the messages an xroute receiver parked, or a broker's dead-letter queue
 * (docs/operations.md "Parked and dead-lettered messages", docs/cli.md). Either straight at the broker
 * (--url and --queue; --broker activemq for AMQP 1.0) or through a running flow's admin endpoint (--admin and
 * --component), whose routes under /parked do the same operations with the receiver's own connection.
 */
import * as amqp from 'amqplib';
import { CliIo } from './commands';
import { adminBaseUrl, adminRequestHeaders, networkReason } from './status-command';
import { redactUri } from '../transports/amqp091-connection';
import { describeOrigin } from '../parking/parked-origin';
import { ParkedMessageJson, ParkedStore, Receipt, RetryOptions, Selection, parkedJson } from '../parking/parked-store';
import { RabbitParkedStore } from '../transports/parked-rabbitmq';
import { ActiveMqParkedStore } from '../transports/parked-activemq';
import { XrouteError } from '../foundation/xroute-error';

export const PARKED_ACTIONS = ['list', 'show', 'retry', 'drop'] as const;
type ParkedAction = (typeof PARKED_ACTIONS)[number];

export interface ParkedCommandOptions {
  readonly action: ParkedAction;
  readonly ids: readonly string[];
  readonly url?: string;
  readonly queue?: string;
  readonly broker: 'rabbitmq' | 'activemq';
  readonly admin?: string;
  readonly component?: string;
  /** Through the admin endpoint: the admin token's file (else XROUTE_ADMIN_TOKEN), as `xroute run` reads it. */
  readonly tokenFile?: string;
  readonly all: boolean;
  readonly limit?: number;
  readonly to?: string;
  readonly json: boolean;
  /** retry: publishes awaiting their confirm before the originals are removed. */
  readonly window?: number;
  /** retry: at most this many messages per second. */
  readonly rate?: number;
  /** Stops a retry or drop after the window in progress (SIGINT, SIGTERM); its receipt says so. */
  readonly signal?: AbortSignal;
}

/** Exit codes: 0 done, 1 the operation left selected messages parked, was interrupted or found nothing to show, 2 usage/connection. */
const EXIT_INCOMPLETE = 1;
const EXIT_FAILED = 2;
/** How many messages `list` shows when --limit is not given. */
const DEFAULT_LIST_LIMIT = 100;

/** What either way of reaching a parking place answers, as JSON. */
interface ParkedAccess {
  readonly place: string;
  list(limit: number): Promise<ParkedMessageJson[]>;
  show(id: string): Promise<ParkedMessageJson | undefined>;
  retry(selection: Selection, options: RetryOptions): Promise<Receipt>;
  drop(selection: Selection, signal?: AbortSignal): Promise<Receipt>;
  close(): Promise<void>;
}

/** The reason an option set is wrong, or undefined. */
export function checkParkedOptions(o: ParkedCommandOptions): string | undefined {
  const direct = o.url !== undefined || o.queue !== undefined;
  if (direct && o.admin !== undefined) return 'give either --url and --queue (straight to the broker) or --admin and --component, not both';
  if (direct && (o.url === undefined || o.queue === undefined)) return 'straight to the broker needs both --url and --queue';
  if (!direct && o.component === undefined)
    return 'say where the messages are: --url URL --queue NAME, or --component NAME (through --admin, default XROUTE_ADMIN or 127.0.0.1:9090)';
  if (o.action === 'show' && o.ids.length !== 1) return 'show takes one message id';
  if ((o.action === 'retry' || o.action === 'drop') && o.ids.length === 0 && !o.all && o.limit === undefined)
    return `${o.action}: say which messages: their ids, --all, or --limit N`;
  if (o.action === 'list' && o.ids.length > 0) return 'list takes no ids (use show ID)';
  if ((o.to !== undefined || o.window !== undefined || o.rate !== undefined) && o.action !== 'retry') return '--to, --window and --rate are for retry';
  return undefined;
}

function selectionOf(o: ParkedCommandOptions): Selection {
  return { ...(o.ids.length > 0 ? { ids: o.ids } : {}), ...(o.all ? { all: true } : {}), ...(o.limit !== undefined ? { limit: o.limit } : {}) };
}

async function directAccess(o: ParkedCommandOptions): Promise<ParkedAccess> {
  const url = o.url as string;
  const queue = o.queue as string;
  const store: ParkedStore =
    o.broker === 'activemq' ? await ActiveMqParkedStore.open(url, queue) : await RabbitParkedStore.open(() => amqp.connect(url), queue, redactUri(url));
  return {
    place: store.place,
    list: async (limit) => (await store.list(limit)).map(parkedJson),
    show: async (id) => {
      const m = await store.show(id);
      return m === undefined ? undefined : parkedJson(m);
    },
    retry: (selection, options) => store.retry(selection, options),
    drop: (selection, signal) => store.drop(selection, signal),
    close: () => store.close(),
  };
}

/** HTTP failures of the admin routes, with the route's own error text. */
class AdminRouteError extends XrouteError {
  constructor(
    readonly url: string,
    readonly status: number,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(status === 0 ? `${url}: ${detail}` : `${url}: HTTP ${status}: ${detail}`, options);
    this.name = 'AdminRouteError';
  }
}

/** The `error` of a JSON error body, else the body itself when there is one. */
function errorText(body: string): string | undefined {
  try {
    const e = (JSON.parse(body) as { error?: unknown }).error;
    if (typeof e === 'string') return e;
  } catch {
    // not JSON: the text as it came
  }
  return body.trim() === '' ? undefined : body.trim().slice(0, 500);
}

function adminAccess(o: ParkedCommandOptions, env: NodeJS.ProcessEnv): ParkedAccess {
  const base = `${adminBaseUrl(o.admin ?? (env.XROUTE_ADMIN || '127.0.0.1:9090'))}/parked/${encodeURIComponent(o.component as string)}`;
  const call = async <T>(path: string, body?: unknown): Promise<T | undefined> => {
    const url = base + path;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...adminRequestHeaders(o.tokenFile, env) };
    let res: Response;
    try {
      res = await fetch(url, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
    } catch (e) {
      throw new AdminRouteError(url, 0, `cannot reach the admin endpoint: ${networkReason(e)}`, { cause: e });
    }
    const text = await res.text();
    if (res.status === 404 && path.startsWith('/messages/')) return undefined;
    if (!res.ok)
      throw new AdminRouteError(
        url,
        res.status,
        errorText(text) ??
          (res.status === 401 || res.status === 403 ? 'refused: give the admin token (--admin-token-file or XROUTE_ADMIN_TOKEN)' : res.statusText),
      );
    return JSON.parse(text) as T;
  };
  return {
    place: `the parking place of ${o.component as string} (through ${base})`,
    list: async (limit) => (await call<ParkedMessageJson[]>(`/messages?limit=${limit}`)) ?? [],
    show: (id) => call<ParkedMessageJson>(`/messages/${encodeURIComponent(id)}`),
    retry: async (selection, options) =>
      (await call<Receipt>('/retry', {
        ...selection,
        ...(options.to !== undefined ? { to: options.to } : {}),
        ...(options.window !== undefined ? { window: options.window } : {}),
        ...(options.ratePerSecond !== undefined ? { rate: options.ratePerSecond } : {}),
      })) as Receipt,
    drop: async (selection) => (await call<Receipt>('/drop', selection)) as Receipt,
    close: async () => undefined,
  };
}

function age(at: number | undefined, now: number): string {
  if (at === undefined) return '-';
  const s = Math.max(0, Math.round((now - at) / 1000));
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

/** One line per message: id, origin, reason, age, attempts. */
export function formatList(messages: readonly ParkedMessageJson[], now = Date.now()): string {
  const rows = [['ID', 'ORIGIN', 'REASON', 'AGE', 'ATTEMPTS']];
  for (const m of messages) {
    const o = m.origin;
    rows.push([
      m.id,
      describeOrigin(o),
      (o.reason ?? '-').replace(/\s+/g, ' ').slice(0, 60),
      age(o.at, now),
      o.attempts === undefined ? '-' : String(o.attempts),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === 4 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function formatReceipt(action: 'retry' | 'drop', r: Receipt): string {
  const done = action === 'retry' ? `delivered ${r.delivered}` : `dropped ${r.dropped}`;
  const lines = [`${action}: examined ${r.examined}, selected ${r.selected}, ${done}, left parked ${r.leftParked}`];
  for (const [why, n] of Object.entries(r.problems)) lines.push(`  left parked: ${n} ${why}`);
  if (r.notFound.length > 0) lines.push(`  not found: ${r.notFound.join(' ')}`);
  if (r.interrupted !== undefined) lines.push(`  ${r.interrupted}: the messages not reached are still parked`);
  return lines.join('\n');
}

export async function parkedCommand(o: ParkedCommandOptions, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const problem = checkParkedOptions(o);
  if (problem !== undefined) {
    io.stderr.write(`xroute parked: ${problem}\n`);
    return EXIT_FAILED;
  }
  let access: ParkedAccess;
  try {
    access = o.admin !== undefined || o.url === undefined ? adminAccess(o, env) : await directAccess(o);
  } catch (e) {
    io.stderr.write(`xroute parked: ${(e as Error).message}\n`);
    return EXIT_FAILED;
  }
  const out = (text: string) => io.stdout.write(text + '\n');
  try {
    switch (o.action) {
      case 'list': {
        const messages = await access.list(o.limit ?? DEFAULT_LIST_LIMIT);
        out(o.json ? JSON.stringify(messages) : messages.length === 0 ? `nothing parked in ${access.place}` : formatList(messages));
        return 0;
      }
      case 'show': {
        const m = await access.show(o.ids[0]);
        if (m === undefined) {
          io.stderr.write(`xroute parked: no message ${o.ids[0]} in ${access.place}\n`);
          return EXIT_INCOMPLETE;
        }
        out(JSON.stringify(m, null, 2));
        return 0;
      }
      case 'retry':
      case 'drop': {
        const selection = selectionOf(o);
        const receipt =
          o.action === 'retry'
            ? await access.retry(selection, {
                to: o.to,
                window: o.window,
                ratePerSecond: o.rate,
                signal: o.signal,
                progress: (r) => io.stderr.write(`  ... delivered ${r.delivered} of ${r.selected} selected\n`),
              })
            : await access.drop(selection, o.signal);
        out(o.json ? JSON.stringify(receipt) : formatReceipt(o.action, receipt));
        return receipt.leftParked > 0 || receipt.notFound.length > 0 || receipt.interrupted !== undefined ? EXIT_INCOMPLETE : 0;
      }
    }
  } catch (e) {
    io.stderr.write(`xroute parked ${o.action}: ${(e as Error).message}\n`);
    return EXIT_FAILED;
  } finally {
    await access.close();
  }
}
