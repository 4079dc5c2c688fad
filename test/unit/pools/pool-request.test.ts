import { Message } from '../../../src/message/message';
import { ComponentRegistry } from '../../../src/runtime/component';
import { memoryLogger } from '../../../src/logging/logger';
import { Template } from '../../../src/rules/template';
import { XQueue } from '../../../src/xqueue/xqueue';
import {
  POOL_RC,
  PoolRequestError,
  TaskMap,
  parsePairs,
  requestPropertiesOf,
  requestUriOf,
  splitRequestUri,
  transmitQueueOf,
} from '../../../actors/pools/pool-request';
import { applySchemeMapping } from '../../../actors/pools/scheme-table';
import { fillDefaults, implementationKey, parseDefaultProperties } from '../../../actors/pools/default-properties';
import { parseAddress } from '../../../actors/support/address';
import { STREAM_PERSISTER } from '../../../actors/persisters/stream-persister';
import { STREAM_RECEIVER } from '../../../actors/receivers/stream-receiver';
import { FILE_PERSISTER } from '../../../actors/persisters/file-persister';

function mapped(kind: 'persister' | 'receiver', uri: string, props: Record<string, string> = {}) {
  const { uri: base, pairs } = splitRequestUri(uri);
  const p: Record<string, string> = { ...props, ...pairs, URI: base };
  applySchemeMapping(kind, parseAddress(uri)!, p);
  return p;
}

function rcOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof PoolRequestError ? e.rc : -99;
  }
  return undefined;
}

describe('pool request URI', () => {
  it('takes the query pairs and keeps the address without them', () => {
    expect(splitRequestUri('tcp://h:7227?Operation=request&ReceiveTime=3000')).toEqual({
      uri: 'tcp://h:7227',
      pairs: { Operation: 'request', ReceiveTime: '3000' },
    });
  });

  it('keeps the address with its own query string before the &URI=& separator', () => {
    expect(splitRequestUri('http://h/app?id=7&URI=&Operation=download&MaxIdleTime=60')).toEqual({
      uri: 'http://h/app?id=7',
      pairs: { Operation: 'download', MaxIdleTime: '60' },
    });
  });

  it('skips parts without "=", keeps empty values, lets a later duplicate win and decodes nothing', () => {
    expect(parsePairs('a=1&flag&b=&a=2&c=x%20y')).toEqual({ a: '2', b: '', c: 'x%20y' });
  });

  it('is the whole text when there is no query string', () => {
    expect(splitRequestUri('file:///tmp/out.txt')).toEqual({ uri: 'file:///tmp/out.txt', pairs: {} });
  });

  it('is read from the task map first, then the URIField property, then the Template, then the body', () => {
    const task = TaskMap.of({ URI: 'tcp://a:1' })!;
    const msg = Message.object({}, { URI: 'tcp://b:2', Host: 'c' });
    expect(requestUriOf(msg, task, { uriField: 'URI' })).toBe('tcp://a:1');
    expect(requestUriOf(msg, TaskMap.of({})!, { uriField: 'URI' })).toBe('tcp://b:2');
    const t = new Template('tcp://##Host##:3');
    expect(requestUriOf(Message.object({}, { Host: 'c' }), TaskMap.of({})!, { uriField: 'URI', template: t })).toBe('tcp://c:3');
    expect(requestUriOf(Message.text('tcp://d:4'), TaskMap.of({})!, { uriField: 'URI' })).toBe('tcp://d:4');
  });

  it('is empty for an ObjectMessage without URI, Template or text body', () => {
    expect(requestUriOf(Message.object({}), TaskMap.of({})!, { uriField: 'URI' })).toBe('');
  });

  it('uses the configured URIField name', () => {
    expect(requestUriOf(Message.object({}, { Target: 'tcp://x:1' }), TaskMap.of({})!, { uriField: 'Target' })).toBe('tcp://x:1');
  });
});

