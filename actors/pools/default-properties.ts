/**
 * DefaultProperty entries of a pool (docs/components/pools.md), keyed by the short implementation id
 * ("StreamPersister"). The original's full names ("org.qbroker.persister.StreamPersister"), its alias
 * names ("RMQPersister") and the wrong packages of its own ReceiverPool sample
 * ("org.qbroker.persister.StreamReceiver") all name the same entry (docs/components/pools.md). Defaults come only from
 * these configured entries: a request never becomes the defaults of later requests (docs/components/pools.md).
 */
import { integerAtLeast } from '../../src/foundation/integer-text';
import { AnyComponentDefinition, ComponentRegistry, ConfigValue } from '../../src/runtime/component';
import { Logger } from '../../src/logging/logger';
import { ComponentConfigError } from '../support/config-values';
import { PoolProperties } from './pool-request';
import { PoolKind, isAbsent } from './scheme-table';

export interface ClassDefaults {
  /** Lower-case short implementation id, e.g. "streampersister". */
  readonly key: string;
  /** As configured, for messages. */
  readonly className: string;
  /** The entry's PoolSize, when given. */
  readonly poolSize?: number;
  /** What fills a request's missing keys (without ClassName, URI and PoolSize). */
  readonly properties: Readonly<PoolProperties>;
}

function lastPart(className: string): string {
  const parts = className
    .trim()
    .split('.')
    .filter((p) => p !== '');
  return parts.length === 0 ? '' : parts[parts.length - 1];
}

/** The registered implementation a ClassName means for this pool, whatever package it names. */
export function findImplementation(registry: ComponentRegistry, kind: PoolKind, className: string): AnyComponentDefinition | undefined {
  const last = lastPart(className);
  if (last === '') return undefined;
  return registry.find(`${kind}.${last}`) ?? registry.find(className) ?? registry.find(last);
}

/** The key a ClassName is pooled and defaulted under: the registered class's short name when known. */
export function implementationKey(registry: ComponentRegistry, kind: PoolKind, className: string): string {
  const def = findImplementation(registry, kind, className);
  return lastPart(def ? def.className : className).toLowerCase();
}

const NOT_DEFAULTS = new Set(['ClassName', 'URI', 'PoolSize']);

export function parseDefaultProperties(
  component: string,
  value: ConfigValue | undefined,
  kind: PoolKind,
  registry: ComponentRegistry,
  logger: Pick<Logger, 'warn'>,
): Map<string, ClassDefaults> {
  const out = new Map<string, ClassDefaults>();
  if (value === undefined) return out;
  if (!Array.isArray(value)) throw new ComponentConfigError(component, 'DefaultProperty', value, 'a list of property maps, one per implementation');
  value.forEach((entry, i) => {
    const where = `DefaultProperty/${i}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ComponentConfigError(component, where, entry, 'a map of properties with ClassName');
    }
    const className = entry.ClassName;
    if (typeof className !== 'string' || className.trim() === '') {
      logger.warn('DefaultProperty entry without ClassName ignored', { component, property: where });
      return;
    }
    const key = implementationKey(registry, kind, className);
    if (out.has(key)) {
      logger.warn('duplicate DefaultProperty entry ignored', { component, property: where, className });
      return;
    }
    if (!findImplementation(registry, kind, className)) {
      logger.warn('DefaultProperty entry names a class xroute does not have; kept for when it is registered', { component, property: where, className });
    }
    let poolSize: number | undefined;
    const ps = entry.PoolSize;
    if (ps !== undefined) {
      poolSize = typeof ps === 'string' ? integerAtLeast(ps, 1) : undefined;
      if (poolSize === undefined) throw new ComponentConfigError(component, `${where}/PoolSize`, ps, 'a positive integer as a string');
    }
    const properties: PoolProperties = {};
    for (const [k, v] of Object.entries(entry)) if (!NOT_DEFAULTS.has(k)) properties[k] = v;
    out.set(key, { key, className, poolSize, properties: Object.freeze(properties) });
  });
  return out;
}

/** docs/components/pools.md, step 4: every key the request lacks (absent or "") is copied from the defaults. */
export function fillDefaults(props: PoolProperties, defaults: ClassDefaults | undefined): void {
  if (!defaults) return;
  for (const [k, v] of Object.entries(defaults.properties)) {
    if (isAbsent(props, k)) props[k] = structuredClone(v);
  }
}
