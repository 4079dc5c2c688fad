/**
 * One AMQP 1.0 connection (rhea) with a promise-based API, shared by every JMS-over-AMQP component.
 *
 * rhea's own reconnect is switched off: reconnection is src/runtime/reconnector.ts's job, which opens a new
 * Amqp10Connection per attempt. This module turns rhea's events into: open() that resolves only when the
 * broker really accepted the connection (a refused open still fires connection_open, with
 * amqp:connection-establishment-failed), link openings that resolve only when the broker really attached
 * the link (a refused attach still fires receiver_open, with a null source), and one `lost` notification
 * for whatever breaks an open connection. Every rhea error event has a listener here, because an unhandled
 * one is thrown on the container and kills the process.
 *
 * Liveness: the idle timeout goes to the broker in the open frame (it then sends at least an empty frame
 * every half of it), and this module declares the connection lost once nothing at all was received for that
 * long (src/runtime/silence-watch.ts); rhea's own check waits twice the timeout, so it never decides.
 */
import rhea = require('rhea');
import type { Socket } from 'net';
import { readFileSync } from 'fs';
import {
  Amqp10AuthError,
  Amqp10ConnectError,
  Amqp10ConnectionLostError,
  Amqp10LinkError,
  RheaInternalsError,
  connectFailure,
  protocolFailure,
  refusedConnection,
  refusedLink,
} from './amqp10-errors';
import { IncomingDeliveries, IncomingDelivery } from './amqp10-incoming-deliveries';
import { TlsSettings, tlsSocketOptions } from './tls';
import { installRheaConsoleFilter } from './rhea-console-filter';
import { SilenceWatch } from '../runtime/silence-watch';

installRheaConsoleFilter();

export interface Amqp10Endpoint {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  readonly username?: string;
  readonly password?: string;
  /** RabbitMQ virtual host (sent as open hostname "vhost:<name>" when not "/"). */
  readonly vhost?: string;
  /** CAFile, client certificate, ServerName, RejectUnauthorized (when `tls`); absent = system CAs, verified. */
  readonly tlsSettings?: TlsSettings;
}

export interface OpenOptions {
  readonly endpoint: Amqp10Endpoint;
  /** The AMQP container id = the JMS ClientID (durable subscriptions are keyed by it). */
  readonly containerId?: string;
  /**
   * Liveness: the broker must send something within this many ms, or the connection is declared lost
   * (default DEFAULT_IDLE_TIMEOUT_MS; 0 = no heartbeat and no watch). Set by the component's IdleTimeout.
   */
  readonly idleTimeoutMs?: number;
  /** Give up an attempt after this many ms (default 10 000). */
  readonly connectTimeoutMs?: number;
}

/** The default idle timeout: a silent partition is detected within 8 s (docs/operations.md). */
export const DEFAULT_IDLE_TIMEOUT_MS = 8_000;

export function endpointLabel(e: Amqp10Endpoint): string {
  return `${e.tls ? 'amqps' : 'amqp'}://${e.host}:${e.port}`;
}

type LostListener = (error: Error) => void;

export class Amqp10Connection {
  readonly label: string;
  private lostListeners: LostListener[] = [];
  private lostError: Error | undefined;
  private closing = false;
  private corked = false;
  private watch: SilenceWatch | undefined;
  /** Links this side is closing on purpose: their close events are not a loss. */
  private readonly closingLinks = new WeakSet<object>();

  private constructor(
    readonly endpoint: Amqp10Endpoint,
    private readonly container: rhea.Container,
    readonly raw: rhea.Connection,
  ) {
    this.label = endpointLabel(endpoint);
  }

