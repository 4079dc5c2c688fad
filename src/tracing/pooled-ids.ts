/**
 * Trace and span ids for the SDK's tracer, through its IdGenerator option (docs/operations.md#what-it-costs): cut
 * from a pool of random bytes drawn from the operating system's generator 4 KB at a time. The SDK's default draws
 * Math.random for every 4 bytes of every id; with a ratio sampler every message still needs a new trace id and
 * span id (the sampler decides on the trace id, and a message left out still sends a traceparent on), and those
 * two ids were the largest cost of a message the sampler leaves out. Each refill writes the whole pool as one hex
 * string (one call into Node's binding per 4 KB) and each id is a substring of it: V8 makes that a slice, with no
 * copy and no call. Measured in instructions (callgrind, docs/operations.md#what-it-costs), that is about 1,900
 * fewer per message than writing each id in its own String.fromCharCode, whose spread of an array of digit codes
 * was most of the cost. An id keeps its pool's string (8 KB) alive while it lives: a few such strings for the
 * messages in flight and the spans waiting for export.
 */
import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

const POOL_BYTES = 4096;
/** Ids of only zeros are invalid in W3C trace context. */
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

export class PooledIdGenerator implements IdGenerator {
  private readonly bytes = Buffer.allocUnsafe(POOL_BYTES);
  /** The pool in hex: two digits a byte. */
  private hex = '';
  /** The next unused digit of `hex`. */
  private at = 0;

  readonly generateTraceId = (): string => this.take(32, ZERO_TRACE_ID);
  readonly generateSpanId = (): string => this.take(16, ZERO_SPAN_ID);

  private take(digits: number, zero: string): string {
    if (this.at + digits > this.hex.length) {
      randomFillSync(this.bytes);
      this.hex = this.bytes.toString('hex');
      this.at = 0;
    }
    const id = this.hex.substring(this.at, (this.at += digits));
    return id === zero ? this.take(digits, zero) : id;
  }
}
