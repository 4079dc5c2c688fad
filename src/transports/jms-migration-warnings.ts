/**
 * The warnings `xroute validate` prints for a JMS configuration that resolved but was written for a Java client
 * stack (docs/jms-migration.md): the IBM MQ queue-manager form, and properties without effect over AMQP 1.0.
 */
import { ComponentConfig, ConfigIssue } from '../runtime/component';
import { ResolvedEndpoint } from './amqp10-endpoint';
import { AMQP_DEFAULT_PORT } from './jms-migration';

/** What each Java-client-only property was for, and why it does nothing over AMQP 1.0. */
const NO_EFFECT_REASONS: Readonly<Record<string, string>> = {
  QueueManager: "an AMQP channel belongs to one queue manager, so the URI's host and port select it",
  ChannelName: "an MQI server-connection channel; xroute uses the queue manager's AMQP channel (CHLTYPE(AMQP)) at the URI's port",
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
    const portNote =
      resolved.endpoint.port === 1414 ? "; port 1414 is MQ's client (MQI) listener, which does not speak AMQP: give the AMQP channel's port" : '';
    warn(
      uri !== '' ? 'URI' : 'HostName',
      `${from}: xroute connects over AMQP 1.0 to ${target}${portNote}. Enable the queue manager's AMQP channel (DEFINE CHANNEL(name) CHLTYPE(AMQP) PORT(${AMQP_DEFAULT_PORT}); START CHANNEL(name)) and write URI "${target}" instead (docs/jms-migration.md)`,
    );
  }
  for (const property of resolved.ineffective) {
    const reason = NO_EFFECT_REASONS[property] ?? 'it has no AMQP 1.0 equivalent';
    warn(property, `${property} has no effect over AMQP 1.0: ${reason}; remove it`);
  }
  return issues;
}
