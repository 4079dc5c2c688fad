/**
 * `xroute validate` on JMS configurations written for Java clients: what to change for AMQP 1.0 (IBM MQ
 * queue-manager form, JNDI provider URLs, vendor URLs) and which properties have no effect.
 */
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { ConfigIssue } from '../../../src/runtime/component';

const byProperty = (issues: ConfigIssue[]) => Object.fromEntries(issues.map((i) => [i.property, `${i.severity}: ${i.message}`]));

describe('migration advice of xroute validate', () => {
  it('tells an IBM MQ HostName configuration which AMQP URI it gets (port 5672) and what to enable on the queue manager', () => {
    const issues = validateComponentConfig(JMS_SUBSCRIBER, { Name: 's', HostName: 'mq1', TopicName: 't' }, '.');
    expect(byProperty(issues)).toEqual({
      HostName: expect.stringMatching(
        /^warning: HostName\/Port name an IBM MQ queue manager: xroute connects over AMQP 1\.0 to amqp:\/\/mq1:5672\. Enable the queue manager's AMQP channel \(DEFINE CHANNEL\(name\) CHLTYPE\(AMQP\) PORT\(5672\); START CHANNEL\(name\)\) and write URI "amqp:\/\/mq1:5672" instead/,
      ),
    });
  });

  it('warns that port 1414 of a wmq:// URI is the MQ client listener, not AMQP', () => {
    const issues = validateComponentConfig(JMS_RECEIVER, { Name: 'r', URI: 'wmq://mq2:1414/QM1', QueueName: 'IN' }, '.');
    expect(byProperty(issues).URI).toMatch(
      /URI wmq:\/\/mq2:1414\/QM1 is an IBM MQ client URI: xroute connects over AMQP 1\.0 to amqp:\/\/mq2:1414; port 1414 is MQ's client \(MQI\) listener, which does not speak AMQP/,
    );
  });

  it('names every queue-manager property that has no effect, with the reason', () => {
    const issues = validateComponentConfig(
      JMS_PERSISTER,
      { Name: 'p', URI: 'amqp://mq1:5672', QueueName: 'IN', QueueManager: 'QM1', ChannelName: 'SYSTEM.DEF.SVRCONN', SecurityExit: 'exit', StoreOption: 'x' },
      '.',
    );
    expect(byProperty(issues)).toEqual({
      QueueManager: expect.stringMatching(/^warning: QueueManager has no effect over AMQP 1\.0: an AMQP channel belongs to one queue manager/),
      ChannelName: expect.stringMatching(
        /^warning: ChannelName has no effect over AMQP 1\.0: an MQI server-connection channel; xroute uses the queue manager's AMQP channel/,
      ),
      SecurityExit: expect.stringMatching(/^warning: SecurityExit has no effect over AMQP 1\.0: MQ client exits do not run/),
      StoreOption: expect.stringMatching(/^warning: StoreOption has no effect/),
    });
  });

  it.each([
    ['t3://wls1:7001', /scheme "t3" cannot be used: .*WebLogic JMS has no AMQP 1\.0 listener: bridge its destinations/],
    ['tcp://amq1:61616', /scheme "tcp" cannot be used: .*OpenWire.*amqp:\/\/amq1:5672 on ActiveMQ Classic.*amqp:\/\/amq1:61616 on Artemis/],
    ['ldap://dir1/cn=jms', /scheme "ldap" cannot be used: .*JNDI directory; look up the broker host/],
    ['jnp://jboss1:1099', /scheme "jnp" cannot be used: .*JBoss naming \(JNDI\) URL.*amqp:\/\/jboss1:5672/],
  ])('says what to write instead of %s', (uri, message) => {
    const issues = validateComponentConfig(JMS_SUBSCRIBER, { Name: 's', URI: uri, TopicName: 't' }, '.');
    expect(issues).toEqual([{ property: 'URI', message: expect.stringMatching(message), severity: 'error' }]);
  });

  it('gives a plain amqp:// configuration no warning', () => {
    expect(validateComponentConfig(JMS_SUBSCRIBER, { Name: 's', URI: 'amqp://broker:5672', TopicName: 't' }, '.')).toEqual([]);
  });
});
