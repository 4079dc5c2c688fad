/**
 * An ActiveMQ queue (ActiveMQ.DLQ, or any queue) over AMQP 1.0 as a parking place for `xroute parked`.
 * - list/show browse: a receiver link with distribution-mode "copy" and drained credit reads the queue without
 *   consuming it (verified on ActiveMQ 5.17: the messages stay, in order, with no redelivery count).
 * - retry/drop consume: a "move" link reads the queue in order; a selected message is sent to its origin (its AMQP
 *   `to`, which JMS clients set and ActiveMQ keeps when it dead-letters; or --to) and accepted from the queue only
 *   once the broker accepted the send, one message at a time (a crash leaves it parked, or delivered and parked,
 *   never lost). Messages not selected before the last selected one are held unsettled and released when the link
 *   closes (ActiveMQ counts that as a redelivery of each); --all and --limit take the head of the queue and hold none.
 * Addresses are ActiveMQ's: `queue://NAME` (a bare NAME is a queue).
 */
import rhea = require('rhea');
import type { Connection, Delivery, Message as RheaMessage, Receiver, Sender } from 'rhea';
import { ParkedMessage, Pacer, ParkedStore, Receipt, ReceiptTally, RetryOptions, Selection, Selector, checkSelection, digestId } from '../parking/parked-store';
import { ACTIVEMQ_ORIGIN_PROPERTIES, PARKED_HEADERS, headersForRetry, originOf } from '../parking/parked-origin';
import { redactUri } from './amqp091-connection';
import { ActiveMqParkedError } from './amqp10-errors';

/** How long an operation waits for the broker to answer a step (attach, drain, accept). */
const STEP_TIMEOUT_MS = 10_000;
/** Credit asked for at a time while reading. */
const CREDIT = 100;

/** "queue://X" for a bare name; an address with a scheme as given. */
function address(name: string): string {
  return /^[a-z-]+:\/\//i.test(name) ? name : `queue://${name}`;
}

function parkedFrom(m: RheaMessage): ParkedMessage {
  const { body, application_properties, message_annotations, ...rest } = m as RheaMessage & { message_annotations?: Record<string, unknown> };
  const headers: Record<string, unknown> = { ...(application_properties ?? {}) };
  // ActiveMQ names no original destination for a message that came in over AMQP; the `to` that JMS clients set does.
  const annotations = message_annotations ?? {};
  for (const p of ACTIVEMQ_ORIGIN_PROPERTIES) if (annotations[p] !== undefined && headers[p] === undefined) headers[p] = annotations[p];
  if (headers[ACTIVEMQ_ORIGIN_PROPERTIES[0]] === undefined && typeof rest.to === 'string' && headers[PARKED_HEADERS.queue] === undefined)
    headers[ACTIVEMQ_ORIGIN_PROPERTIES[0]] = rest.to;
  const content = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body ?? null), 'utf8');
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) properties[k] = v;
  const given = headers[PARKED_HEADERS.id];
  const id = typeof given === 'string' ? given : m.message_id !== undefined ? String(m.message_id) : digestId(content, headers);
  return { id, origin: originOf(headers), body: content, properties, headers: application_properties ?? {} };
}

/** Messages of a receiver link as an async sequence, credit asked for in drained batches of CREDIT. */
class LinkReader {
  private readonly buffered: { message: RheaMessage; delivery: Delivery }[] = [];
  private wake: (() => void) | undefined;
  /** A drained batch is asked for and its drain not answered yet. */
  private pending = false;
  private drained = false;
  /** Messages received for the current batch: a full batch may have more behind it. */
  private received = 0;
  private failed: Error | undefined;

