/**
 * The public surface of actors/receivers: the receiver components.
 * Other actor folders import only the names listed here, each from the module that defines it, never through this
 * index (eslint.config.mjs reads this list and enforces both); the registry, actors/index.ts, and tests import it.
 */
export { AMQP_RECEIVER } from './amqp-receiver';
export { JMS_RECEIVER } from './jms-receiver';
export { JMS_SUBSCRIBER } from './jms-subscriber';
export { STREAM_RECEIVER } from './stream-receiver';
