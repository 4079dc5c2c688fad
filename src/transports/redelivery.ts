/**
 * The default delay between attempts of a message that failed downstream, for every receiver that can
 * hand a failed message back to its broker (AmqpReceiver, the JMS receivers): 1 s doubling to 60 s, so a
 * message that always fails costs a few attempts a minute instead of a hot loop.
 */
import { BackoffOptions } from '../foundation/backoff';

export const DEFAULT_REDELIVERY_BACKOFF: BackoffOptions = Object.freeze({ minMs: 1000, maxMs: 60_000 });
