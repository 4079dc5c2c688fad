/**
 * Connecting to an AMQP 0-9-1 broker (RabbitMQ) from a component's configuration, shared by AmqpReceiver
 * and AmqpPersister: address (URI, or the original's HostName/Port/VirtualHost), credentials, TLS, and
 * the classification of errors into configuration errors (fatal) and outages (retry) is amqp091-errors.ts.
 *
 * Address rules: `URI` amqp://[user:pass@]host[:port][/vhost] or amqps://...; default amqp://localhost:5672/.
 * HostName, Port and VirtualHost override the URI parts (as in the original); Username/Password override
 * credentials in the URI (the original never set the password: fixed). An empty or "/" path is vhost "/".
 * TLS (amqps): CAFile, CertFile, KeyFile (paths relative to the configuration's directory), KeyPassphrase,
 * RejectUnauthorized (default true), ServerName.
 *
 * Liveness: Heartbeat is negotiated with the broker (RabbitMQ then sends at least a heartbeat every half of
 * it) and is the limit of silence after which xroute declares the connection dead (amqp091-session.ts);
 * amqplib's own check waits two to three heartbeats, so it never decides. The two functions that reach into
 * amqplib's connection for that are below: nothing else touches its internals.
 */
import * as amqp from 'amqplib';
import { BackoffOptions } from '../foundation/backoff';
import { TlsSettings, tlsSocketOptions } from './tls';
import { AmqpStepError, isAmqpConfigError } from './amqp091-errors';

export interface AmqpConnectionSettings {
  readonly protocol: 'amqp' | 'amqps';
  readonly hostname: string;
  readonly port: number;
  readonly vhost: string;
  readonly username: string;
  /** Never logged. */
  readonly password: string;
  /** Negotiated heartbeat and liveness limit (0 = off). */
  readonly heartbeatSeconds: number;
  readonly connectTimeoutMs: number;
  /** Used with protocol amqps (src/transports/tls.ts). */
  readonly tls: TlsSettings;
}

/** The URI without its password, for messages. */
export function redactUri(uri: string): string {
  return uri.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1****@');
}

/** host:port/vhost, for logs and status (no credentials). */
export function describeAddress(s: AmqpConnectionSettings): string {
  return `${s.protocol}://${s.hostname}:${s.port}/${s.vhost === '/' ? '' : encodeURIComponent(s.vhost)}`;
}

/** Opens a connection. The caller must listen for 'close'; an 'error' listener is attached here, because amqplib
 * throws an 'error' nobody listens to and so would kill the process. */
export async function openAmqpConnection(s: AmqpConnectionSettings, onError: (err: Error) => void): Promise<amqp.ChannelModel> {
  const socketOptions: amqp.SocketOptions = { timeout: s.connectTimeoutMs, noDelay: true, clientProperties: { connection_name: 'xroute' } };
  if (s.protocol === 'amqps') Object.assign(socketOptions, tlsSocketOptions(s.tls, s.hostname));
  const conn = await amqp.connect(
    { protocol: s.protocol, hostname: s.hostname, port: s.port, vhost: s.vhost, username: s.username, password: s.password, heartbeat: s.heartbeatSeconds },
    socketOptions,
  );
  conn.on('error', onError);
  const socket = socketOf(conn);
  if (socket !== undefined) coalesceWrites(socket);
  return conn;
}

/** What coalesceWrites needs of a socket (net.Socket and tls.TLSSocket have it). */
interface CorkableSocket {
  write(...args: unknown[]): boolean;
  cork(): void;
  uncork(): void;
}

/**
 * The frames written to a connection's socket in one callback leave in one system call (issue 32). amqplib's
 * muxer writes each channel's frames as a chunk of its own, and an uncorked socket sends each chunk at once: a
 * publish, an ack and a confirm's ack were a write(2) each. The socket is corked at the first write of a callback
 * and uncorked in the next tick, before anything else runs, so the chunks go out as one writev(2) in the same turn:
 * nothing waits longer than it did.
 */
export function coalesceWrites(socket: CorkableSocket): void {
  const write = socket.write;
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  socket.write = (...args: unknown[]): boolean => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(socket, args);
  };
}

/** The default Heartbeat: a silent partition is detected within 8 s (docs/operations.md). */
export const DEFAULT_HEARTBEAT_SECONDS = 8;

/** amqplib's socket under a ChannelModel (its `connection.stream`: the socket itself for TCP and TLS). */
function socketOf(conn: amqp.ChannelModel): AmqpSocket | undefined {
  return (conn as unknown as { connection?: { stream?: AmqpSocket } }).connection?.stream;
}

type AmqpSocket = CorkableSocket & { bytesRead?: number; destroy?(error?: Error): void };

/** Bytes received on the connection so far (heartbeats included), for the liveness watch. */
export function bytesReceived(conn: amqp.ChannelModel): number {
  return socketOf(conn)?.bytesRead ?? 0;
}

/**
 * Drops a connection declared dead without the closing handshake, which a silent broker would never answer:
 * the socket is destroyed with `error`, and amqplib closes its channels and emits 'error' and 'close'.
 */
export function abortAmqpConnection(conn: amqp.ChannelModel, error: Error): void {
  socketOf(conn)?.destroy?.(error);
}

/** Runs one broker step, wrapping its failure in an AmqpStepError. */
export async function amqpStep<T>(component: string, step: string, fn: () => Promise<T>, hint?: string): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AmqpStepError) throw e;
    throw new AmqpStepError(component, step, e, hint);
  }
}

/** Reconnector isFatal: configuration errors stop retrying. */
export function isFatalAmqpError(error: unknown): boolean {
  return error instanceof AmqpStepError ? error.configError : isAmqpConfigError(error);
}

/** Resolves after `ms` or when `p` settles, whichever is first; never rejects. */
export function settleWithin(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    p.then(
      () => {
        clearTimeout(t);
        resolve();
      },
      () => {
        clearTimeout(t);
        resolve();
      },
    );
  });
}

/** Reconnect timing: 200 ms doubling to 2 s keeps the gap after a broker's return well under 5 s. */
export const AMQP_RECONNECT_BACKOFF: BackoffOptions = Object.freeze({ minMs: 200, maxMs: 2000 });