describe('pool request task map', () => {
  it('rejects a request without a transmit XQueue with RC 4', () => {
    expect(rcOf(() => transmitQueueOf(TaskMap.of({})!))).toBe(POOL_RC.REJECTED);
  });

  it('accepts a Map as the task map', () => {
    const q = new XQueue('t', 1);
    expect(transmitQueueOf(TaskMap.of(new Map<string, unknown>([['XQueue', q]]))!)).toBe(q);
  });

  it('clones the request Properties so the pool never shares them', () => {
    const props = { Template: '##body##', Nested: { a: 'b' } };
    const copy = requestPropertiesOf(TaskMap.of({ Properties: props })!);
    (copy.Nested as Record<string, string>).a = 'changed';
    expect(props.Nested.a).toBe('b');
  });

  it('rejects Properties that are not a map with RC 4', () => {
    expect(rcOf(() => requestPropertiesOf(TaskMap.of({ Properties: 'x' })!))).toBe(POOL_RC.REJECTED);
  });
});

describe('pool scheme table', () => {
  it('maps tcp to StreamPersister with operation write and sets HostName and Port', () => {
    expect(mapped('persister', 'tcp://svc:7227')).toMatchObject({ ClassName: 'persister.StreamPersister', Operation: 'write', HostName: 'svc', Port: '7227' });
  });

  it('keeps an Operation from the query string over the scheme default', () => {
    expect(mapped('persister', 'tcp://svc:7227?Operation=request').Operation).toBe('request');
  });

  it('maps file with an empty path or "-" to StreamPersister (stdout)', () => {
    expect(mapped('persister', 'file://-').ClassName).toBe('persister.StreamPersister');
    expect(mapped('persister', 'file://').ClassName).toBe('persister.StreamPersister');
  });

  it('maps file with a path to FilePersister only for download or store, setting Logfile', () => {
    expect(mapped('persister', 'file:///tmp/a.txt?Operation=download')).toMatchObject({ ClassName: 'persister.FilePersister', Logfile: '/tmp/a.txt' });
    expect(mapped('persister', 'file:///tmp/a.txt')).toMatchObject({ ClassName: 'persister.StreamPersister', Operation: 'write' });
  });

  it('maps http and https to FilePersister with operation store and the default port', () => {
    expect(mapped('persister', 'http://h/x')).toMatchObject({ ClassName: 'persister.FilePersister', Operation: 'store', Port: '80' });
    expect(mapped('persister', 'https://h:8443/x')).toMatchObject({ ClassName: 'persister.FilePersister', Port: '8443' });
  });

  it('maps amqp without ConnectionFactoryName to AmqpPersister, overwriting a ClassName given', () => {
    expect(mapped('persister', 'amqp://h', { ClassName: 'persister.StreamPersister' })).toMatchObject({
      ClassName: 'persister.AmqpPersister',
      Operation: 'pub',
    });
    expect(mapped('receiver', 'amqp://h')).toMatchObject({ ClassName: 'receiver.AmqpReceiver', Operation: 'get' });
  });

  it('maps amqp with ConnectionFactoryName to the JMS classes by TopicName', () => {
    expect(mapped('persister', 'amqp://h', { ConnectionFactoryName: 'cf' })).toMatchObject({ ClassName: 'persister.JMSPersister', Operation: 'put' });
    expect(mapped('persister', 'amqp://h', { ConnectionFactoryName: 'cf', TopicName: 't' })).toMatchObject({
      ClassName: 'persister.JMSPublisher',
      Operation: 'pub',
    });
    expect(mapped('receiver', 'amqp://h', { ConnectionFactoryName: 'cf' })).toMatchObject({ ClassName: 'receiver.JMSReceiver', Operation: 'get' });
    expect(mapped('receiver', 'amqp://h', { ConnectionFactoryName: 'cf', TopicName: 't' })).toMatchObject({
      ClassName: 'receiver.JMSSubscriber',
      Operation: 'sub',
    });
  });

  it('maps tcp and file to StreamReceiver for the receiver pool', () => {
    expect(mapped('receiver', 'tcp://h:1')).toMatchObject({ ClassName: 'receiver.StreamReceiver', Operation: 'read' });
    expect(mapped('receiver', 'tcp://h:1/read')).toMatchObject({ ClassName: 'receiver.StreamReceiver' });
    expect(mapped('receiver', 'file:///tmp/in.txt')).toMatchObject({ ClassName: 'receiver.StreamReceiver' });
  });

  it('rejects a scheme xroute does not implement with RC 2', () => {
    expect(rcOf(() => mapped('persister', 'wmq://host:1414/QM1?QueueName=IN'))).toBe(POOL_RC.NOT_FOUND);
    expect(rcOf(() => mapped('receiver', 'mq://localhost'))).toBe(POOL_RC.NOT_FOUND);
    expect(rcOf(() => mapped('receiver', 'http://h/x'))).toBe(POOL_RC.NOT_FOUND);
  });

  it('rejects the server-side classes xroute does not have with RC 2', () => {
    expect(rcOf(() => mapped('persister', 'tcp://h:1?Operation=provide'))).toBe(POOL_RC.NOT_FOUND);
    expect(rcOf(() => mapped('receiver', 'tcp://h:1/listen'))).toBe(POOL_RC.NOT_FOUND);
  });

  it('rejects tcp and file with ConnectionFactoryName (JNDI providers) with RC 2', () => {
    expect(rcOf(() => mapped('persister', 'tcp://h:1', { ConnectionFactoryName: 'cf' }))).toBe(POOL_RC.NOT_FOUND);
    expect(rcOf(() => mapped('receiver', 'file:///x', { ConnectionFactoryName: 'cf' }))).toBe(POOL_RC.NOT_FOUND);
  });
});