  /** Opens a connection; rejects with Amqp10AuthError, or Amqp10ConnectError for anything else. */
  static open(options: OpenOptions): Promise<Amqp10Connection> {
    const e = options.endpoint;
    const label = endpointLabel(e);
    const container = rhea.create_container(options.containerId !== undefined ? { id: options.containerId } : {});
    const connectOptions: Record<string, unknown> = {
      host: e.host,
      port: e.port,
      reconnect: false,
      idle_time_out: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      // As Qpid JMS does. rhea turns Nagle's algorithm off only once a receiver attaches: on a connection that
      // only sends, a send otherwise waits behind the acknowledgement of the one before.
      tcp_no_delay: true,
    };
    if (e.tls) {
      connectOptions.transport = 'tls';
      // rhea sends the host as SNI when no server name is given, even an IP address (RFC 6066 forbids it;
      // Node warns): an empty name makes Node check the certificate against the host itself.
      Object.assign(connectOptions, { servername: '' }, tlsSocketOptions(e.tlsSettings ?? { rejectUnauthorized: true }, e.host));
    }
    if (e.username !== undefined) connectOptions.username = e.username;
    if (e.password !== undefined) connectOptions.password = e.password;
    if (options.containerId !== undefined) connectOptions.container_id = options.containerId;
    if (e.vhost !== undefined && e.vhost !== '/' && e.vhost !== '') connectOptions.hostname = `vhost:${e.vhost}`;
    let raw: rhea.Connection;
    try {
      raw = container.connect(connectOptions as unknown as rhea.ConnectionOptions);
    } catch (err) {
      // tls.connect throws at once for key material it cannot use
      return Promise.reject(connectFailure(label, err));
    }
    const conn = new Amqp10Connection(e, container, raw);
    return new Promise<Amqp10Connection>((resolve, reject) => {
      let settled = false;
      let authFailed: Error | undefined;
      const timer = setTimeout(
        () => fail(new Amqp10ConnectError(label, `no answer within ${options.connectTimeoutMs ?? 10_000} ms`)),
        options.connectTimeoutMs ?? 10_000,
      );
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        conn.destroy();
        reject(err);
      };
      // SASL failures come as ctx.error (a rhea ConnectionError), a broker's close as connection.error.
      const connectionError = (ctx: rhea.EventContext): Amqp10ConnectError =>
        refusedConnection(label, e.username, (ctx as { error?: unknown }).error ?? ctx.connection.error);
      container.on('error', (err: unknown) => {
        // Errors nobody else handled (rhea would throw them): never fatal for the process.
        const error = err instanceof Error ? err : new Error(String(err));
        if (!settled) fail(new Amqp10ConnectError(label, error.message, undefined, err));
        else conn.markLost(new Amqp10ConnectionLostError(label, error.message, undefined, err));
      });
      raw.on('connection_open', (ctx) => {
        if (settled) return;
        const props = (ctx.connection.remote.open as { properties?: Record<string, unknown> } | undefined)?.properties;
        if (props && props['amqp:connection-establishment-failed']) return; // the close with the reason follows
        settled = true;
        clearTimeout(timer);
        conn.watchLiveness(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
        resolve(conn);
      });
      raw.on('connection_error', (ctx) => {
        const err = connectionError(ctx);
        if (err instanceof Amqp10AuthError) authFailed = err;
        if (!settled) fail(err);
        else conn.markLost(new Amqp10ConnectionLostError(label, err.message, err.condition, err));
      });
      raw.on('connection_close', (ctx) => {
        // rhea keeps the error of the broker's close frame, if it sent one, on the connection.
        const closeError = ctx.connection.error;
        if (!settled) fail(new Amqp10ConnectError(label, 'closed by the broker during the handshake', undefined, closeError));
        else conn.markLost(new Amqp10ConnectionLostError(label, 'closed by the broker', undefined, closeError));
      });
      raw.on('protocol_error', (err: unknown) => {
        if (!settled) fail(protocolFailure(label, e.username, err));
        else conn.markLost(new Amqp10ConnectionLostError(label, err instanceof Error ? err.message : String(err), undefined, err));
      });
      raw.on('error', (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (!settled) fail(new Amqp10ConnectError(label, message, undefined, err));
        else conn.markLost(new Amqp10ConnectionLostError(label, message, undefined, err));
      });
      raw.on('disconnected', (ctx) => {
        const err = (ctx as { error?: { message?: string; code?: string } }).error;
        const reason = err?.code ?? err?.message ?? 'socket closed';
        if (!settled) fail(authFailed ?? connectFailure(label, err, reason));
        else conn.markLost(new Amqp10ConnectionLostError(label, reason, undefined, err));
      });
      // Link and session errors surface here only when the link itself has no listener.
      for (const event of ['session_error', 'session_close', 'receiver_error', 'sender_error', 'receiver_close', 'sender_close'] as const) {
        raw.on(event, (ctx) => conn.linkEvent(ctx, event));
      }
    });
  }

  /** The broker's open-frame properties (dialect detection: ActiveMQ's topic-prefix, RabbitMQ's product). */
  get remoteProperties(): Readonly<Record<string, unknown>> {
    const open = this.raw.remote.open as { properties?: Record<string, unknown> } | undefined;
    return open?.properties ?? {};
  }

  isOpen(): boolean {
    return this.lostError === undefined && !this.closing && this.raw.is_open();
  }

  /**
   * Sends an encoded message (encodeAmqpMessage) on `sender`. The frames sent until the end of this tick leave
   * in one socket write: rhea writes each frame with its own socket.write, a system call each, and a
   * JMSPersister's burst of sends becomes one (its CPU per message on ActiveMQ fell by about a fifth:
   * docs/benchmarks.md).
   */
  sendEncoded(sender: rhea.Sender, bytes: Buffer): rhea.Delivery {
    const delivery = sender.send(bytes, undefined, 0); // format 0: the bytes are an AMQP message
    this.coalesceWrites();
    return delivery;
  }

