/**
 * The original's scheme → implementation table (components.md §5.4), for the schemes xroute implements.
 * Applied to the request's property map after the query pairs (§5.5 step 3): HostName, Port and Logfile
 * are always set; ClassName and Operation only when absent, except that amqp without
 * ConnectionFactoryName always selects the AMQP 0-9-1 class. Any other scheme is "not supported" (RC 2).
 */
import { Address, filePathOf } from '../support/address';
import { POOL_RC, PoolProperties, PoolRequestError } from './pool-request';

export type PoolKind = 'persister' | 'receiver';

export const SUPPORTED_SCHEMES: Readonly<Record<PoolKind, readonly string[]>> = {
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

/** Chooses the implementation for the address and fills the scheme's keys into `props` (in place). */
export function applySchemeMapping(kind: PoolKind, address: Address, props: PoolProperties): void {
  const scheme = address.scheme;
  const hasCF = !isAbsent(props, 'ConnectionFactoryName');
  const op = text(props, 'Operation');
  const cls = (name: string) => `${kind}.${name}`;
  const noJndi = () =>
    unsupported(kind, `${scheme}:// with ConnectionFactoryName names a JNDI provider, which xroute does not have; JMS classes are reached with amqp:// and ConnectionFactoryName`);

  if (scheme === 'file') {
    if (hasCF) noJndi();
    const path = filePathOf(address.raw);
    if (kind === 'receiver') {
      setIfAbsent(props, 'ClassName', cls('StreamReceiver'));
      setIfAbsent(props, 'Operation', 'read');
    } else if (path !== '-' && (op === 'download' || op === 'store')) {
      setIfAbsent(props, 'ClassName', cls('FilePersister'));
      props.Logfile = path;
    } else {
      setIfAbsent(props, 'ClassName', cls('StreamPersister'));
      setIfAbsent(props, 'Operation', 'write');
    }
    return;
  }
  if (scheme === 'tcp') {
    if (hasCF) noJndi();
    setHostPort(props, address);
    if (kind === 'persister') {
      if (op === 'provide' || op === 'publish') unsupported(kind, `operation ${op} needs ServerPersister, which xroute does not have`);
      setIfAbsent(props, 'ClassName', cls('StreamPersister'));
      setIfAbsent(props, 'Operation', 'write');
    } else {
      const path = address.path;
      if (path !== '' && path !== '/' && path !== '/read' && op !== 'read') unsupported(kind, `tcp path ${path} selects ServerReceiver, which xroute does not have`);
      setIfAbsent(props, 'ClassName', cls('StreamReceiver'));
      setIfAbsent(props, 'Operation', 'read');
    }
    return;
  }
  if ((scheme === 'http' || scheme === 'https') && kind === 'persister') {
    setHostPort(props, address);
    setIfAbsent(props, 'ClassName', cls('FilePersister'));
    setIfAbsent(props, 'Operation', 'store');
    return;
  }
  if (scheme === 'amqp' || scheme === 'amqps') {
    setHostPort(props, address);
    const topic = !isAbsent(props, 'TopicName');
    if (hasCF) {
      if (kind === 'persister') {
        setIfAbsent(props, 'ClassName', cls(topic ? 'JMSPublisher' : 'JMSPersister'));
        setIfAbsent(props, 'Operation', topic ? 'pub' : 'put');
      } else {
        setIfAbsent(props, 'ClassName', cls(topic ? 'JMSSubscriber' : 'JMSReceiver'));
        setIfAbsent(props, 'Operation', topic ? 'sub' : 'get');
      }
      setIfAbsent(props, 'IsPhysical', 'true');
      return;
    }
    if (kind === 'persister') {
      if (op === 'display') unsupported(kind, 'operation display needs JMXPersister, which xroute does not have');
      props.ClassName = cls('AmqpPersister');
      setIfAbsent(props, 'Operation', 'pub');
    } else {
      props.ClassName = cls('AmqpReceiver');
      setIfAbsent(props, 'Operation', 'get');
    }
    return;
  }
  unsupported(kind, `scheme ${JSON.stringify(scheme)} is not supported; supported: ${SUPPORTED_SCHEMES[kind].join(', ')}`);
}