describe('pool DefaultProperty', () => {
  const registry = new ComponentRegistry([STREAM_PERSISTER, STREAM_RECEIVER, FILE_PERSISTER]);
  const logger = memoryLogger();

  it('keys entries by the short implementation id whatever package the ClassName names', () => {
    const d = parseDefaultProperties('pool', [{ ClassName: 'org.qbroker.persister.StreamReceiver', Mode: 'daemon' }], 'receiver', registry, logger);
    expect([...d.keys()]).toEqual(['streamreceiver']);
    expect(implementationKey(registry, 'receiver', 'receiver.StreamReceiver')).toBe('streamreceiver');
  });

  it('takes PoolSize out of the defaults', () => {
    const d = parseDefaultProperties(
      'pool',
      [{ ClassName: 'org.qbroker.persister.StreamPersister', PoolSize: '3', ReceiveTime: '7' }],
      'persister',
      registry,
      logger,
    );
    expect(d.get('streampersister')).toMatchObject({ poolSize: 3, properties: { ReceiveTime: '7' } });
  });

  it('ignores an entry without ClassName and a duplicate, with a warning each', () => {
    const entries = memoryLogger();
    const d = parseDefaultProperties(
      'pool',
      [{ Operation: 'x' }, { ClassName: 'persister.StreamPersister', A: '1' }, { ClassName: 'org.qbroker.persister.StreamPersister', A: '2' }],
      'persister',
      registry,
      entries,
    );
    expect(d.get('streampersister')?.properties.A).toBe('1');
    expect(entries.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'DefaultProperty entry without ClassName ignored',
      'duplicate DefaultProperty entry ignored',
    ]);
  });

  it('rejects a DefaultProperty that is not a list', () => {
    expect(() => parseDefaultProperties('pool', { ClassName: 'x' }, 'persister', registry, logger)).toThrow(/DefaultProperty/);
  });

  it('fills only the keys the request lacks or left empty, and never the URI', () => {
    const d = parseDefaultProperties(
      'pool',
      [{ ClassName: 'persister.StreamPersister', URI: 'tcp://default:1', ReceiveTime: '1000', Template: 'x', EOTBytes: '0x0a' }],
      'persister',
      registry,
      logger,
    );
    const props: Record<string, string> = { URI: 'tcp://mine:2', ReceiveTime: '3000', Template: '' };
    fillDefaults(props, d.get('streampersister'));
    expect(props).toEqual({ URI: 'tcp://mine:2', ReceiveTime: '3000', Template: 'x', EOTBytes: '0x0a' });
  });

  it('cannot override the Operation the scheme mapping set (the documented precedence)', () => {
    const d = parseDefaultProperties('pool', [{ ClassName: 'persister.StreamPersister', Operation: 'request' }], 'persister', registry, logger);
    const props = mapped('persister', 'tcp://h:1');
    fillDefaults(props, d.get('streampersister'));
    expect(props.Operation).toBe('write');
  });
});
