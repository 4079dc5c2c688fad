/** RedeliveryDelay, read the same way by every receiver that redelivers a failed message (AmqpReceiver, JMS receivers). */
import { BackoffOptions, parseBackoff } from '../../src/foundation/backoff';
import { DEFAULT_REDELIVERY_BACKOFF } from '../../src/transports/redelivery';
import { ComponentConfigError, ConfigReader } from './config-values';

/** "minMs,maxMs", doubling between attempts; default 1 s to 60 s. */
export function readRedeliveryDelay(r: ConfigReader): BackoffOptions {
  try {
    return parseBackoff(r.string('RedeliveryDelay'), DEFAULT_REDELIVERY_BACKOFF);
  } catch (e) {
    throw new ComponentConfigError(r.component, 'RedeliveryDelay', r.string('RedeliveryDelay'), '"minMs,maxMs" with min <= max, e.g. "1000,60000"', e);
  }
}
