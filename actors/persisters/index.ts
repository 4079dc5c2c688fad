/**
 * The public surface of actors/persisters: the persister components.
 * Other actor folders import only the names listed here, each from the module that defines it, never through this
 * index (eslint.config.mjs reads this list and enforces both); the registry, actors/index.ts, and tests import it.
 */
export { AMQP_PERSISTER } from './amqp-persister';
export { FILE_PERSISTER } from './file-persister';
export { JMS_PERSISTER } from './jms-persister';
export { JMS_PUBLISHER } from './jms-publisher';
export { JOB_PERSISTER } from './job-persister';
export { messageEvaluatorComponent } from './message-evaluator';
export { STREAM_PERSISTER } from './stream-persister';
