/**
 * The public surface of actors/receivers: the receiver components. Other actor folders import from
 * here, never from a file of this folder (the lint config enforces it).
 */
export { AMQP_RECEIVER } from './amqp-receiver';
export { JMS_RECEIVER } from './jms-receiver';
export { JMS_SUBSCRIBER } from './jms-subscriber';
export { STREAM_RECEIVER } from './stream-receiver';
