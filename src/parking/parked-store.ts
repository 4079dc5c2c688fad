/**
 * A parking place or dead-letter queue as the `xroute parked` commands and the admin routes /parked see it
 * (docs/operations.md "Parked and dead-lettered messages"): list and show without consuming, retry selected
 * messages home (at-least-once: published with confirm, removed only then) and drop selected ones. One
 * interface for RabbitMQ queues (parked-rabbitmq.ts) and ActiveMQ queues over AMQP 1.0 (parked-activemq.ts).
 */
import { XrouteError } from '../foundation/xroute-error';
import { createHash } from 'crypto';
import { MessageOrigin } from './parked-origin';

export interface ParkedMessage {
  /** Its parking id (x-xroute-parked-id), else its message id, else a digest of its body and headers. */
  readonly id: string;
  readonly origin: MessageOrigin;
  readonly body: Buffer;
  /** The broker message's properties (content type, message id, timestamp, ...), without its headers. */
  readonly properties: Readonly<Record<string, unknown>>;
  /** Application headers (RabbitMQ) or application properties (AMQP 1.0). */
  readonly headers: Readonly<Record<string, unknown>>;
}

/** Which messages a retry or drop acts on: those ids, or every one (`all`), at most `limit` of them. */
export interface Selection {
  readonly ids?: readonly string[];
  readonly all?: boolean;
  readonly limit?: number;
}

/** What a retry or a drop did, message by message counted (printed as the receipt). */
export interface Receipt {
  /** Messages looked at (the parking place's content when the operation started, or up to the limit). */
  readonly examined: number;
  readonly selected: number;
  /** Retry: delivered (confirmed) and removed from the parking place. */
  readonly delivered: number;
  /** Drop: removed. */
  readonly dropped: number;
  /** Selected but left parked: unroutable, refused by the broker, or without an origin and no --to. */
  readonly leftParked: number;
  /** Ids asked for and not found. */
  readonly notFound: readonly string[];
  /** Why messages were left parked, with counts. */
  readonly problems: Readonly<Record<string, number>>;
  /** Why the operation stopped before the end (a signal, a lost connection): what it had not reached is still parked. */
  readonly interrupted?: string;
}

export interface RetryOptions {
  /** Where to send the messages instead of their origin: a queue (RabbitMQ) or an address (ActiveMQ). */
  readonly to?: string;
  /** Publishes awaiting their confirm before the originals are removed (the most a crash can duplicate). */
  readonly window?: number;
  /** Called after each window with the counts so far. */
  readonly progress?: (receipt: Receipt) => void;
  /** At most this many messages sent per second (an origin recovering from an incident is not flooded). */
  readonly ratePerSecond?: number;
  /** Stops the retry after the window in progress (SIGINT): the receipt says so, nothing is lost. */
  readonly signal?: AbortSignal;
}

/** Paces sends to `ratePerSecond`: the n-th send waits until n / rate seconds after the first. */
export class Pacer {
  private readonly started = Date.now();
  private sent = 0;

  constructor(private readonly ratePerSecond: number | undefined) {}

  async next(): Promise<void> {
    const rate = this.ratePerSecond;
    if (rate === undefined || rate <= 0) return;
    const wait = this.started + (this.sent++ * 1000) / rate - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

export interface ParkedStore {
  /** "rabbitmq queue xroute.parked.rcv on amqp://host:5672/", for messages. */
  readonly place: string;
  /** Up to `limit` messages, oldest first, without consuming them. */
  list(limit: number): Promise<ParkedMessage[]>;
  show(id: string): Promise<ParkedMessage | undefined>;
  retry(selection: Selection, options?: RetryOptions): Promise<Receipt>;
  drop(selection: Selection, signal?: AbortSignal): Promise<Receipt>;
  close(): Promise<void>;
}

/** The most messages one list or operation looks at: a parking place can hold millions. */
export const MAX_EXAMINED = 100_000;
export const DEFAULT_RETRY_WINDOW = 100;

/** A message's id where it carries none: a digest of its body and headers, stable while it stays parked. */
export function digestId(body: Buffer, headers: Readonly<Record<string, unknown>>): string {
  const h = createHash('sha1');
  h.update(body);
  h.update(JSON.stringify(headers, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
  return `sha1:${h.digest('hex').slice(0, 16)}`;
}

/** Decides message by message whether a selection takes it (ids, all, limit). */
export class Selector {
  private readonly wanted: Set<string> | undefined;
  private readonly found = new Set<string>();
  private taken = 0;

  constructor(private readonly selection: Selection) {
    this.wanted = selection.ids !== undefined ? new Set(selection.ids) : undefined;
  }

  takes(id: string): boolean {
    if (this.selection.limit !== undefined && this.taken >= this.selection.limit) return false;
    const yes = this.wanted !== undefined ? this.wanted.has(id) : this.selection.all === true || this.selection.limit !== undefined;
    if (!yes) return false;
    this.found.add(id);
    this.taken++;
    return true;
  }

  /** Nothing more can be taken: every id found, or the limit reached. */
  get satisfied(): boolean {
    if (this.selection.limit !== undefined && this.taken >= this.selection.limit) return true;
    return this.wanted !== undefined && this.found.size === this.wanted.size;
  }

  notFound(): string[] {
    return this.wanted === undefined ? [] : [...this.wanted].filter((id) => !this.found.has(id));
  }
}

/** A selection naming nothing would act on nothing: refused with the reason. */
export class EmptySelectionError extends XrouteError {
  constructor() {
    super('say which messages: their ids, --all, or --limit N');
    this.name = 'EmptySelectionError';
  }
}

export function checkSelection(s: Selection): void {
  if ((s.ids === undefined || s.ids.length === 0) && s.all !== true && s.limit === undefined) throw new EmptySelectionError();
}

/** Counts of a receipt as it is built. */
export class ReceiptTally {
  examined = 0;
  selected = 0;
  delivered = 0;
  dropped = 0;
  leftParked = 0;
  readonly problems: Record<string, number> = {};
  interrupted: string | undefined;

  leave(why: string, n = 1): void {
    this.leftParked += n;
    this.problems[why] = (this.problems[why] ?? 0) + n;
  }

  /** Records why the operation ends early; true when it must stop (the signal fired). */
  stopped(signal: AbortSignal | undefined): boolean {
    if (signal?.aborted !== true) return false;
    this.interrupted ??= `stopped (${String(signal.reason ?? 'aborted')})`;
    return true;
  }

  receipt(selector: Selector): Receipt {
    return {
      examined: this.examined,
      selected: this.selected,
      delivered: this.delivered,
      dropped: this.dropped,
      leftParked: this.leftParked,
      notFound: selector.notFound(),
      problems: { ...this.problems },
      ...(this.interrupted !== undefined ? { interrupted: this.interrupted } : {}),
    };
  }
}

/** A parked message as JSON (admin routes, `--json`): the body as text when it is UTF-8, else base64. */
export interface ParkedMessageJson {
  readonly id: string;
  readonly origin: MessageOrigin;
  readonly body: string;
  readonly bodyEncoding: 'utf8' | 'base64';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
}

export function parkedJson(m: ParkedMessage): ParkedMessageJson {
  const text = m.body.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(m.body);
  const plain = (o: Readonly<Record<string, unknown>>) =>
    JSON.parse(JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))) as Record<string, unknown>;
  return {
    id: m.id,
    origin: m.origin,
    body: isText ? text : m.body.toString('base64'),
    bodyEncoding: isText ? 'utf8' : 'base64',
    properties: plain(m.properties),
    headers: plain(m.headers),
  };
}
