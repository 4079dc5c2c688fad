/**
 * Every component xroute ships, for the topology loader's ClassName lookup.
 * Each component module exports its ComponentDefinition; add it to the list below.
 */
import { AnyComponentDefinition, ComponentRegistry } from '../src/runtime/component';
import { messageEvaluatorComponent } from './persisters/message-evaluator';

export const COMPONENT_DEFINITIONS: readonly AnyComponentDefinition[] = [
  // components register here, one line each
  messageEvaluatorComponent,
];

export function defaultRegistry(): ComponentRegistry {
  return new ComponentRegistry(COMPONENT_DEFINITIONS);
}
