/**
 * AmqpReceiver/AmqpPersister configuration without a broker: the original's samples, schema errors, the
 * cross-property rules, and the amqp-move topology that ships in config/.
 */
import * as path from 'path';
import { readFileSync } from 'fs';
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { AMQP_PERSISTER } from '../../../actors/persisters/amqp-persister';
import { defaultRegistry } from '../../../actors/index';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { parseJsonText, readJsonFile } from '../../../src/config/json-file';
import { loadTopology } from '../../../src/config/topology';
import { readReceiverSettings } from '../../../actors/receivers/amqp-receiver-settings';
import { readPersisterSettings } from '../../../actors/persisters/amqp-persister-settings';
import { Message } from '../../../src/message/message';

const SAMPLES = path.join(__dirname, '../../fixtures/samples');
const ROOT = path.join(__dirname, '../../..');

describe('the original samples', () => {
  it('reports the trailing comma of the RMQReceiver sample with its line and column', () => {
    expect(() => readJsonFile(path.join(SAMPLES, 'RMQReceiver.json'))).toThrow(/RMQReceiver\.json.*2[23]/s);
  });

  it('accepts the RMQReceiver sample once its trailing comma is removed', () => {
    const text = readFileSync(path.join(SAMPLES, 'RMQReceiver.json'), 'utf8').replace(/,(\s*})/, '$1');
    const sample = parseJsonText(text, 'RMQReceiver.json');
    expect(validateComponentConfig(AMQP_RECEIVER, sample, SAMPLES)).toEqual([]);
  });

  it('accepts the RMQPersister sample', () => {
    expect(validateComponentConfig(AMQP_PERSISTER, readJsonFile(path.join(SAMPLES, 'RMQPersister.json')), SAMPLES)).toEqual([]);
  });

  it('resolves the original class names to AmqpReceiver and AmqpPersister', () => {
    const registry = defaultRegistry();
    expect(registry.find('org.qbroker.receiver.RMQReceiver')).toBe(AMQP_RECEIVER);
    expect(registry.find('org.qbroker.persister.RMQPersister')).toBe(AMQP_PERSISTER);
  });

  it('reads the sample settings as the original meant them, with the password actually used', () => {
    const s = readReceiverSettings(
      'rcvr_rmq',
      { URI: 'amqp://broker1/', QueueName: 'QB_IN', Username: 'guest', Password: 'xxxx', XAMode: '1', StringProperty: { Hostname: 'broker1' } },
      '.',
      256,
    );
    expect(s.connection).toMatchObject({ protocol: 'amqp', hostname: 'broker1', port: 5672, vhost: '/', username: 'guest', password: 'xxxx' });
    expect(s.topology).toMatchObject({ queue: 'QB_IN', flags: { passive: true, durable: false, autoDelete: false } });
    expect(s.prefetch).toBe(256);
    expect(s.clientAck).toBe(true);
    const m = new Message();
    s.stamp(m);
    expect(m.getProperty('Hostname')).toBe('broker1');
  });
});

describe('configuration errors', () => {
  const receiver = (extra: Record<string, unknown>) => validateComponentConfig(AMQP_RECEIVER, { Name: 'r', QueueName: 'q', ...extra }, '.');

  it('suggests the right name for a misspelt property', () => {
    expect(receiver({ RoutingKye: 'a' })).toEqual([
      expect.objectContaining({ property: 'RoutingKye', message: expect.stringContaining('did you mean RoutingKey') }),
    ]);
  });

  it('refuses a Heartbeat that is not a whole number of seconds, naming the property', () => {
    expect(receiver({ Heartbeat: '2.5' })).toEqual([expect.objectContaining({ property: 'Heartbeat', severity: 'error' })]);
  });

  it('rejects an unknown exchange type', () => {
    expect(receiver({ ExchangeType: 'x-delayed' })[0]).toMatchObject({ property: 'ExchangeType' });
  });

  it('requires an exchange for a fanout, topic or headers type', () => {
    expect(receiver({ ExchangeType: 'fanout' })).toEqual([
      expect.objectContaining({ property: 'ExchangeName', message: 'is missing: expected an exchange name for ExchangeType fanout' }),
    ]);
  });

  it('refuses match arguments on anything but a headers exchange', () => {
    expect(receiver({ ExchangeName: 'x', BindingArguments: { a: 'b' } })[0]).toMatchObject({ property: 'BindingArguments' });
  });

  it('refuses a Partition larger than the output queue', () => {
    expect(() => readReceiverSettings('r', { QueueName: 'q', Partition: '0,20' }, '.', 10)).toThrow(/r: Partition "0,20"/);
  });

  it('uses the partition length as the prefetch', () => {
    expect(readReceiverSettings('r', { QueueName: 'q', Partition: '10,5' }, '.', 20).prefetch).toBe(5);
  });

  it('refuses a URI of another scheme, without echoing its password', () => {
    expect(() => readReceiverSettings('r', { QueueName: 'q', URI: 'http://u:secret@h/' }, '.', 10)).toThrow(/r: URI "http:\/\/u:\*\*\*@h\/"/);
  });

  it('takes credentials from the URI when Username/Password are absent, and the vhost from its path', () => {
    const s = readReceiverSettings('r', { QueueName: 'q', URI: 'amqps://app:p%40ss@mq.example:5999/prod' }, '.', 10);
    expect(s.connection).toMatchObject({ protocol: 'amqps', hostname: 'mq.example', port: 5999, vhost: 'prod', username: 'app', password: 'p@ss' });
  });

  it('names the TLS file it cannot read', () => {
    expect(() => readReceiverSettings('r', { QueueName: 'q', URI: 'amqps://h/', CAFile: 'no-such-ca.pem' }, '/tmp', 10)).toThrow(
      /r: CAFile "no-such-ca.pem".*readable PEM file/,
    );
  });

  it('renders a templated persister routing key from the message', () => {
    const s = readPersisterSettings('p', { ExchangeName: 'x', RoutingKey: 'orders.##Region##.##JMSType##' }, '.');
    expect(s.routingKey(Message.text('b', { Region: 'eu' }, { JMSType: 'new' }))).toBe('orders.eu.new');
  });

  it('publishes to the default exchange with the routing key of its QueueName, which it declares', () => {
    const s = readPersisterSettings('p', { QueueName: 'xroute.example.out', IsPassive: 'false', IsDurable: 'true' }, '.');
    expect([s.queue, s.routingKey(Message.text('b')), s.exchange.durable, s.exchange.passive]).toEqual([
      'xroute.example.out',
      'xroute.example.out',
      true,
      false,
    ]);
  });

  it('requires a routing key when the persister publishes to the default exchange', () => {
    expect(validateComponentConfig(AMQP_PERSISTER, { Name: 'p' }, '.')).toEqual([expect.objectContaining({ property: 'RoutingKey' })]);
  });
});

describe('config/amqp-move.json', () => {
  it('is a valid topology moving a queue to an exchange through one link', () => {
    const topology = loadTopology(path.join(ROOT, 'config/amqp-move.json'), defaultRegistry());
    expect(topology.components.map((c) => [c.name, c.definition.className, c.linkName])).toEqual(
      expect.arrayContaining([
        ['rcvr_in', 'receiver.AmqpReceiver', 'moving'],
        ['pstr_out', 'persister.AmqpPersister', 'moving'],
      ]),
    );
    expect(topology.links.get('moving')?.capacity).toBe(256);
  });
});
