/**
 * Where a JMS component connects, from its configuration (docs/components/jms-subscriber.md, mapped onto AMQP 1.0):
 *  - URI amqp://[user:pass@]host[:port][/vhost] or amqps://... : the broker itself;
 *  - URI naming a Qpid-JMS-style jndi.properties file (file:... or *.properties, relative to the
 *    configuration's directory): ConnectionFactoryName and TopicName/QueueName are resolved in it
 *    (`connectionfactory.<name> = amqp://…`, `topic.<name> = <physical>`), Principal/Credentials are its login;
 *  - vendor queue-manager properties (HostName, Port, or URI wmq://host[:port]/QM): HostName and Port give the
 *    AMQP endpoint, port 5672 by default (the AMQP channel's, not MQ's client port 1414).
 * Properties that cannot mean anything over AMQP 1.0 (QueueManager, ChannelName, SecurityExit, ...) are
 * accepted and listed in `ineffective`, for the component to report once at start-up.
 */
import { existsSync } from 'fs';
import { isAbsolute, resolve } from 'path';
import { fileURLToPath } from 'url';
import { ComponentConfig, ConfigValue } from '../runtime/component';
import { Amqp10Endpoint } from './amqp10-connection';
import { JmsConfigError } from './amqp10-errors';
import { readPropertiesFile } from './jndi-properties';
import { rememberSecret } from '../logging/redact';
import { AMQP_DEFAULT_PORT, unsupportedSchemeMessage } from './jms-migration';

export type DestinationKind = 'topic' | 'queue';

export interface ResolvedEndpoint {
  readonly endpoint: Amqp10Endpoint;
  /** The physical destination name (TopicName / QueueName after any JNDI lookup). */
  readonly destination: string;
  /** How the endpoint was found. */
  readonly via: 'uri' | 'jndi' | 'vendor';
  /** Configured properties that have no effect over AMQP 1.0. */
  readonly ineffective: readonly string[];
}

/** Vendor (queue-manager) properties with no AMQP 1.0 meaning. */
const VENDOR_ONLY = ['QueueManager', 'ChannelName', 'SecurityExit', 'SecurityData', 'StoreOption', 'BrokerVersion'];
/** JNDI properties that only select a Java naming provider. */
const JNDI_ONLY = ['ContextFactory', 'URLPkgs', 'StateFactories'];

function configString(config: ComponentConfig, key: string): string | undefined {
  const v: ConfigValue | undefined = config[key];
  return typeof v === 'string' ? v : undefined;
}

