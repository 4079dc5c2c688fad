/** The JSON Schema of a whole topology (`xroute schema`), generated from the registered components. */
import { ComponentRegistry, JsonSchema } from '../runtime/component';
import { FLOW_PROPERTIES } from '../foundation/common-schema';
import { componentSchema } from './validate-component';

export function topologySchema(registry: ComponentRegistry): JsonSchema {
  const branches = registry.all().map((def) => {
    const names = [def.className, ...(def.aliases ?? [])].map((n) => n.replace(/\./g, '\\.'));
    return {
      if: { properties: { ClassName: { pattern: `(^|\\.)(${names.join('|')})$` } }, required: ['ClassName'] },
      then: { ...componentSchema(def), description: def.description },
    };
  });
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'xroute topology',
    description: 'A flow in QBroker form: Receiver, Node and Persister lists name components configured inline (or in ConfigDir/<name>.json).',
    type: 'object',
    properties: FLOW_PROPERTIES,
    additionalProperties: {
      type: 'object',
      required: ['ClassName'],
      properties: { ClassName: { type: 'string', description: `one of ${registry.knownNames().join(', ')}` } },
      allOf: branches,
    },
  };
}
