/**
 * What a QBroker JMS configuration written for a Java client stack (JNDI providers, IBM MQ client properties,
 * vendor URLs) must change to run on xroute, which reaches every JMS broker over AMQP 1.0: the advice that
 * `xroute validate` prints and the configuration errors quote. docs/jms-migration.md explains the same at length.
 */
import { ComponentConfig, ConfigIssue } from '../runtime/component';
import { ResolvedEndpoint } from './amqp10-endpoint';

/** The AMQP 1.0 port of a broker when nothing else says (IBM MQ's AMQP channel, ActiveMQ, Artemis, RabbitMQ). */
export const AMQP_DEFAULT_PORT = 5672;

const AMQP_TARGET = `Give amqp://host:port or amqps://host:port (the broker's AMQP 1.0 listener, port ${AMQP_DEFAULT_PORT} by default), or the path of a Qpid-JMS jndi.properties file naming the connection factory and destination`;

/** Why a non-AMQP URI scheme cannot work and what to write instead (for the URI configuration error). */
export function schemeAdvice(scheme: string, host: string | undefined): string {
  const h = host || 'host';
  switch (scheme) {
    case 'jnp':
      return `jnp:// is the JBoss naming (JNDI) URL; xroute loads no JNDI provider. Point URI at the broker behind it: amqp://${h}:${AMQP_DEFAULT_PORT} for JBoss/WildFly's Artemis with an AMQP acceptor (or an ActiveMQ), or a jndi.properties file`;
    case 't3':
    case 't3s':
      return `${scheme}:// is WebLogic's JNDI/RMI URL and WebLogic JMS has no AMQP 1.0 listener: bridge its destinations to an AMQP 1.0 broker (WebLogic messaging bridge, or an ActiveMQ/Artemis JMS bridge) and give that broker's amqp://host:${AMQP_DEFAULT_PORT}`;
    case 'ldap':
    case 'ldaps':
      return `${scheme}:// is a JNDI directory; look up the broker host of the connection factory there and give amqp://thathost:${AMQP_DEFAULT_PORT}, or copy the entries into a jndi.properties file`;
    case 'tcp':
    case 'nio':
    case 'ssl':
    case 'failover':
      return `${scheme}:// is an ActiveMQ OpenWire (or Artemis core) URL; give the broker's AMQP listener instead: amqp://${h}:${AMQP_DEFAULT_PORT} on ActiveMQ Classic (transportConnector amqp://0.0.0.0:5672), or amqp://${h}:61616 on Artemis (its default acceptor speaks AMQP too)`;
    case 'iiop':
    case 'corbaname':
      return `${scheme}:// is a CORBA naming URL of an application server's JNDI; give the AMQP 1.0 URI of the JMS broker behind it`;
    default:
      return AMQP_TARGET;
  }
}

/** The full text of the URI error for a scheme that is not AMQP. */
export function unsupportedSchemeMessage(scheme: string, host: string | undefined, contextFactory: string | undefined): string {
  const hint = contextFactory ? ` (a JNDI provider URL for ${contextFactory})` : '';
  return `scheme ${JSON.stringify(scheme)}${hint} cannot be used: xroute reaches JMS brokers over AMQP 1.0. ${schemeAdvice(scheme, host)} (docs/jms-migration.md)`;
}

/** What each Java-client-only property was for, and why it does nothing over AMQP 1.0. */
const NO_EFFECT_REASONS: Readonly<Record<string, string>> = {
  QueueManager: 'an AMQP channel belongs to one queue manager, so the URI\'s host and port select it',
  ChannelName: 'an MQI server-connection channel; xroute uses the queue manager\'s AMQP channel (CHLTYPE(AMQP)) at the URI\'s port',
  SecurityExit: 'MQ client exits do not run; authenticate with Username/Password (SASL PLAIN) and use amqps:// with the TLS properties',
  SecurityData: 'data for an MQ client exit, which does not run',
  StoreOption: 'an MQ subscription-store option without AMQP equivalent (durable subscriptions are ClientID + SubscriptionID)',
  BrokerVersion: 'an MQ client compatibility option without AMQP equivalent',
  ContextFactory: 'xroute loads no Java naming provider; the URI (amqp://… or a jndi.properties file) says where to connect',
  URLPkgs: 'a Java naming option; xroute loads no naming provider',
  StateFactories: 'a Java naming option; xroute loads no naming provider',
  ConnectionFactoryName: 'only a jndi.properties URI has connection factories to choose from',
  Principal: 'the JNDI login; only used with a jndi.properties URI (use Username)',
  Credentials: 'the JNDI password; only used with a jndi.properties URI (use Password)',
  HostName: 'only used with the queue-manager form or to override the host of an amqp:// URI',
  Port: 'only used with the queue-manager form',
};

function endpointText(resolved: ResolvedEndpoint): string {
  return `amqp://${resolved.endpoint.host}:${resolved.endpoint.port}`;
}

/**
 * Warnings for a configuration that resolved (no error) but was written for a Java JMS client: the IBM MQ
 * queue-manager form (wmq:// or HostName/Port) says which AMQP URI xroute will use and what to set on the queue
 * manager; each property without effect over AMQP 1.0 says why.
 */
export function migrationWarnings(config: ComponentConfig, resolved: ResolvedEndpoint): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const warn = (property: string, message: string) => issues.push({ property, message, severity: 'warning' });
  if (resolved.via === 'vendor') {
    const uri = typeof config.URI === 'string' ? config.URI.trim() : '';
    const target = endpointText(resolved);
    const from = uri !== '' ? `URI ${uri} is an IBM MQ client URI` : 'HostName/Port name an IBM MQ queue manager';
    const portNote = resolved.endpoint.port === 1414 ? '; port 1414 is MQ\'s client (MQI) listener, which does not speak AMQP: give the AMQP channel\'s port' : '';
    warn(uri !== '' ? 'URI' : 'HostName', `${from}: xroute connects over AMQP 1.0 to ${target}${portNote}. Enable the queue manager's AMQP channel (DEFINE CHANNEL(name) CHLTYPE(AMQP) PORT(${AMQP_DEFAULT_PORT}); START CHANNEL(name)) and write URI "${target}" instead (docs/jms-migration.md)`);
  }
  for (const property of resolved.ineffective) {
    const reason = NO_EFFECT_REASONS[property] ?? 'it has no AMQP 1.0 equivalent';
    warn(property, `${property} has no effect over AMQP 1.0: ${reason}; remove it`);
  }
  return issues;
}
