/**
 * Reading the AMQP 0-9-1 properties shared by AmqpReceiver and AmqpPersister (address, credentials, TLS,
 * exchange/queue/bindings, reconnect timing) from a component configuration, and their JSON schemas.
 * The rules are documented on the types in src/transports/amqp091-connection.ts and amqp091-topology.ts.
 */
import { integerSchemas, integerSetting } from '../../src/foundation/schema-helpers';
import { secretStr } from '../../src/foundation/secret-properties';
import { BackoffOptions, parseBackoff } from '../../src/foundation/backoff';
import {
  AMQP_RECONNECT_BACKOFF,
  AmqpConnectionSettings,
  DEFAULT_HEARTBEAT_SECONDS,
  isFatalAmqpError,
  redactUri,
} from '../../src/transports/amqp091-connection';
import { ActorContext, TimerHandle } from '../../src/runtime/actor';
import { ComponentEnv } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { DeclareFlags, EXCHANGE_TYPES, ExchangeSettings, SourceTopology } from '../../src/transports/amqp091-topology';
import { ConfigReader, ComponentConfigError } from './config-values';
import { BOOLEAN_STRING, readTlsSettings, tlsSchemaProperties } from './tls-config';
import { AmqpChannelError } from '../../src/transports/amqp091-errors';

/** The connection's integer settings: their schema and the reader's defaults and ranges. */
const AMQP_CONNECTION_INTEGERS = {
  Heartbeat: integerSetting(
    'AMQP heartbeat in seconds, negotiated with the broker (which then sends at least every half of it); a connection that receives nothing, not even a heartbeat, for this long is declared dead and reopened (default {default}; 0 = off)',
    DEFAULT_HEARTBEAT_SECONDS,
    { min: 0, pattern: '^\\d+$' },
  ),
  ConnectTimeout: integerSetting('ms to wait for the TCP/TLS connection', 10_000, { min: 1, pattern: '^\\d+$' }),
};

/** The reconnection's integer settings (QuietPeriod and StandbyTime are common properties). */
const AMQP_RECONNECT_INTEGERS = {
  Tolerance: integerSetting('reconnect attempts at the minimum delay at the start of an outage', 0, { min: 0 }),
  MaxRetry: integerSetting(
    'reconnect attempts per retry cycle before a quiet period of QuietPeriod x StandbyTime (the original meaning); {default} (default) = no cycles. An outage never stops the component',
    0,
    { min: 0 },
  ),
};

export function connectionSchemaProperties(): Record<string, unknown> {
  const str = (description: string) => ({ type: 'string', description });
  return {
    URI: { type: 'string', pattern: '^amqps?://', description: 'amqp://[user:pass@]host[:port][/vhost] or amqps:// (TLS); default amqp://localhost:5672/' },
    HostName: str('host; overrides the URI host'),
    Port: { type: 'string', pattern: '^\\d+$', description: 'port; overrides the URI port (default 5672, amqps 5671)' },
    VirtualHost: str('virtual host; overrides the URI path (default /)'),
    Username: str('user name; overrides credentials in the URI'),
    Password: secretStr('password; overrides credentials in the URI'),
    ...tlsSchemaProperties(),
    ...integerSchemas(AMQP_CONNECTION_INTEGERS),
  };
}

export function readConnectionSettings(reader: ConfigReader, baseDir: string): AmqpConnectionSettings {
  const uriText = reader.string('URI', 'amqp://localhost:5672/');
  let url: URL;
  try {
    url = new URL(uriText);
  } catch (e) {
    throw new ComponentConfigError(reader.component, 'URI', redactUri(uriText), 'amqp://host[:port][/vhost] or amqps://...', e);
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'amqp' && scheme !== 'amqps') throw new ComponentConfigError(reader.component, 'URI', redactUri(uriText), 'an amqp:// or amqps:// URI');
  const protocol = scheme as 'amqp' | 'amqps';
  const hostname = reader.string('HostName') || url.hostname || 'localhost';
  const port = optionalInt(reader, 'Port', 1, 65535) ?? (url.port ? Number(url.port) : protocol === 'amqps' ? 5671 : 5672);
  const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const vhost = reader.string('VirtualHost') || (path === '' ? '/' : path);
  const username = reader.string('Username') ?? (url.username ? decodeURIComponent(url.username) : 'guest');
  const password = reader.string('Password') ?? (url.password ? decodeURIComponent(url.password) : 'guest');
  const n = reader.integers(AMQP_CONNECTION_INTEGERS);
  return {
    protocol,
    hostname,
    port,
    vhost,
    username,
    password,
    heartbeatSeconds: n.Heartbeat,
    connectTimeoutMs: n.ConnectTimeout,
    tls: readTlsSettings(reader, baseDir),
  };
}

export interface ReconnectSettings {
  readonly backoff: BackoffOptions;
  readonly tolerance: number;
  readonly maxRetry: number;
  /** Quiet period between retry cycles: QuietPeriod (default 4) x StandbyTime (default 15000 ms). */
  readonly quietMs: number;
}

export function reconnectSchemaProperties(): Record<string, unknown> {
  return {
    ReconnectBackoff: { type: 'string', pattern: '^\\s*\\d+\\s*,\\s*\\d+\\s*$', description: 'reconnect delay "minMs,maxMs" (default 200,2000)' },
    ...integerSchemas(AMQP_RECONNECT_INTEGERS),
  };
}

