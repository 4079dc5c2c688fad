/**
 * Every component xroute ships, for the topology loader's ClassName lookup.
 * Each component module exports its ComponentDefinition; add it to the list below.
 */
import { AnyComponentDefinition, ComponentRegistry } from '../src/runtime/component';

export const COMPONENT_DEFINITIONS: readonly AnyComponentDefinition[] = [
  // components register here, one line each
];

export function defaultRegistry(): ComponentRegistry {
  return new ComponentRegistry(COMPONENT_DEFINITIONS);
}
