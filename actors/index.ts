/**
 * Every component xroute ships, for the topology loader's ClassName lookup.
 * Each component module exports its ComponentDefinition through its folder's index.ts; add it to the list below.
 */
import { AnyComponentDefinition, ComponentRegistry } from '../src/runtime/component';
import { collectNodeComponent, jobNodeComponent } from './nodes';
import { AMQP_PERSISTER, FILE_PERSISTER, JMS_PERSISTER, JMS_PUBLISHER, JOB_PERSISTER, STREAM_PERSISTER, messageEvaluatorComponent } from './persisters';
import { PERSISTER_POOL, RECEIVER_POOL } from './pools';
import { AMQP_RECEIVER, JMS_RECEIVER, JMS_SUBSCRIBER, STREAM_RECEIVER } from './receivers';

export const COMPONENT_DEFINITIONS: readonly AnyComponentDefinition[] = [
  // components register here, one line each
  jobNodeComponent,
  collectNodeComponent,
  PERSISTER_POOL,
  RECEIVER_POOL,
  STREAM_PERSISTER,
  FILE_PERSISTER,
  STREAM_RECEIVER,
  messageEvaluatorComponent,
  AMQP_RECEIVER,
  JMS_SUBSCRIBER,
  JMS_RECEIVER,
  JMS_PERSISTER,
  JMS_PUBLISHER,
  AMQP_PERSISTER,
  JOB_PERSISTER,
];

export function defaultRegistry(): ComponentRegistry {
  return new ComponentRegistry(COMPONENT_DEFINITIONS);
}