export function readReconnectSettings(reader: ConfigReader): ReconnectSettings {
  let backoff: BackoffOptions;
  try {
    backoff = parseBackoff(reader.string('ReconnectBackoff'), AMQP_RECONNECT_BACKOFF);
  } catch (e) {
    throw new ComponentConfigError(reader.component, 'ReconnectBackoff', reader.string('ReconnectBackoff'), '"minMs,maxMs" with min <= max', e);
  }
  const quietMs = reader.int('QuietPeriod', 4, { min: 0 }) * reader.int('StandbyTime', 15_000, { min: 0 });
  const n = reader.integers(AMQP_RECONNECT_INTEGERS);
  return { backoff, tolerance: n.Tolerance, maxRetry: n.MaxRetry, quietMs };
}

export function topologySchemaProperties(): Record<string, unknown> {
  return {
    ExchangeName: { type: 'string', description: 'exchange; absent = the default exchange' },
    ExchangeType: { type: 'string', enum: [...EXCHANGE_TYPES], description: 'default direct' },
    IsPassive: { ...BOOLEAN_STRING, description: 'true (default): only check that the exchange/queue exist; false: declare them' },
    IsDurable: { ...BOOLEAN_STRING, description: 'durable when declared (default false)' },
    AutoDelete: { ...BOOLEAN_STRING, description: 'auto-delete when declared (default false)' },
  };
}

function readFlags(reader: ConfigReader): DeclareFlags {
  return { passive: reader.bool('IsPassive', true), durable: reader.bool('IsDurable', false), autoDelete: reader.bool('AutoDelete', false) };
}

export function readExchangeSettings(reader: ConfigReader): ExchangeSettings {
  const type = reader.oneOf('ExchangeType', EXCHANGE_TYPES, 'direct');
  return { name: reader.string('ExchangeName', ''), type, ...readFlags(reader) };
}

/** The receiver's source: exchange, queue and bindings; combinations that cannot work are errors. */
export function readSourceTopology(reader: ConfigReader): SourceTopology {
  const exchange = readExchangeSettings(reader);
  const queue = reader.string('QueueName', '');
  const routingKeys = stringList(reader, 'RoutingKey');
  const bindArguments = reader.stringMap('BindingArguments');
  const c = reader.component;
  if (exchange.name === '' && exchange.type !== 'direct')
    throw new ComponentConfigError(c, 'ExchangeName', undefined, `an exchange name for ExchangeType ${exchange.type}`);
  if (exchange.name === '' && queue === '')
    throw new ComponentConfigError(
      c,
      'QueueName',
      undefined,
      'a queue name when no ExchangeName is given (a server-named queue on the default exchange receives nothing)',
    );
  if (queue === '' && (exchange.type === 'direct' || exchange.type === 'topic') && routingKeys.length === 0) {
    throw new ComponentConfigError(c, 'RoutingKey', undefined, `at least one routing key: a server-named queue on a ${exchange.type} exchange needs a binding`);
  }
  if (exchange.name === '' && routingKeys.length > 0)
    throw new ComponentConfigError(c, 'RoutingKey', routingKeys, 'no RoutingKey without ExchangeName (the default exchange cannot be bound)');
  if (Object.keys(bindArguments).length > 0 && exchange.type !== 'headers')
    throw new ComponentConfigError(c, 'BindingArguments', bindArguments, 'BindingArguments only with ExchangeType headers');
  const xMatch = bindArguments['x-match'];
  if (xMatch !== undefined && !['all', 'any', 'all-with-x', 'any-with-x'].includes(xMatch))
    throw new ComponentConfigError(c, 'BindingArguments', bindArguments, '"x-match" all or any');
  return { exchange, queue, routingKeys, bindArguments, flags: readFlags(reader) };
}

/** An integer within [min, max], or undefined when absent or empty. */
export function optionalInt(reader: ConfigReader, key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  return reader.has(key) ? reader.int(key, 0, { min, max }) : undefined;
}

/** A string or a list of strings (RoutingKey); empty entries are dropped. */
function stringList(reader: ConfigReader, key: string): string[] {
  const v = reader.raw(key);
  if (v === undefined) return [];
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return (v as string[]).filter((x) => x !== '');
  throw new ComponentConfigError(reader.component, key, v, 'a string or a list of strings');
}

/**
 * The Reconnector of an AMQP 0-9-1 component, wired to its actor: timers owned by the incarnation,
 * configuration errors stay FAILED (retrying cannot help); an outage is retried for as long as it lasts, in
 * MaxRetry cycles (src/runtime/reconnector.ts).
 */
export function amqpReconnector<S>(
  ctx: ActorContext<never>,
  env: ComponentEnv,
  settings: ReconnectSettings,
  connect: () => Promise<S>,
  onConnected: (session: S, attempts: number) => void,
  discard: (session: S) => void,
): Reconnector<S> {
  return new Reconnector<S>({
    name: env.name,
    connect,
    onConnected: (session, info) => onConnected(session, info.attempts),
    discard,
    isFatal: isFatalAmqpError,
    fatalRetryMs: ctx.policy.fatalRetryMs,
    ...settings,
    logger: env.logger,
    status: env.status,
    timers: { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms), clearTimer: (h) => ctx.clearTimer(h as TimerHandle) },
  });
}

/**
 * Hands a lost session to the reconnector. A channel the broker closed over an error of ours (406 unknown
 * delivery tag, 404 on a publish, ...) is not an outage: it is logged at error level with its reason,
 * counted in the status (`channelErrors`) and the session is re-opened at once. Any other loss is an
 * outage (logged once, status RETRYING).
 */
export function reportSessionLost<S>(
  env: ComponentEnv,
  reconnector: Reconnector<S> | undefined,
  session: S,
  error: unknown,
  context: Record<string, unknown> = {},
): void {
  if (error instanceof AmqpChannelError) {
    env.status.count('channelErrors');
    env.logger.error('the broker closed the channel over an error; re-opening it', {
      component: env.name,
      replyCode: error.code,
      reason: error.reason,
      ...context,
    });
    reconnector?.lost(error, session, 'client-fault');
  } else reconnector?.lost(error, session);
}
