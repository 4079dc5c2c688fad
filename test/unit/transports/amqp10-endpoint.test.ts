import { join } from 'path';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { resolveEndpoint } from '../../../src/transports/amqp10-endpoint';
import { JmsConfigError } from '../../../src/transports/amqp10-errors';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { readFileSync } from 'fs';

const fixtures = join(__dirname, '../../fixtures/jms');

function error(fn: () => unknown): JmsConfigError {
  try {
    fn();
  } catch (e) {
    return e as JmsConfigError;
  }
  throw new Error('expected an error');
}

describe('where a JMS component connects', () => {
  it('takes host, port, vhost and login from an amqp:// URI, Username/Password winning', () => {
    const r = resolveEndpoint('c', { URI: 'amqp://u:p@h:5673/vh', TopicName: 't', Password: 'pw' }, fixtures, 'topic');
    expect(r).toEqual({
      endpoint: { host: 'h', port: 5673, tls: false, vhost: 'vh', username: 'u', password: 'pw' },
      destination: 't',
      via: 'uri',
      ineffective: [],
    });
  });

  it('resolves ConnectionFactoryName and TopicName in a jndi.properties file, with Credentials as the password', () => {
    const r = resolveEndpoint(
      'c',
      { URI: 'jndi.properties', ConnectionFactoryName: 'myFactory', TopicName: 'notifications', Credentials: 'secret', ContextFactory: 'x' },
      fixtures,
      'topic',
    );
    expect(r).toEqual({
      endpoint: { host: 'broker.example', port: 5673, tls: false, username: 'fileuser', password: 'secret' },
      destination: 'topic/Notification',
      via: 'jndi',
      ineffective: ['ContextFactory'],
    });
  });

  it('names the defined topics when TopicName is not in the jndi.properties file', () => {
    const e = error(() => resolveEndpoint('c', { URI: 'file:jndi.properties', ConnectionFactoryName: 'myFactory', TopicName: 'nope' }, fixtures, 'topic'));
    expect({ property: e.property, message: e.message }).toEqual({ property: 'TopicName', message: expect.stringContaining('defined: notifications') });
  });

  it('builds the endpoint from HostName and Port (default 5672, the AMQP port) and lists the queue-manager properties that have no effect', () => {
    const r = resolveEndpoint('c', { HostName: 'mq1', QueueManager: 'QM1', ChannelName: 'SYSTEM.DEF.SVRCONN', TopicName: 't' }, fixtures, 'topic');
    expect({ host: r.endpoint.host, port: r.endpoint.port, ineffective: r.ineffective }).toEqual({
      host: 'mq1',
      port: 5672,
      ineffective: ['QueueManager', 'ChannelName'],
    });
  });

  it('refuses a URI scheme other than AMQP with a clear reason', () => {
    const e = error(() =>
      resolveEndpoint('c', { URI: 'jnp://localhost:1100', TopicName: 't', ContextFactory: 'org.jnp.interfaces.NamingContextFactory' }, fixtures, 'topic'),
    );
    expect(e.message).toMatch(
      /URI: scheme "jnp" \(a JNDI provider URL for org\.jnp\.interfaces\.NamingContextFactory\) cannot be used: xroute reaches JMS brokers over AMQP 1\.0/,
    );
  });

  it('never shows a password from a malformed URI', () => {
    const e = error(() => resolveEndpoint('c', { URI: 'amqp://u:s3cret@:bad', TopicName: 't' }, fixtures, 'topic'));
    expect(e.message).not.toContain('s3cret');
  });
});

describe('JMSSubscriber configuration checks', () => {
  it('fails the original JBoss sample with a clear error on URI', () => {
    const sample = JSON.parse(readFileSync(join(fixtures, 'JMSSubscriber.json'), 'utf8'));
    const issues = validateComponentConfig(JMS_SUBSCRIBER, sample, fixtures);
    expect(issues).toEqual([
      { property: 'URI', message: expect.stringMatching(/^scheme "jnp".*JBoss naming.*amqp:\/\/localhost:5672.*jndi\.properties/), severity: 'error' },
    ]);
  });

  it('accepts the sample once URI points at an AMQP broker, warning about each JNDI property that has no effect', () => {
    const sample = JSON.parse(readFileSync(join(fixtures, 'JMSSubscriber.json'), 'utf8'));
    const issues = validateComponentConfig(JMS_SUBSCRIBER, { ...sample, URI: 'amqp://localhost:5672' }, fixtures);
    expect(issues.map((i) => `${i.severity} ${i.property}`)).toEqual(['warning ContextFactory', 'warning URLPkgs', 'warning ConnectionFactoryName']);
  });

  it('reports a selector that does not parse on MessageSelector, with position and reason', () => {
    const issues = validateComponentConfig(JMS_SUBSCRIBER, { Name: 's', URI: 'amqp://h', TopicName: 't', MessageSelector: "colour = 'red" }, fixtures);
    expect(issues).toEqual([{ property: 'MessageSelector', message: expect.stringMatching(/position 10: unterminated string literal/), severity: 'error' }]);
  });
});
