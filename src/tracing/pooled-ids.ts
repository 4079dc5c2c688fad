/**
 * Trace and span ids for the SDK's tracer, through its IdGenerator option (docs/operations.md#what-it-costs): cut
 * from a pool of random bytes drawn from the operating system's generator 4 KB at a time. The SDK's default draws
 * Math.random for every 4 bytes of every id; with a ratio sampler every message still needs a new trace id and
 * span id (the sampler decides on the trace id, and a message left out still sends a traceparent on), and those
 * two ids were the largest cost of a message the sampler leaves out. Each id is encoded on its own, as a flat
 * string: the sampler and the propagator read them character by character, which is slower on a slice of a
 * longer string.
 */
import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

const POOL_BYTES = 4096;
/** Ids of only zeros are invalid in W3C trace context. */
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

export class PooledIdGenerator implements IdGenerator {
  private readonly bytes = Buffer.allocUnsafe(POOL_BYTES);
  private at = POOL_BYTES;

  readonly generateTraceId = (): string => this.take(16);
  readonly generateSpanId = (): string => this.take(8);

  private take(bytes: number): string {
    if (this.at + bytes > POOL_BYTES) {
      randomFillSync(this.bytes);
      this.at = 0;
    }
    const id = this.bytes.toString('hex', this.at, (this.at += bytes));
    return id === ZERO_TRACE_ID || id === ZERO_SPAN_ID ? this.take(bytes) : id;
  }
}
