/** The ComponentDefinition both pools share; they differ only in kind (persister or receiver children). */
import { ComponentConfig, ComponentDefinition, ComponentRegistry, ConfigIssue, ConfigValue, JsonSchema } from '../../src/runtime/component';
import { validateComponentConfig } from '../../src/config/validate-component';
import { findImplementation } from './default-properties';
import { intStr, str, strMap } from '../../src/foundation/schema-helpers';
import { Template } from '../../src/rules/template';
import { ConfigReader } from '../support/config-values';
import { settingsIssues } from '../../src/config/config-issues';
import { PoolBehaviour, PoolSettings, maxNumberKey, readPoolSettings } from './pool';
import { PoolKind } from './scheme-table';

function poolSchema(kind: PoolKind): JsonSchema {
  return {
    type: 'object',
    properties: {
      Heartbeat: { type: 'string', pattern: '^\\s*(\\d+(\\.\\d*)?|\\.\\d+)\\s*$', description: 'seconds between checks of the children, e.g. "60"' },
      [maxNumberKey(kind)]: intStr('the maximum number of live children, e.g. "256"', { min: 1 }),
      DefaultPoolSize: intStr('the default per-implementation pool size, e.g. "64"', { min: 1 }),
      Template: str('a template building the URI from the request message, e.g. "tcp://##Host##:7227"'),
      URIField: str('the name of the field holding the URI (default "URI")'),
      RCField: str('the name of the field the return code is written to (default "ReturnCode")'),
      StringProperty: strMap(),
      DefaultProperty: {
        type: 'array',
        description: 'a list of property maps, one per implementation, each with ClassName',
        items: {
          type: 'object',
          description: 'a map of properties with ClassName',
          properties: { ClassName: str(), PoolSize: intStr('a positive integer as a string', { min: 1 }) },
        },
      },
    },
  };
}

/**
 * A DefaultProperty entry is checked like the configuration of the class it names (types, enumerations,
 * unknown keys with "did you mean"), except that properties a request supplies (URI, LinkName, ...) may be
 * missing. Otherwise a bad value would pass validation and then fail every request of that class.
 */
function defaultEntryIssues(kind: PoolKind, entry: Record<string, ConfigValue>, where: string, baseDir: string, registry: ComponentRegistry): ConfigIssue[] {
  const def = findImplementation(registry, kind, String(entry.ClassName));
  if (def === undefined) return [];
  // URI and PoolSize are not defaults (the request gives the URI; PoolSize sizes the class's pool).
  const { PoolSize: _poolSize, URI: _uri, ...config } = entry;
  return (
    validateComponentConfig(def, config, baseDir, { pluginDirs: [], registry })
      // Only what the entry itself sets: a problem about an absent property is for the request to solve.
      .filter((p) => Object.prototype.hasOwnProperty.call(config, p.property.split('/')[0]))
      .map((p) => ({ property: p.property === '' ? where : `${where}/${p.property}`, message: p.message, severity: p.severity }))
  );
}

function validatePool(kind: PoolKind, config: ComponentConfig, baseDir: string, registry: ComponentRegistry | undefined): ConfigIssue[] {
  const c = new ConfigReader(String(config.Name ?? kind), config);
  const issues: ConfigIssue[] = [];
  // Each property on its own, so that every wrong one is reported at once.
  const check = (property: string, read: () => unknown) => {
    for (const issue of settingsIssues(read)) issues.push(issue.property === '' ? { ...issue, property } : issue);
  };
  check('Heartbeat', () => c.number('Heartbeat', 60, { min: 0.001 }));
  check(maxNumberKey(kind), () => c.int(maxNumberKey(kind), 256, { min: 1 }));
  check('Template', () => c.has('Template') && new Template(c.required('Template')));
  const defaults = config.DefaultProperty;
  if (Array.isArray(defaults)) {
    defaults.forEach((d, i) => {
      if (typeof d !== 'object' || d === null || Array.isArray(d)) return;
      // An entry without ClassName: the settings reader warns that it is ignored.
      if (typeof d.ClassName === 'string' && registry !== undefined) issues.push(...defaultEntryIssues(kind, d, `DefaultProperty/${i}`, baseDir, registry));
    });
  }
  return issues;
}

export function poolDefinition(kind: PoolKind): ComponentDefinition<never, PoolSettings> {
  const name = kind === 'persister' ? 'PersisterPool' : 'ReceiverPool';
  return {
    className: `persister.${name}`,
    role: 'persister',
    needsInput: true,
    runsOnStart: true,
    operations: ['accept'],
    description: `creates ${kind}s on demand from request messages and hands back a handle to each (docs/components/pools.md)`,
    schema: poolSchema(kind),
    settings: (name, config, _baseDir, context) => readPoolSettings(kind, { name, config, ...context }),
    validate: (config, baseDir, context) => validatePool(kind, config, baseDir, context?.registry),
    create: (env, settings) => new PoolBehaviour(env, settings),
  };
}
