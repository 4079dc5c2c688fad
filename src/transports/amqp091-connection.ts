/**
 * Connecting to an AMQP 0-9-1 broker (RabbitMQ) from a component's configuration, shared by AmqpReceiver
 * and AmqpPersister: address (URI, or the original's HostName/Port/VirtualHost), credentials, TLS, and
 * the classification of errors into configuration errors (fatal) and outages (retry).
 *
 * Address rules: `URI` amqp://[user:pass@]host[:port][/vhost] or amqps://...; default amqp://localhost:5672/.
 * HostName, Port and VirtualHost override the URI parts (as in the original); Username/Password override
 * credentials in the URI (the original never set the password: fixed). An empty or "/" path is vhost "/".
 * TLS (amqps): CAFile, CertFile, KeyFile (paths relative to the configuration's directory), KeyPassphrase,
 * RejectUnauthorized (default true), ServerName.
 */
import * as amqp from 'amqplib';
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { ConfigReader, ComponentConfigError } from './config-values';
import { BackoffOptions, parseBackoff } from '../runtime/backoff';

export interface AmqpConnectionSettings {
  readonly protocol: 'amqp' | 'amqps';
  readonly hostname: string;
  readonly port: number;
  readonly vhost: string;
  readonly username: string;
  /** Never logged. */
  readonly password: string;
  readonly heartbeatSeconds: number;
  readonly connectTimeoutMs: number;
  readonly tls: {
    readonly ca?: Buffer;
    readonly cert?: Buffer;
    readonly key?: Buffer;
    readonly passphrase?: string;
    readonly servername?: string;
    readonly rejectUnauthorized: boolean;
  };
}

/** Properties this module reads (for schemas). */
export const CONNECTION_PROPERTIES = ['URI', 'HostName', 'Port', 'VirtualHost', 'Username', 'Password', 'CAFile', 'CertFile', 'KeyFile', 'KeyPassphrase', 'RejectUnauthorized', 'ServerName', 'Heartbeat', 'ConnectTimeout'] as const;

/** Schema of a "true"/"false" string (any case). */
export const BOOLEAN_STRING = Object.freeze({ type: 'string', pattern: '^\\s*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*$' });

export function connectionSchemaProperties(): Record<string, unknown> {
  const str = (description: string) => ({ type: 'string', description });
  return {
    URI: { type: 'string', pattern: '^amqps?://', description: 'amqp://[user:pass@]host[:port][/vhost] or amqps:// (TLS); default amqp://localhost:5672/' },
    HostName: str('host; overrides the URI host'),
    Port: { type: 'string', pattern: '^\\d+$', description: 'port; overrides the URI port (default 5672, amqps 5671)' },
    VirtualHost: str('virtual host; overrides the URI path (default /)'),
    Username: str('user name; overrides credentials in the URI'),
    Password: str('password; overrides credentials in the URI'),
    CAFile: str('amqps: PEM file of the CA(s) to trust'),
    CertFile: str('amqps: PEM client certificate'),
    KeyFile: str('amqps: PEM client key'),
    KeyPassphrase: str('amqps: passphrase of KeyFile'),
    RejectUnauthorized: { ...BOOLEAN_STRING, description: 'amqps: verify the broker certificate (default true)' },
    ServerName: str('amqps: TLS server name (SNI and certificate check); default the host name'),
    Heartbeat: { type: 'string', pattern: '^\\d+$', description: 'AMQP heartbeat in seconds (default 10; 0 = off)' },
    ConnectTimeout: { type: 'string', pattern: '^\\d+$', description: 'ms to wait for the TCP/TLS connection (default 10000)' },
  };
}

export function readConnectionSettings(reader: ConfigReader, baseDir: string): AmqpConnectionSettings {
  const uriText = reader.string('URI', 'amqp://localhost:5672/');
  let url: URL;
  try {
    url = new URL(uriText);
  } catch {
    throw new ComponentConfigError(reader.component, 'URI', redactUri(uriText), 'amqp://host[:port][/vhost] or amqps://...');
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'amqp' && scheme !== 'amqps') throw new ComponentConfigError(reader.component, 'URI', redactUri(uriText), 'an amqp:// or amqps:// URI');
  const protocol = scheme as 'amqp' | 'amqps';
  const hostname = reader.string('HostName') || url.hostname || 'localhost';
  const port = reader.optionalInt('Port', 1, 65535) ?? (url.port ? Number(url.port) : protocol === 'amqps' ? 5671 : 5672);
  const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const vhost = reader.string('VirtualHost') || (path === '' ? '/' : path);
  const username = reader.string('Username') ?? (url.username ? decodeURIComponent(url.username) : 'guest');
  const password = reader.string('Password') ?? (url.password ? decodeURIComponent(url.password) : 'guest');
  const file = (prop: string): Buffer | undefined => {
    const p = reader.string(prop);
    if (p === undefined || p === '') return undefined;
    const full = resolve(baseDir, p);
    try {
      return readFileSync(full);
    } catch (e) {
      throw new ComponentConfigError(reader.component, prop, p, `a readable PEM file (${(e as Error).message})`);
    }
  };
  return {
    protocol,
    hostname,
    port,
    vhost,
    username,
    password,
    heartbeatSeconds: reader.int('Heartbeat', 10, 0),
    connectTimeoutMs: reader.int('ConnectTimeout', 10_000, 1),
    tls: {
      ca: file('CAFile'),
      cert: file('CertFile'),
      key: file('KeyFile'),
      passphrase: reader.string('KeyPassphrase'),
      servername: reader.string('ServerName'),
      rejectUnauthorized: reader.bool('RejectUnauthorized', true),
    },
  };
}

