/** The ComponentDefinition both pools share; they differ only in kind (persister or receiver children). */
import { ComponentConfig, ComponentDefinition, ConfigIssue, JsonSchema } from '../../src/runtime/component';
import { intStr, str, strMap } from '../../src/config/schema-helpers';
import { Template } from '../../src/rules/template';
import { ComponentConfigError, ConfigReader } from '../support/config-values';
import { PoolBehaviour, maxNumberKey, readPoolSettings } from './pool';
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
        items: { type: 'object', description: 'a map of properties with ClassName', properties: { ClassName: str(), PoolSize: intStr('a positive integer as a string', { min: 1 }) } },
      },
    },
  };
}

function validatePool(kind: PoolKind, config: ComponentConfig): ConfigIssue[] {
  const c = new ConfigReader(String(config.Name ?? kind), config);
  const issues: ConfigIssue[] = [];
  const check = (property: string, fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      issues.push({ property: e instanceof ComponentConfigError ? e.property : property, message: (e as Error).message });
    }
  };
  check('Heartbeat', () => c.number('Heartbeat', 60, { min: 0.001 }));
  check(maxNumberKey(kind), () => c.int(maxNumberKey(kind), 256, { min: 1 }));
  check('Template', () => c.has('Template') && new Template(c.required('Template')));
  const defaults = config.DefaultProperty;
  if (Array.isArray(defaults)) {
    defaults.forEach((d, i) => {
      if (typeof d === 'object' && d !== null && !Array.isArray(d) && typeof d.ClassName !== 'string') {
        issues.push({ property: `DefaultProperty/${i}`, message: 'entry without ClassName is ignored', severity: 'warning' });
      }
    });
  }
  return issues;
}

export function poolDefinition(kind: PoolKind): ComponentDefinition<never> {
  const name = kind === 'persister' ? 'PersisterPool' : 'ReceiverPool';
  return {
    className: `persister.${name}`,
    role: 'persister',
    operations: ['accept'],
    description: `creates ${kind}s on demand from request messages and hands back a handle to each (components.md §5)`,
    schema: poolSchema(kind),
    validate: (config) => validatePool(kind, config),
    create: (env) => new PoolBehaviour(env, readPoolSettings(kind, env)),
  };
}
