/**
 * StreamPersister's TCP connection: connect (SOTimeout), the login handshake inside each connect
 * (stream-handshake.ts; both share one SOTimeout deadline), reconnection with back-off through the shared
 * Reconnector (retrying forever, as the original did; a pool's RetryTimeout ends a child that never gets
 * through), CloseRequest written before the persister closes a connection itself, and corking so that the
 * requests written in one turn leave together.
 *
 * The persister sees one connection at a time: `attached` with each new one, `data`/`peerEnd` for it, and
 * `detached` whenever it is forgotten (lost, dropped, closed or renewed), after which nothing read from the
 * old socket reaches the persister.
 */
import net from 'node:net';
import { ActorContext, TimerHandle } from '../../src/runtime/actor';
import { StatusReporter } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { Logger } from '../../src/logging/logger';
import { connectTcp } from '../stream/tcp-connect';
import { SharedReadSocket } from '../stream/shared-read-socket';
import { HandshakeError, HandshakeSpec, closeText, performHandshake } from './stream-handshake';
import { StreamPersisterSettings } from './stream-persister-settings';
import { describeTarget } from '../stream/stream-target';

export interface StreamConnectionEvents {
  /** A new connection, `socket`, is ready for requests. */
  attached(socket: net.Socket): void;
  /** Bytes read from the current connection: lent, valid only during the call (SharedReadSocket). */
  data(chunk: Buffer): void;
  /** The peer ended the stream (reported only with `watchEnd`). */
  peerEnd(): void;
  /** The current connection is forgotten; nothing counts as written on it any more. */
  detached(): void;
}

export interface StreamConnectionOptions {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** Text shown in status and errors for the peer. */
  readonly label: string;
  readonly connectTimeoutMs: number;
  readonly keepAlive: boolean;
  readonly handshake?: HandshakeSpec;
  /** Lines written (each + "\n") before the persister closes a connection itself. */
  readonly closeRequest: readonly string[];
  readonly backoff: { readonly minMs: number; readonly maxMs: number };
  readonly tolerance: number;
  /** Report the peer ending the stream (simple mode ends a started reply there). */
  readonly watchEnd: boolean;
  readonly logger: Logger;
  readonly status: StatusReporter;
  readonly ctx: Pick<ActorContext<never>, 'guard' | 'setTimeout' | 'clearTimer'>;
  readonly events: StreamConnectionEvents;
}

export class StreamConnection {
  private reconnector?: Reconnector<SharedReadSocket>;
  private current?: SharedReadSocket;
  private stopped = false;
  private uncorkScheduled = false;
  private readonly closeText?: string;
  /** Called per chunk read: held here, not read through the options (one cache line less per reply; issue 32). */
  private readonly events: StreamConnectionEvents;

  constructor(private readonly o: StreamConnectionOptions) {
    this.closeText = closeText(o.closeRequest);
    this.events = o.events;
  }

  /** The connection requests are written on, if one is up. */
  get socket(): net.Socket | undefined {
    return this.current;
  }

  /** Starts connecting (status RETRYING unless `quiet`, as when a session is renewed); not once stopped. */
  open(quiet = false): void {
    if (this.stopped) return;
    const reconnector = new Reconnector<SharedReadSocket>({
      name: this.o.name,
      connect: () => this.connect(),
      onConnected: (socket) => this.attach(socket),
      discard: (socket) => socket.destroy(), // closed or renewed while connecting
      backoff: this.o.backoff,
      tolerance: this.o.tolerance,
      maxRetry: 0,
      logger: this.o.logger,
      status: this.o.status,
      timers: { setTimeout: (fn, ms) => this.o.ctx.setTimeout(fn, ms), clearTimer: (h) => this.o.ctx.clearTimer(h as TimerHandle) },
    });
    this.reconnector = reconnector;
    if (!quiet) this.o.status.set('RETRYING', `connecting to ${this.o.label}`);
    reconnector.start();
  }

  /** The connection broke or is out of step: forget it and reconnect. Ignored for an old socket. */
  drop(err: Error, socket: net.Socket | undefined = this.current): void {
    const current = this.current;
    if (!current || socket !== current) return;
    this.detach(current);
    current.destroy();
    if (!this.stopped) this.reconnector?.lost(err, current);
  }

