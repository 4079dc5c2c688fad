/**
 * What a QBroker JMS configuration written for a Java client stack (JNDI providers, IBM MQ client properties,
 * vendor URLs) must change to run on xroute, which reaches every JMS broker over AMQP 1.0: the advice that
 * the configuration errors quote (the warnings `xroute validate` prints are in jms-migration-warnings.ts).
 * docs/jms-migration.md explains the same at length.
 */

/** The AMQP 1.0 port of a broker when nothing else says (IBM MQ's AMQP channel, ActiveMQ, Artemis, RabbitMQ). */
export const AMQP_DEFAULT_PORT = 5672;

const AMQP_TARGET = `Give amqp://host:port or amqps://host:port (the broker's AMQP 1.0 listener, port ${AMQP_DEFAULT_PORT} by default), or the path of a Qpid-JMS jndi.properties file naming the connection factory and destination`;

/** Why a non-AMQP URI scheme cannot work and what to write instead (for the URI configuration error). */
function schemeAdvice(scheme: string, host: string | undefined): string {
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