  constructor(
    readonly receiver: Receiver,
    private readonly place: string,
  ) {
    receiver.on('message', (ctx) => {
      this.received++;
      this.buffered.push({ message: ctx.message as RheaMessage, delivery: ctx.delivery as Delivery });
      this.poke();
    });
    receiver.on('receiver_drained', () => {
      this.pending = false;
      this.drained = true;
      this.poke();
    });
    receiver.on('receiver_error', (ctx) => {
      this.failed = new ActiveMqParkedError(place, 'read', String(ctx.receiver?.error ?? 'link error'), ctx.receiver?.error);
      this.poke();
    });
  }

  private poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** The next message, or undefined when the queue has no more. */
  async next(): Promise<{ message: RheaMessage; delivery: Delivery } | undefined> {
    for (;;) {
      if (this.failed) throw this.failed;
      const b = this.buffered.shift();
      if (b) return b;
      if (!this.pending) {
        if (this.drained && this.received < CREDIT) return undefined;
        this.pending = true;
        this.drained = false;
        this.received = 0;
        this.receiver.drain = true;
        this.receiver.add_credit(CREDIT);
      }
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new ActiveMqParkedError(this.place, 'read', `no answer in ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }
}

function once<T>(place: string, step: string, register: (resolve: (v: T) => void, reject: (e: Error) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new ActiveMqParkedError(place, step, `no answer in ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
    register(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

export class ActiveMqParkedStore implements ParkedStore {
  readonly place: string;
  private readonly senders = new Map<string, Sender>();

  private constructor(
    private readonly conn: Connection,
    readonly queue: string,
    where: string,
  ) {
    this.place = `ActiveMQ queue "${address(queue).replace(/^queue:\/\//, '')}" on ${where}`;
  }

  /** `url`: amqp://[user:password@]host:port (AMQP 1.0). */
  static open(url: string, queue: string): Promise<ActiveMqParkedStore> {
    const u = new URL(url);
    const login = u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : {};
    return ActiveMqParkedStore.connect({ host: u.hostname, port: Number(u.port || 5672), ...login }, queue, redactUri(url));
  }

  /** A broker given by its parts (a JMS receiver's own endpoint); `where` names it in messages, without a password. */
  static async connect(at: { host: string; port: number; username?: string; password?: string }, queue: string, where: string): Promise<ActiveMqParkedStore> {
    const container = rhea.create_container();
    const conn = container.connect({
      host: at.host,
      port: at.port,
      ...(at.username !== undefined ? { username: at.username, password: at.password } : {}),
      reconnect: false,
    });
    conn.on('error', () => undefined);
    await once<void>(`ActiveMQ on ${where}`, 'connect', (resolve, reject) => {
      conn.once('connection_open', () => resolve());
      conn.once('connection_error', (ctx) =>
        reject(new ActiveMqParkedError(where, 'connect', String(ctx.connection.error ?? 'refused'), ctx.connection.error)),
      );
      conn.once('disconnected', (ctx) => reject(new ActiveMqParkedError(where, 'connect', String(ctx.error ?? 'disconnected'), ctx.error)));
    });
    return new ActiveMqParkedStore(conn, queue, where);
  }

  private async reader(mode: 'copy' | 'move'): Promise<LinkReader> {
    const receiver = this.conn.open_receiver({ source: { address: address(this.queue), distribution_mode: mode }, autoaccept: false, credit_window: 0 });
    await once<void>(this.place, 'attach', (resolve, reject) => {
      receiver.once('receiver_open', () => resolve());
      receiver.once('receiver_error', (ctx) =>
        reject(new ActiveMqParkedError(this.place, 'attach', String(ctx.receiver?.error ?? 'refused'), ctx.receiver?.error)),
      );
    });
    return new LinkReader(receiver, this.place);
  }

  private async browse(each: (m: ParkedMessage) => boolean): Promise<void> {
    const r = await this.reader('copy');
    try {
      for (let x = await r.next(); x !== undefined; x = await r.next()) if (!each(parkedFrom(x.message))) return;
    } finally {
      r.receiver.close();
    }
  }

  async list(limit: number): Promise<ParkedMessage[]> {
    const out: ParkedMessage[] = [];
    await this.browse((m) => {
      out.push(m);
      return out.length < limit;
    });
    return out;
  }

  async show(id: string): Promise<ParkedMessage | undefined> {
    let found: ParkedMessage | undefined;
    await this.browse((m) => {
      if (m.id === id) found = m;
      return found === undefined;
    });
    return found;
  }

  private async sender(to: string): Promise<Sender> {
    let s = this.senders.get(to);
    if (s !== undefined) return s;
    const created = this.conn.open_sender({ target: { address: address(to) } });
    await once<void>(this.place, `attach to ${to}`, (resolve, reject) => {
      created.once('sendable', () => resolve());
      created.once('sender_error', (ctx) =>
        reject(new ActiveMqParkedError(this.place, `attach to ${to}`, String(ctx.sender?.error ?? 'refused'), ctx.sender?.error)),
      );
    });
    s = created;
    this.senders.set(to, s);
    return s;
  }

  /** Sends and resolves true once the broker accepted it, false when it refused it. */
  private async send(to: string, raw: RheaMessage): Promise<boolean> {
    const sender = await this.sender(to);
    const out = { ...raw, application_properties: headersForRetry(raw.application_properties), to: address(to) } as RheaMessage;
    return once<boolean>(this.place, `send to ${to}`, (resolve) => {
      const d = sender.send(out);
      const settled = (ctx: { delivery?: Delivery }, ok: boolean) => {
        if (ctx.delivery !== d) return;
        sender.removeListener('accepted', onAccepted);
        sender.removeListener('rejected', onRefused);
        sender.removeListener('released', onRefused);
        sender.removeListener('modified', onRefused);
        resolve(ok);
      };
      const onAccepted = (ctx: { delivery?: Delivery }) => settled(ctx, true);
      const onRefused = (ctx: { delivery?: Delivery }) => settled(ctx, false);
      sender.on('accepted', onAccepted);
      sender.on('rejected', onRefused);
      sender.on('released', onRefused);
      sender.on('modified', onRefused);
    });
  }

  private async consume(
    selection: Selection,
    act: (m: ParkedMessage, raw: RheaMessage, delivery: Delivery, tally: ReceiptTally) => Promise<void>,
    progress?: (r: Receipt) => void,
    signal?: AbortSignal,
  ): Promise<Receipt> {
    checkSelection(selection);
    const selector = new Selector(selection);
    const tally = new ReceiptTally();
    const r = await this.reader('move');
    try {
      for (let x = await r.next(); x !== undefined && !selector.satisfied && !tally.stopped(signal); x = await r.next()) {
        tally.examined++;
        const m = parkedFrom(x.message);
        if (!selector.takes(m.id)) continue; // held unsettled: released when the link closes
        tally.selected++;
        await act(m, x.message, x.delivery, tally);
        progress?.(tally.receipt(selector));
      }
    } catch (e) {
      tally.interrupted ??= `interrupted: ${(e as Error).message}`;
    } finally {
      r.receiver.close();
    }
    return tally.receipt(selector);
  }

  retry(selection: Selection, options: RetryOptions = {}): Promise<Receipt> {
    const pacer = new Pacer(options.ratePerSecond);
    return this.consume(
      selection,
      async (m, raw, delivery, tally) => {
        const target = options.to ?? m.origin.queue;
        if (target === undefined) {
          tally.leave('origin unknown (give --to)');
          return;
        }
        await pacer.next();
        if (await this.send(target, raw)) {
          delivery.accept();
          tally.delivered++;
        } else tally.leave('refused by the broker');
      },
      options.progress,
      options.signal,
    );
  }

  drop(selection: Selection, signal?: AbortSignal): Promise<Receipt> {
    return this.consume(
      selection,
      async (_m, _raw, delivery, tally) => {
        delivery.accept();
        tally.dropped++;
      },
      undefined,
      signal,
    );
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 2000);
      this.conn.once('connection_close', () => {
        clearTimeout(t);
        resolve();
      });
      this.conn.close();
    });
  }
}
