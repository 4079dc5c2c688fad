/**
 * Configuration shared by the JMS-over-AMQP-1.0 components (JMSSubscriber, JMSReceiver, JMSPersister,
 * JMSPublisher): where to connect (URI, JNDI file, vendor properties), dialect, ClientID, reconnection,
 * and the schema of those properties. Errors name the component and the property.
 */
import { ComponentConfig, ConfigIssue } from '../../src/runtime/component';
import { JmsConfigError } from '../../src/transports/amqp10-errors';
import { DestinationKind, ResolvedEndpoint, resolveEndpoint } from '../../src/transports/amqp10-endpoint';
import { DIALECT_CHOICES, DialectChoice } from '../../src/transports/amqp10-dialect';
import { JmsSelector } from '../../src/jms/selector';
import { SelectorSyntaxError } from '../../src/jms/selector-errors';
import { migrationWarnings } from '../../src/transports/jms-migration-warnings';
import { secretStr } from '../../src/foundation/secret-properties';
import { ConfigReader, ComponentConfigError } from './config-values';
import { ReconnectSettings, readReconnectSettings, reconnectSchemaProperties } from './amqp091-config';
import { integerSchemas, integerSetting } from '../../src/foundation/schema-helpers';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../src/transports/amqp10-connection';
import { configuredTlsProperties, readTlsSettings, tlsSchemaProperties } from './tls-config';

const s = (description: string) => ({ type: 'string', description });

/** Liveness of the connection (docs/operations.md#liveness-of-broker-connections). */
const JMS_LIVENESS_INTEGERS = {
  IdleTimeout: integerSetting(
    'ms without any traffic from the broker (not even an empty frame) after which the connection is declared dead and reopened; sent to the broker, which then sends at least every half of it (default {default}; 0 = off, else at least 1000)',
    DEFAULT_IDLE_TIMEOUT_MS,
    { min: 0, pattern: '^\\s*\\d+\\s*$' },
  ),
};

/** Properties every JMS component understands (connection, JNDI, vendor, dialect, reconnection). */
export function jmsConnectionSchemaProperties(): Record<string, unknown> {
  return {
    URI: s('amqp://host:port, amqps://host:port, or the path of a Qpid-JMS jndi.properties file (file:… or *.properties)'),
    Username: s('SASL PLAIN user'),
    Password: secretStr('SASL PLAIN password'),
    ClientID: s('JMS ClientID = AMQP container id; ${CellID} is substituted'),
    Dialect: { type: 'string', enum: [...DIALECT_CHOICES], description: "auto (default: from the broker's open frame), activemq, artemis or rabbitmq" },
    ContextFactory: s('JNDI initial context factory (no effect over AMQP 1.0; reported at start-up)'),
    URLPkgs: s('JNDI URL packages (no effect over AMQP 1.0)'),
    StateFactories: s('JNDI state factories (no effect over AMQP 1.0)'),
    Principal: s('JNDI login user (used as the SASL user)'),
    Credentials: secretStr('JNDI login password (used as the SASL password)'),
    ConnectionFactoryName: s('connection factory looked up in the jndi.properties file (connectionfactory.<name>)'),
    IsPhysical: s('accepted for compatibility: names are always physical unless a jndi.properties file maps them'),
    QueueManager: s('queue manager (no effect over AMQP 1.0)'),
    HostName: s('broker host (with Port: the AMQP endpoint when URI is absent)'),
    Port: {
      type: 'string',
      pattern: '^\\s*\\d+\\s*$',
      description: 'AMQP port of the queue manager given by HostName (default 5672, its AMQP channel; not the MQ client port 1414)',
    },
    ChannelName: s('server-connection channel (no effect over AMQP 1.0)'),
    SecurityExit: s('security exit (no effect over AMQP 1.0)'),
    SecurityData: s('security exit data (no effect over AMQP 1.0)'),
    StoreOption: s('subscription store (no effect over AMQP 1.0)'),
    BrokerVersion: s('broker version (no effect over AMQP 1.0)'),
    ...tlsSchemaProperties(),
    ...reconnectSchemaProperties(),
    ...integerSchemas(JMS_LIVENESS_INTEGERS),
  };
}