  /** Stops reconnecting and closes the connection (CloseRequest first); open() starts again. */
  close(): void {
    this.reconnector?.stop();
    this.reconnector = undefined;
    const socket = this.current;
    if (socket) {
      this.detach(socket);
      this.closeSocket(socket);
    }
  }

  /** Closes for good: a connect still under way is thrown away. */
  stop(): void {
    this.stopped = true;
    this.close();
  }

  /** Closes (CloseRequest first) and connects again quietly (SessionSize reached). */
  renew(): void {
    this.close();
    this.open(true);
  }

  /** Requests written in this turn go out together at its end (many requests, few packets). */
  corkForThisTurn(): void {
    const socket = this.current;
    if (!socket || this.uncorkScheduled) return;
    socket.cork();
    this.uncorkScheduled = true;
    process.nextTick(() => {
      this.uncorkScheduled = false;
      socket.uncork();
    });
  }

  /** TCP connect, then the login handshake if one is configured (one SOTimeout deadline for both). */
  private async connect(): Promise<SharedReadSocket> {
    const deadline = Date.now() + this.o.connectTimeoutMs;
    const target = { host: this.o.host, port: this.o.port, timeoutMs: this.o.connectTimeoutMs, keepAlive: this.o.keepAlive };
    const socket = await connectTcp(target, new SharedReadSocket());
    if (!this.o.handshake) return socket;
    try {
      await performHandshake(socket, this.o.handshake, deadline);
    } catch (err) {
      this.closeSocket(socket);
      if (err instanceof HandshakeError) this.o.status.count('loginFailures');
      throw err;
    }
    return socket;
  }

  private attach(socket: SharedReadSocket): void {
    this.current = socket;
    const ctx = this.o.ctx;
    // The events' own method, guarded, with no closure of its own between (a reply reads no object more; issue 32). It
    // is taken off the socket when the socket is forgotten (detach), so nothing read from an old socket reaches it.
    socket.onBytes = ctx.guard(this.events.data, this.events);
    socket.on(
      'error',
      ctx.guard((err: Error) => this.drop(err, socket)),
    );
    if (this.o.watchEnd) {
      socket.on(
        'end',
        ctx.guard(() => {
          if (socket === this.current) this.events.peerEnd();
        }),
      );
    }
    socket.on(
      'close',
      ctx.guard(() => this.drop(new Error(`connection to ${this.o.label} closed by the peer`), socket)),
    );
    this.events.attached(socket);
  }

  private detach(socket: SharedReadSocket): void {
    if (socket === this.current) {
      this.current = undefined;
      socket.onBytes = undefined;
    }
    this.events.detached();
  }

  /** Writes CloseRequest (if any) and closes; used whenever the persister itself ends a connection. */
  private closeSocket(socket: SharedReadSocket): void {
    socket.onBytes = undefined;
    if (this.closeText !== undefined && socket.writable) {
      socket.on('error', () => undefined);
      socket.end(this.closeText, () => socket.destroy());
    } else {
      socket.destroy();
    }
  }
}

/** The connection of a StreamPersister to its TCP target, from its settings. */
export function streamPersisterConnection(
  s: StreamPersisterSettings,
  target: { readonly host: string; readonly port: number },
  env: { readonly name: string; readonly logger: Logger; readonly status: StatusReporter },
  ctx: StreamConnectionOptions['ctx'],
  events: StreamConnectionEvents,
): StreamConnection {
  return new StreamConnection({
    name: env.name,
    host: target.host,
    port: target.port,
    label: describeTarget({ kind: 'tcp', host: target.host, port: target.port }),
    connectTimeoutMs: s.connectTimeoutMs,
    keepAlive: s.keepAlive,
    handshake: s.handshake,
    closeRequest: s.closeRequest,
    backoff: { minMs: s.pauseTimeMs, maxMs: s.standbyTimeMs },
    tolerance: s.tolerance,
    // Simple mode: the peer ending the stream ends a started reply.
    watchEnd: s.mode === 'simple',
    logger: env.logger,
    status: env.status,
    ctx,
    events,
  });
}
