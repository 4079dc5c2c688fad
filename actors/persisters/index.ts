/**
 * The public surface of actors/persisters: the persister components. Other actor folders import from
 * here, never from a file of this folder (the lint config enforces it).
 */
export { AMQP_PERSISTER } from './amqp-persister';
export { FILE_PERSISTER } from './file-persister';
export { JMS_PERSISTER } from './jms-persister';
export { JMS_PUBLISHER } from './jms-publisher';
export { JOB_PERSISTER } from './job-persister';
export { messageEvaluatorComponent } from './message-evaluator';
export { STREAM_PERSISTER } from './stream-persister';