export interface JmsConnectionSettings {
  readonly resolved: ResolvedEndpoint;
  readonly clientId?: string;
  readonly dialect: DialectChoice;
  readonly reconnect: ReconnectSettings;
  /** IdleTimeout: the connection's liveness limit in ms (0 = off). */
  readonly idleTimeoutMs: number;
  readonly cellId: string;
}

export function readJmsConnection(reader: ConfigReader, baseDir: string, kind: DestinationKind): JmsConnectionSettings {
  const cellId = reader.string('CellID', '0').trim() || '0';
  const clientId = substituteCellId(reader.string('ClientID'), cellId);
  return {
    resolved: withTls(resolveEndpoint(reader.component, reader.config, baseDir, kind), reader, baseDir),
    clientId: clientId === '' ? undefined : clientId,
    dialect: reader.oneOf('Dialect', DIALECT_CHOICES, 'auto'),
    reconnect: readReconnectSettings(reader),
    idleTimeoutMs: readIdleTimeout(reader),
    cellId,
  };
}

/** IdleTimeout: 0 (off) or at least a second: a shorter one would declare healthy connections dead. */
function readIdleTimeout(reader: ConfigReader): number {
  const ms = reader.integers(JMS_LIVENESS_INTEGERS).IdleTimeout;
  if (ms !== 0 && ms < 1000) throw new ComponentConfigError(reader.component, 'IdleTimeout', reader.string('IdleTimeout'), '0 (off) or at least 1000 ms');
  return ms;
}

/**
 * amqps:// endpoints (a URI, or a jndi.properties connection factory) get the TLS properties, files resolved
 * against baseDir; on a plain endpoint those properties mean nothing and are reported as such.
 */
function withTls(resolved: ResolvedEndpoint, reader: ConfigReader, baseDir: string): ResolvedEndpoint {
  if (resolved.endpoint.tls) return { ...resolved, endpoint: { ...resolved.endpoint, tlsSettings: readTlsSettings(reader, baseDir) } };
  const unused = configuredTlsProperties(reader);
  return unused.length === 0 ? resolved : { ...resolved, ineffective: [...resolved.ineffective, ...unused] };
}

export function substituteCellId(text: string | undefined, cellId: string): string | undefined {
  return text === undefined ? undefined : text.trim().split('${CellID}').join(cellId);
}

/** MessageSelector (plus StartDate/EndDate as JMSTimestamp bounds, docs/components/jms-subscriber.md), compiled. */
export function readSelector(reader: ConfigReader): JmsSelector | undefined {
  const parts: string[] = [];
  const selector = reader.string('MessageSelector')?.trim();
  if (selector) parts.push(`(${selector})`);
  for (const [key, op] of [
    ['StartDate', '>='],
    ['EndDate', '<='],
  ] as const) {
    const text = reader.string(key)?.trim();
    if (!text) continue;
    const ms = parseJmsDate(text);
    if (ms === undefined) throw new ComponentConfigError(reader.component, key, text, 'a date yyyy/MM/dd.HH:mm:ss.SSS');
    parts.push(`JMSTimestamp ${op} ${ms}`);
  }
  if (parts.length === 0) return undefined;
  try {
    if (selector) JmsSelector.compile(selector); // errors point into the configured selector, not the combined one
    return JmsSelector.compile(parts.length === 1 && selector ? selector : parts.join(' AND '));
  } catch (e) {
    if (e instanceof SelectorSyntaxError) throw new JmsConfigError(reader.component, 'MessageSelector', e.message, e);
    throw e;
  }
}

function parseJmsDate(text: string): number | undefined {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})\.(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, ms] = m;
  const t = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), Number(ms ?? 0)).getTime();
  return Number.isNaN(t) ? undefined : t;
}

/** For `xroute validate`: what a Java JMS client configuration must change for AMQP 1.0, from settings that read. */
export function jmsMigrationIssues(config: ComponentConfig, settings: { readonly connection: JmsConnectionSettings }): ConfigIssue[] {
  return migrationWarnings(config, settings.connection.resolved);
}

/** Reports, once per component, configured properties that mean nothing over AMQP 1.0. */
export function ineffectiveProperties(resolved: ResolvedEndpoint, extra: readonly string[], config: ComponentConfig): string[] {
  return [...resolved.ineffective, ...extra.filter((k) => config[k] !== undefined)];
}
