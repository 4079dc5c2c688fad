/**
 * Trace and span ids for the SDK's tracer, through its IdGenerator option (docs/operations.md#what-it-costs): cut
 * from a pool of random bytes drawn from the operating system's generator 4 KB at a time. The SDK's default draws
 * Math.random for every 4 bytes of every id; with a ratio sampler every message still needs a new trace id and
 * span id (the sampler decides on the trace id, and a message left out still sends a traceparent on), and those
 * two ids were the largest cost of a message the sampler leaves out. Each id is written as a flat string of its own,
 * in one String.fromCharCode from a reused array of hex digit codes (about 40 ns less per span id than Buffer's
 * hex toString, whose call into Node's binding costs more than the encoding): the sampler and the propagator read the
 * ids character by character, which is slower on a slice of a longer string.
 */
import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

const POOL_BYTES = 4096;
/** Ids of only zeros are invalid in W3C trace context. */
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
/** The character codes of the lowercase hex digits, by value. */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

export class PooledIdGenerator implements IdGenerator {
  private readonly bytes = Buffer.allocUnsafe(POOL_BYTES);
  private at = POOL_BYTES;
  /** The digit codes of the id being written: 32 for a trace id (16 bytes), 16 for a span id (8 bytes). */
  private readonly traceDigits = new Array<number>(32).fill(0);
  private readonly spanDigits = new Array<number>(16).fill(0);

  readonly generateTraceId = (): string => this.take(this.traceDigits);
  readonly generateSpanId = (): string => this.take(this.spanDigits);

  private take(digits: number[]): string {
    if (this.at + digits.length / 2 > POOL_BYTES) {
      randomFillSync(this.bytes);
      this.at = 0;
    }
    const pool = this.bytes;
    let at = this.at;
    for (let i = 0; i < digits.length; i += 2) {
      const byte = pool[at++] as number;
      digits[i] = HEX_DIGITS[byte >> 4] as number;
      digits[i + 1] = HEX_DIGITS[byte & 15] as number;
    }
    this.at = at;
    const id = String.fromCharCode.apply(null, digits);
    return id === ZERO_TRACE_ID || id === ZERO_SPAN_ID ? this.take(digits) : id;
  }
}