/** The URI without its password, for messages. */
export function redactUri(uri: string): string {
  return uri.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1****@');
}

/** host:port/vhost, for logs and status (no credentials). */
export function describeAddress(s: AmqpConnectionSettings): string {
  return `${s.protocol}://${s.hostname}:${s.port}/${s.vhost === '/' ? '' : encodeURIComponent(s.vhost)}`;
}

/** Opens a connection. The caller must listen for 'close'; an 'error' listener is attached here (brokers.md). */
export async function openAmqpConnection(s: AmqpConnectionSettings, onError: (err: Error) => void): Promise<amqp.ChannelModel> {
  const socketOptions: amqp.SocketOptions = { timeout: s.connectTimeoutMs, noDelay: true, clientProperties: { connection_name: 'xroute' } };
  if (s.protocol === 'amqps') {
    Object.assign(socketOptions, {
      ca: s.tls.ca,
      cert: s.tls.cert,
      key: s.tls.key,
      passphrase: s.tls.passphrase,
      rejectUnauthorized: s.tls.rejectUnauthorized,
      ...(s.tls.servername ? { servername: s.tls.servername } : {}),
    });
  }
  const conn = await amqp.connect(
    { protocol: s.protocol, hostname: s.hostname, port: s.port, vhost: s.vhost, username: s.username, password: s.password, heartbeat: s.heartbeatSeconds },
    socketOptions,
  );
  conn.on('error', onError);
  return conn;
}

/** Reply codes that mean the configuration is wrong: retrying cannot help. */
const CONFIG_REPLY_CODES = new Set([403, 404, 405, 406, 530]);

/**
 * A configuration error (wrong password, missing exchange/queue under IsPassive, inequivalent declare,
 * no permission) as opposed to an outage (refused, reset, DNS, broker shutting down).
 */
export function isAmqpConfigError(error: unknown): boolean {
  if (error instanceof ComponentConfigError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && CONFIG_REPLY_CODES.has(code)) return true;
  return /ACCESS[-_]REFUSED|SASL mechanism/.test(error.message);
}

/** A short, password-free description of an amqplib error for status and logs. */
export function describeAmqpError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (/Expected ConnectionOpenOk; got <ConnectionClose/.test(error.message)) return 'the broker closed the connection while opening it (unknown virtual host, no permission, or shutting down)';
  return error.message;
}

/**
 * A failed step of talking to the broker (connect, check/declare, bind, consume, publish), naming the
 * component and the step. `configError` tells the Reconnector to give up instead of retrying.
 */
export class AmqpStepError extends Error {
  readonly configError: boolean;
  readonly replyCode?: number;
  constructor(
    readonly component: string,
    readonly step: string,
    override readonly cause: unknown,
    hint?: string,
  ) {
    const configError = isAmqpConfigError(cause);
    super(`${component}: ${step} failed: ${describeAmqpError(cause)}${configError && hint ? ` (${hint})` : ''}`);
    this.name = 'AmqpStepError';
    this.configError = configError;
    const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
    if (typeof code === 'number') this.replyCode = code;
  }
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

export interface ReconnectSettings {
  readonly backoff: BackoffOptions;
  readonly tolerance: number;
  readonly maxRetry: number;
}

export function reconnectSchemaProperties(): Record<string, unknown> {
  const int = (description: string) => ({ type: 'string', pattern: '^\\s*\\d+\\s*$', description });
  return {
    ReconnectBackoff: { type: 'string', pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$', description: 'reconnect delay "minMs,maxMs" (default 200,2000)' },
    Tolerance: int('reconnect attempts at the minimum delay at the start of an outage (default 0)'),
    MaxRetry: int('reconnect attempts of one outage before the supervisor is told (a crash: restart per Supervision); 0 (default) = never give up'),
  };
}

export function readReconnectSettings(reader: ConfigReader): ReconnectSettings {
  let backoff: BackoffOptions;
  try {
    backoff = parseBackoff(reader.string('ReconnectBackoff'), AMQP_RECONNECT_BACKOFF);
  } catch {
    throw new ComponentConfigError(reader.component, 'ReconnectBackoff', reader.string('ReconnectBackoff'), '"minMs,maxMs" with min <= max');
  }
  return { backoff, tolerance: reader.int('Tolerance', 0, 0), maxRetry: reader.int('MaxRetry', 0, 0) };
}