  /** Corks the socket until the next tick. After a send only: rhea queued its write pass with process.nextTick then, so that pass runs before this uncork. */
  private coalesceWrites(): void {
    if (this.corked) return;
    const socket = (this.raw as unknown as { socket?: Socket }).socket;
    if (!socket || socket.destroyed) return;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  /** Called once when an open connection breaks (at once if it already has). */
  onLost(listener: LostListener): void {
    if (this.lostError) listener(this.lostError);
    else this.lostListeners.push(listener);
  }

  /**
   * Attaches a receiver; resolves when the broker attached it, rejects with Amqp10LinkError when it refused.
   * `maxUnsettled`: the most deliveries the caller may hold unsettled on it (its credit plus what it keeps
   * beyond): the session's incoming window is sized for that, and freed whatever the settlement order
   * (freeWindowOutOfOrder).
   */
  openReceiver(options: rhea.ReceiverOptions, maxUnsettled = 0): Promise<rhea.Receiver> {
    const address = describeAddress(options.source);
    const receiver = this.raw.open_receiver(options);
    freeWindowOutOfOrder(receiver, maxUnsettled);
    return this.openLink(receiver, 'receiver', address);
  }

  /** The credit the link has left (rhea keeps it in a field its typings do not show). */
  static credit(receiver: rhea.Receiver): number {
    return (receiver as unknown as { credit: number }).credit;
  }

  /** Attaches a sender (same rules as openReceiver). */
  openSender(options: rhea.SenderOptions): Promise<rhea.Sender> {
    const address = describeAddress(options.target);
    return this.openLink(this.raw.open_sender(options), 'sender', address);
  }

  /** Detaches a link on purpose; `close` true ends a durable subscription, false keeps it. */
  closeLink(link: rhea.Receiver | rhea.Sender, unsubscribe = false): void {
    this.closingLinks.add(link);
    try {
      if (unsubscribe) link.close();
      else link.detach();
    } catch {
      // already gone with its connection
    }
  }

  /** Closes gracefully (waits up to `timeoutMs` for the broker's close), then releases the socket. */
  async close(timeoutMs = 2000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.raw.is_open() && this.lostError === undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        this.raw.once('connection_close', done);
        this.raw.once('disconnected', done);
        try {
          this.raw.close();
        } catch {
          done();
        }
      });
    }
    this.destroy();
  }

  // ------------------------------------------------------------------ internals

  private watchLiveness(limitMs: number): void {
    const raw = this.raw as unknown as { socket?: { bytesRead?: number } };
    this.watch = new SilenceWatch({
      peer: this.label,
      limitMs,
      property: 'IdleTimeout',
      received: () => raw.socket?.bytesRead ?? 0,
      onSilent: (error) => this.markLost(error),
    });
  }

  private openLink<L extends rhea.Receiver | rhea.Sender>(link: L, kind: 'receiver' | 'sender', address: string): Promise<L> {
    return new Promise<L>((resolve, reject) => {
      let settled = false;
      let refused = false;
      let refusalTimer: NodeJS.Timeout | undefined;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        if (refusalTimer) clearTimeout(refusalTimer);
        if (err) {
          this.closingLinks.add(link);
          reject(err);
        } else resolve(link);
      };
      const linkError = (fallback: string): Amqp10LinkError => {
        const l = link as unknown as { error?: LinkErrorInfo; remote: { detach?: { error?: LinkErrorInfo } } };
        return refusedLink(this.label, address, l.error ?? l.remote.detach?.error, fallback);
      };
      link.on(`${kind}_open`, () => {
        const attach = (link as unknown as { remote: { attach?: { source?: unknown; target?: unknown } } }).remote.attach;
        const terminus = kind === 'receiver' ? attach?.source : attach?.target;
        if (isNullTerminus(terminus)) {
          // Refused: the detach with the reason follows; do not wait for it for ever.
          refused = true;
          refusalTimer = setTimeout(() => finish(linkError('attach refused')), 2000);
          return;
        }
        finish();
      });
      const onClose = () => {
        if (!settled) finish(linkError(refused ? 'attach refused' : 'detached by the broker'));
        else if (!this.closingLinks.has(link)) {
          const detached = linkError('detached by the broker');
          this.markLost(
            new Amqp10ConnectionLostError(this.label, `${kind} link to ${JSON.stringify(address)} ${detached.reason}`, detached.condition, detached),
          );
        }
      };
      link.on(`${kind}_error`, onClose);
      link.on(`${kind}_close`, onClose);
      this.onLost((err) => finish(err));
    });
  }

  private linkEvent(ctx: rhea.EventContext, event: string): void {
    const link = (ctx.receiver ?? ctx.sender ?? ctx.session) as { error?: unknown } | undefined;
    if (link && this.closingLinks.has(link)) return;
    if (event === 'session_close' || event.endsWith('_error') || event.endsWith('_close')) {
      // rhea keeps the error of the broker's detach or end frame on the link or session.
      this.markLost(new Amqp10ConnectionLostError(this.label, `${event.replace('_', ' ')} from the broker`, undefined, link?.error));
    }
  }

  private markLost(error: Error): void {
    if (this.lostError || this.closing) return;
    this.lostError = error;
    const listeners = this.lostListeners;
    this.lostListeners = [];
    for (const l of listeners) l(error);
    // Nothing more will work on this connection: release it (the reconnector opens a new one).
    this.destroy();
  }

  private destroy(): void {
    this.watch?.stop();
    // rhea's own abort: ends and destroys the socket and clears its heartbeat timers.
    const raw = this.raw as unknown as { socket?: unknown; abort_socket(socket: unknown): void; heartbeat_in?: NodeJS.Timeout; heartbeat_out?: NodeJS.Timeout };
    try {
      if (raw.socket) raw.abort_socket(raw.socket);
    } catch {
      // already gone
    }
    // When called from inside rhea's input handling, rhea re-arms its idle timer after we return: clear it then.
    setImmediate(() => {
      clearTimeout(raw.heartbeat_in);
      clearTimeout(raw.heartbeat_out);
    });
    this.container.removeAllListeners();
    this.container.on('error', () => undefined);
  }
}