export function resolveEndpoint(component: string, config: ComponentConfig, baseDir: string, kind: DestinationKind): ResolvedEndpoint {
  const uri = configString(config, 'URI')?.trim();
  const destKey = kind === 'topic' ? 'TopicName' : 'QueueName';
  const destName = configString(config, destKey)?.trim();
  const present = (keys: string[]) => keys.filter((k) => configString(config, k) !== undefined);
  const fail = (property: string, reason: string): never => {
    throw new JmsConfigError(component, property, reason);
  };

  if (uri !== undefined && uri !== '' && isPropertiesFile(uri)) {
    const path = propertiesPath(uri, baseDir);
    if (!existsSync(path)) fail('URI', `the JNDI properties file ${path} does not exist`);
    let props: Map<string, string>;
    try {
      props = readPropertiesFile(path);
    } catch (e) {
      return fail('URI', `cannot read the JNDI properties file ${path}: ${(e as Error).message}`);
    }
    const factories = [...props.keys()].filter((k) => k.startsWith('connectionfactory.')).map((k) => k.slice('connectionfactory.'.length));
    let cfName = configString(config, 'ConnectionFactoryName')?.trim();
    if (cfName === undefined || cfName === '') {
      if (factories.length !== 1)
        fail('ConnectionFactoryName', `required to choose one of the connection factories in ${path} (${factories.join(', ') || 'none defined'})`);
      cfName = factories[0];
    }
    const cfUrl = props.get(`connectionfactory.${cfName}`);
    if (cfUrl === undefined) fail('ConnectionFactoryName', `${JSON.stringify(cfName)} is not defined in ${path}; defined: ${factories.join(', ') || 'none'}`);
    const parsed = parseAmqpUrl(cfUrl!, (reason) => fail('ConnectionFactoryName', `connectionfactory.${cfName} in ${path}: ${reason}`));
    if (destName === undefined || destName === '') fail(destKey, 'required');
    const dynamicPrefix = kind === 'topic' ? 'dynamicTopics/' : 'dynamicQueues/';
    const physical = destName!.startsWith(dynamicPrefix) ? destName!.slice(dynamicPrefix.length) : props.get(`${kind}.${destName}`);
    if (physical === undefined) {
      const known = [...props.keys()].filter((k) => k.startsWith(`${kind}.`)).map((k) => k.slice(kind.length + 1));
      fail(destKey, `${JSON.stringify(destName)} is not defined in ${path} (as ${kind}.${destName}); defined: ${known.join(', ') || 'none'}`);
    }
    const username =
      configString(config, 'Principal') ??
      props.get('java.naming.security.principal') ??
      configString(config, 'Username') ??
      parsed.query.get('jms.username') ??
      parsed.username;
    const password =
      configString(config, 'Credentials') ??
      props.get('java.naming.security.credentials') ??
      configString(config, 'Password') ??
      parsed.query.get('jms.password') ??
      parsed.password;
    // The credentials of a jndi.properties file are secrets as much as a Password property is.
    for (const secret of [props.get('java.naming.security.credentials'), parsed.query.get('jms.password'), parsed.password])
      if (typeof secret === 'string') rememberSecret(secret);
    return {
      endpoint: { ...parsed.endpoint, username, password },
      destination: physical!,
      via: 'jndi',
      ineffective: present([...JNDI_ONLY, ...VENDOR_ONLY, 'HostName', 'Port']),
    };
  }

  if (destName === undefined || destName === '') fail(destKey, 'required');

  const hostName = configString(config, 'HostName')?.trim();
  if (uri === undefined || uri === '' || /^wmq:/i.test(uri)) {
    // vendor mode: wmq://host[:port]/QM or HostName/Port
    let host = hostName;
    let port = configString(config, 'Port')?.trim();
    if (uri && /^wmq:/i.test(uri)) {
      const m = /^wmq:\/\/([^/:]*)(?::(\d+))?/i.exec(uri);
      host = host || m?.[1] || undefined;
      port = port ?? m?.[2];
    }
    if (!host) fail('URI', 'required: amqp://host:port, amqps://host:port or the path of a jndi.properties file (or HostName for a queue manager)');
    const portNumber = parsePort(port ?? String(AMQP_DEFAULT_PORT), (reason) => fail('Port', reason));
    return {
      endpoint: { host: host!, port: portNumber, tls: false, username: configString(config, 'Username'), password: configString(config, 'Password') },
      destination: destName!,
      via: 'vendor',
      ineffective: present([...VENDOR_ONLY, ...JNDI_ONLY, 'ConnectionFactoryName', 'Principal', 'Credentials']),
    };
  }

  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme !== 'amqp' && scheme !== 'amqps') {
    const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^:/?,)]+)/i.exec(uri)?.[1];
    fail('URI', unsupportedSchemeMessage(scheme ?? uri, host, configString(config, 'ContextFactory')));
  }
  const parsed = parseAmqpUrl(uri, (reason) => fail('URI', reason));
  const hostOverride = hostName ? { host: hostName } : {};
  return {
    endpoint: {
      ...parsed.endpoint,
      ...hostOverride,
      username: configString(config, 'Username') ?? configString(config, 'Principal') ?? parsed.username,
      password: configString(config, 'Password') ?? configString(config, 'Credentials') ?? parsed.password,
    },
    destination: destName!,
    via: 'uri',
    ineffective: present([...JNDI_ONLY, ...VENDOR_ONLY, 'ConnectionFactoryName']),
  };
}

function isPropertiesFile(uri: string): boolean {
  return /^file:/i.test(uri) || /\.properties$/i.test(uri);
}

function propertiesPath(uri: string, baseDir: string): string {
  const path = /^file:/i.test(uri) ? (uri.startsWith('file://') ? fileURLToPath(uri) : uri.slice(5)) : uri;
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

function parsePort(text: string, fail: (reason: string) => never): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) fail(`${JSON.stringify(text)} is not a port number (1-65535)`);
  return Number(text);
}

interface ParsedUrl {
  endpoint: Amqp10Endpoint;
  username?: string;
  password?: string;
  query: URLSearchParams;
}

/** amqp://[user[:pass]@]host[:port][/vhost][?query]; the password is never part of an error text. */
function parseAmqpUrl(text: string, fail: (reason: string) => never): ParsedUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`${JSON.stringify(text.replace(/\/\/[^@/]*@/, '//***@'))} is not a valid amqp:// or amqps:// URL`);
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'amqp' && scheme !== 'amqps') fail(`scheme ${scheme} is not amqp or amqps`);
  if (url.hostname === '') fail('the URL has no host');
  const tls = scheme === 'amqps';
  const port = url.port === '' ? (tls ? 5671 : 5672) : Number(url.port);
  const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return {
    endpoint: { host: url.hostname.replace(/^\[|\]$/g, ''), port, tls, vhost: path === '' ? undefined : path },
    username: url.username === '' ? undefined : decodeURIComponent(url.username),
    password: url.password === '' ? undefined : decodeURIComponent(url.password),
    query: url.searchParams,
  };
}
