/**
 * Configuration checks of JMSPersister, JMSPublisher and JMSReceiver, including the published samples
 * (IBM MQ wmq:// URIs: like the JMSSubscriber's vendor form, the queue-manager host becomes the AMQP endpoint).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { JMS_PUBLISHER } from '../../../actors/persisters/jms-publisher';
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { readSenderSettings, JMS_PERSISTER_KIND } from '../../../actors/persisters/jms-persister-settings';
import { readReceiverSettings } from '../../../actors/receivers/jms-receiver-settings';
import { defaultRegistry } from '../../../actors/index';
import { validateComponentConfig } from '../../../src/config/validate-component';

const samples = join(__dirname, '../../fixtures/samples');
const sample = (name: string) => JSON.parse(readFileSync(join(samples, `${name}.json`), 'utf8'));

describe('the published samples', () => {
  it.each([
    ['JMSPersister', JMS_PERSISTER],
    ['JMSPublisher', JMS_PUBLISHER],
    ['JMSReceiver', JMS_RECEIVER],
  ] as const)('%s validates, its wmq:// queue manager mapped to an AMQP endpoint, with warnings only', (name, def) => {
    const issues = validateComponentConfig(def, sample(name), samples);
    expect({ errors: issues.filter((i) => i.severity !== 'warning'), uriAdvice: issues.find((i) => i.property === 'URI')?.message }).toEqual({
      errors: [],
      uriAdvice: expect.stringMatching(/IBM MQ client URI: xroute connects over AMQP 1\.0 to amqp:\/\/\w+:5672\. Enable the queue manager's AMQP channel/),
    });
  });

  it('connects the JMSPersister sample to the queue manager host on the AMQP port 5672 and keeps its Persistence override', () => {
    const s = readSenderSettings(JMS_PERSISTER_KIND, 'pstr_json', sample('JMSPersister'), samples);
    expect({ endpoint: s.connection.resolved.endpoint, via: s.connection.resolved.via, queue: s.destination, durable: s.durable }).toEqual({
      endpoint: { host: 'pandan1', port: 5672, tls: false, username: undefined, password: undefined },
      via: 'vendor',
      queue: 'JSON_IN',
      durable: false,
    });
  });

  it('finds the three classes by their original names', () => {
    const registry = defaultRegistry();
    expect(
      ['org.qbroker.persister.JMSPersister', 'org.qbroker.persister.JMSPublisher', 'org.qbroker.receiver.JMSReceiver'].map(
        (c) => registry.resolve('x', c).className,
      ),
    ).toEqual(['persister.JMSPersister', 'persister.JMSPublisher', 'receiver.JMSReceiver']);
  });
});

describe('configuration errors', () => {
  it('requires QueueName for a JMSPersister', () => {
    expect(validateComponentConfig(JMS_PERSISTER, { Name: 'p', URI: 'amqp://h' }, samples)).toEqual([
      { property: 'QueueName', message: 'required', severity: 'error' },
    ]);
  });

  it('requires TopicName for a JMSPublisher', () => {
    expect(validateComponentConfig(JMS_PUBLISHER, { Name: 'p', URI: 'amqp://h' }, samples)).toEqual([
      { property: 'TopicName', message: 'required', severity: 'error' },
    ]);
  });

  it('refuses a Priority outside 0-9 and a Persistence other than 1 or 2, naming the property', () => {
    const issues = [
      ...validateComponentConfig(JMS_PERSISTER, { Name: 'p', URI: 'amqp://h', QueueName: 'q', Priority: '12' }, samples),
      ...validateComponentConfig(JMS_PERSISTER, { Name: 'p', URI: 'amqp://h', QueueName: 'q', Persistence: '3' }, samples),
    ];
    expect(issues.map((i) => i.property)).toEqual(['Priority', 'Persistence']);
  });

  it('refuses a URI scheme that is not AMQP with the URI and what was expected', () => {
    const issues = validateComponentConfig(JMS_RECEIVER, { Name: 'r', URI: 'jnp://localhost:1100', QueueName: 'q' }, samples);
    expect(issues).toEqual([{ property: 'URI', message: expect.stringMatching(/^scheme "jnp" cannot be used: .*amqp:\/\/localhost:5672/), severity: 'error' }]);
  });

  it.each([
    ['-1', 'IdleTimeout'],
    ['500', 'IdleTimeout'],
    ['soon', 'IdleTimeout'],
  ])('refuses an IdleTimeout of %s, naming the property and what it takes', (value) => {
    const issues = [JMS_RECEIVER, JMS_PERSISTER].flatMap((def) =>
      validateComponentConfig(def, { Name: 'x', URI: 'amqp://h', QueueName: 'q', IdleTimeout: value }, samples),
    );
    expect(issues).toEqual([
      expect.objectContaining({ property: 'IdleTimeout', severity: 'error' }),
      expect.objectContaining({ property: 'IdleTimeout', severity: 'error' }),
    ]);
  });

  it('says what an IdleTimeout below a second must be instead', () => {
    expect(() => readReceiverSettings('r', { URI: 'amqp://h', QueueName: 'q', IdleTimeout: '500' }, '.')).toThrow(
      /IdleTimeout.*"500".*0 \(off\) or at least 1000 ms/,
    );
  });

  it('reads IdleTimeout 0 as no liveness watch and a value as milliseconds', () => {
    const limit = (IdleTimeout: string) =>
      readSenderSettings(JMS_PERSISTER_KIND, 'p', { URI: 'amqp://h', QueueName: 'q', IdleTimeout }, '.').connection.idleTimeoutMs;
    expect([limit('0'), limit('3000')]).toEqual([0, 3000]);
  });

  it('reports a receiver selector that does not parse on MessageSelector', () => {
    const issues = validateComponentConfig(JMS_RECEIVER, { Name: 'r', URI: 'amqp://h', QueueName: 'q', MessageSelector: 'a = ' }, samples);
    expect(issues.map((i) => i.property)).toEqual(['MessageSelector']);
  });

  it('defaults the receiver to XAMode 1 and accepting unselected messages', () => {
    const s = readReceiverSettings('r', { URI: 'amqp://h', QueueName: 'q' }, samples);
    expect({ xaMode: s.xaMode, unselected: s.unselected, daemon: s.daemon }).toEqual({ xaMode: 1, unselected: 'accept', daemon: false });
  });
});
