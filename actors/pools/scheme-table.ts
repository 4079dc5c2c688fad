/**
 * The original's scheme → implementation table (docs/components/pools.md), for the schemes xroute implements.
 * Applied to the request's property map after the query pairs (docs/components/pools.md, step 3): HostName, Port and Logfile
 * are always set; ClassName and Operation only when absent, except that amqp without
 * ConnectionFactoryName always selects the AMQP 0-9-1 class. Any other scheme is "not supported" (RC 2).
 */
import { Address, filePathOf } from '../support/address';
import { POOL_RC, PoolProperties, PoolRequestError } from './pool-request';
import { NameTable } from '../../src/foundation/name-table';

export type PoolKind = 'persister' | 'receiver';

const SUPPORTED_SCHEMES: Readonly<Record<PoolKind, readonly string[]>> = {
  persister: ['tcp', 'file', 'http', 'https', 'amqp', 'amqps'],
  receiver: ['tcp', 'file', 'amqp', 'amqps'],
};

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, amqp: 5672, amqps: 5671 };

/** A value counts as absent when it is missing or an empty string (as for DefaultProperty filling). */
export function isAbsent(props: PoolProperties, key: string): boolean {
  const v = props[key];
  return v === undefined || (typeof v === 'string' && v === '');
}

function text(props: PoolProperties, key: string): string {
  const v = props[key];
  return typeof v === 'string' ? v : '';
}

function setIfAbsent(props: PoolProperties, key: string, value: string): void {
  if (isAbsent(props, key)) props[key] = value;
}

function unsupported(kind: PoolKind, reason: string): never {
  throw new PoolRequestError(POOL_RC.NOT_FOUND, `${kind === 'persister' ? 'PersisterPool' : 'ReceiverPool'}: ${reason}`);
}

function setHostPort(props: PoolProperties, address: Address): void {
  props.HostName = address.host;
  const port = address.port ?? DEFAULT_PORTS[address.scheme];
  if (port !== undefined) props.Port = String(port);
}

/** What one scheme does to a request's properties: chooses the class and fills the scheme's keys. */
type SchemeMapping = (kind: PoolKind, address: Address, props: PoolProperties) => void;

function cls(kind: PoolKind, name: string): string {
  return `${kind}.${name}`;
}

function hasConnectionFactory(props: PoolProperties): boolean {
  return !isAbsent(props, 'ConnectionFactoryName');
}

function noJndi(kind: PoolKind, scheme: string): never {
  return unsupported(
    kind,
    `${scheme}:// with ConnectionFactoryName names a JNDI provider, which xroute does not have; JMS classes are reached with amqp:// and ConnectionFactoryName`,
  );
}

const fileScheme: SchemeMapping = (kind, address, props) => {
  if (hasConnectionFactory(props)) noJndi(kind, address.scheme);
  const path = filePathOf(address.raw);
  const op = text(props, 'Operation');
  if (kind === 'receiver') {
    setIfAbsent(props, 'ClassName', cls(kind, 'StreamReceiver'));
    setIfAbsent(props, 'Operation', 'read');
  } else if (path !== '-' && (op === 'download' || op === 'store')) {
    setIfAbsent(props, 'ClassName', cls(kind, 'FilePersister'));
    props.Logfile = path;
  } else {
    setIfAbsent(props, 'ClassName', cls(kind, 'StreamPersister'));
    setIfAbsent(props, 'Operation', 'write');
  }
};

const tcpScheme: SchemeMapping = (kind, address, props) => {
  if (hasConnectionFactory(props)) noJndi(kind, address.scheme);
  setHostPort(props, address);
  const op = text(props, 'Operation');
  if (kind === 'persister') {
    if (op === 'provide' || op === 'publish') unsupported(kind, `operation ${op} needs ServerPersister, which xroute does not have`);
    setIfAbsent(props, 'ClassName', cls(kind, 'StreamPersister'));
    setIfAbsent(props, 'Operation', 'write');
  } else {
    const path = address.path;
    if (path !== '' && path !== '/' && path !== '/read' && op !== 'read')
      unsupported(kind, `tcp path ${path} selects ServerReceiver, which xroute does not have`);
    setIfAbsent(props, 'ClassName', cls(kind, 'StreamReceiver'));
    setIfAbsent(props, 'Operation', 'read');
  }
};

/** Persisters only (SUPPORTED_SCHEMES keeps receivers from reaching it). */
const httpScheme: SchemeMapping = (kind, address, props) => {
  setHostPort(props, address);
  setIfAbsent(props, 'ClassName', cls(kind, 'FilePersister'));
  setIfAbsent(props, 'Operation', 'store');
};

const amqpScheme: SchemeMapping = (kind, address, props) => {
  setHostPort(props, address);
  const topic = !isAbsent(props, 'TopicName');
  if (hasConnectionFactory(props)) {
    if (kind === 'persister') {
      setIfAbsent(props, 'ClassName', cls(kind, topic ? 'JMSPublisher' : 'JMSPersister'));
      setIfAbsent(props, 'Operation', topic ? 'pub' : 'put');
    } else {
      setIfAbsent(props, 'ClassName', cls(kind, topic ? 'JMSSubscriber' : 'JMSReceiver'));
      setIfAbsent(props, 'Operation', topic ? 'sub' : 'get');
    }
    setIfAbsent(props, 'IsPhysical', 'true');
    return;
  }
  if (kind === 'persister') {
    if (text(props, 'Operation') === 'display') unsupported(kind, 'operation display needs JMXPersister, which xroute does not have');
    props.ClassName = cls(kind, 'AmqpPersister');
    setIfAbsent(props, 'Operation', 'pub');
  } else {
    props.ClassName = cls(kind, 'AmqpReceiver');
    setIfAbsent(props, 'Operation', 'get');
  }
};

/** The scheme table (NameTable, the one registry style). */
const SCHEMES = new NameTable<SchemeMapping>('scheme', [
  ['file', fileScheme],
  ['tcp', tcpScheme],
  ['http', httpScheme],
  ['https', httpScheme],
  ['amqp', amqpScheme],
  ['amqps', amqpScheme],
]);

/** Chooses the implementation for the address and fills the scheme's keys into `props` (in place). */
export function applySchemeMapping(kind: PoolKind, address: Address, props: PoolProperties): void {
  const scheme = address.scheme;
  const mapping = SUPPORTED_SCHEMES[kind].includes(scheme) ? SCHEMES.find(scheme) : undefined;
  if (mapping === undefined) {
    const guess = SCHEMES.unknown(scheme, SUPPORTED_SCHEMES[kind]).suggestion;
    unsupported(
      kind,
      `scheme ${JSON.stringify(scheme)} is not supported${guess === undefined ? '' : `; did you mean ${JSON.stringify(guess)}?`}; supported: ${SUPPORTED_SCHEMES[kind].join(', ')}`,
    );
  }
  mapping(kind, address, props);
}