/** The error a broker rejected a delivery with: rhea keeps it in the delivery's private remote_state. */
export function deliveryRejection(delivery: rhea.Delivery): { readonly condition?: string; readonly description?: string } | undefined {
  return (delivery as unknown as { remote_state?: { error?: { condition?: string; description?: string } } }).remote_state?.error;
}

/** Whether the sender's session can take another transfer: rhea's private session.outgoing buffer is bounded, and a send beyond it would throw. */
export function sessionHasRoom(sender: rhea.Sender): boolean {
  const outgoing = (sender as unknown as { session?: { outgoing?: { available(): number } } }).session?.outgoing;
  return outgoing === undefined || outgoing.available() > 0;
}

/** rhea's default session ring size (lib/session.js DEFAULT_BUFFER_SIZE). */
const RHEA_SESSION_SLOTS = 2048;

interface RheaIncoming {
  deliveries?: { size?: number; available?: () => number; push?: unknown; pop_if?: unknown; by_id?: unknown };
}

/**
 * Replaces the receiver's session ring of incoming deliveries (rhea's private session.incoming.deliveries) by
 * an IncomingDeliveries that frees the slot of any settled delivery, so that one delivery held unsettled does
 * not close the session window behind it (docs/components/jms-queues.md "One held delivery never stops the
 * receiver"). Done before any transfer can arrive (the link has no credit yet). The capacity is twice what
 * the caller may hold, and at least rhea's 2,048: after a sweep the window is never below half of it.
 * Throws RheaInternalsError when the installed rhea has no such ring (test/unit/transports/amqp10-incoming-window.test.ts).
 */
export function freeWindowOutOfOrder(receiver: rhea.Receiver, maxUnsettled: number): void {
  const incoming = (receiver.session as unknown as { incoming?: RheaIncoming } | undefined)?.incoming;
  const ring = incoming?.deliveries;
  const capacity = Math.max(RHEA_SESSION_SLOTS, 2 * maxUnsettled);
  if (ring instanceof IncomingDeliveries) {
    // a second receiver on the same session: one buffer serves both, sized for the larger
    if (ring.capacity < capacity) incoming!.deliveries = ring.resized(capacity) as never;
    return;
  }
  for (const method of ['available', 'push', 'pop_if', 'by_id'] as const) {
    if (typeof ring?.[method] !== 'function') throw new RheaInternalsError(`session.incoming.deliveries.${method}()`, rheaVersion());
  }
  if (ring!.size !== 0) throw new RheaInternalsError('an empty session.incoming.deliveries before the first credit', rheaVersion());
  incoming!.deliveries = new IncomingDeliveries<IncomingDelivery>(capacity) as never;
}

function rheaVersion(): string {
  try {
    return String((JSON.parse(readFileSync(require.resolve('rhea/package.json'), 'utf8')) as { version?: unknown }).version);
  } catch {
    return '(unknown version)';
  }
}

interface LinkErrorInfo {
  condition?: string;
  description?: string;
}

function isNullTerminus(t: unknown): boolean {
  if (t === null || t === undefined) return true;
  // rhea shows a null terminus as a Typed {type, value: null}
  return typeof t === 'object' && 'value' in (t as object) && (t as { value: unknown }).value === null && !('address' in (t as object));
}

function describeAddress(terminus: unknown): string {
  if (typeof terminus === 'string') return terminus;
  if (terminus && typeof terminus === 'object' && typeof (terminus as { address?: unknown }).address === 'string')
    return (terminus as { address: string }).address;
  return '(no address)';
}
