/**
 * Every component xroute ships, for the topology loader's ClassName lookup.
 * Each component module exports its ComponentDefinition; add it to the list below.
 */
import { AnyComponentDefinition, ComponentRegistry } from '../src/runtime/component';
import { messageEvaluatorComponent } from './persisters/message-evaluator';
import { AMQP_RECEIVER } from './receivers/amqp-receiver';
import { JMS_SUBSCRIBER } from './receivers/jms-subscriber';
import { JMS_RECEIVER } from './receivers/jms-receiver';
import { JMS_PERSISTER } from './persisters/jms-persister';
import { JMS_PUBLISHER } from './persisters/jms-publisher';
import { AMQP_PERSISTER } from './persisters/amqp-persister';
import { PERSISTER_POOL } from './pools/persister-pool';
import { RECEIVER_POOL } from './pools/receiver-pool';
import { STREAM_PERSISTER } from './persisters/stream-persister';
import { FILE_PERSISTER } from './persisters/file-persister';
import { STREAM_RECEIVER } from './receivers/stream-receiver';
import { jobNodeComponent } from './nodes/job-node';
import { collectNodeComponent } from './nodes/collect-node';
import { JOB_PERSISTER } from './persisters/job-persister';

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
