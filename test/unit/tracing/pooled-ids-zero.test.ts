/** A pool of random bytes that happens to be all zeros never yields an invalid (all-zero) id (src/tracing/pooled-ids.ts). */
import { isValidSpanId, isValidTraceId } from '@opentelemetry/api';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  let refills = 0;
  return {
    ...actual,
    // The first pool drawn is all zeros, as a random source may (rarely) give; the later ones are random.
    randomFillSync: <T extends NodeJS.ArrayBufferView>(buffer: T): T =>
      refills++ === 0 ? (new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).fill(0), buffer) : actual.randomFillSync(buffer),
  };
});

import { PooledIdGenerator } from '../../../src/tracing/pooled-ids';

describe('pooled ids from an all-zero pool', () => {
  it('skips the zero ids and gives valid ones from the next refill', () => {
    const ids = new PooledIdGenerator();
    expect([isValidTraceId(ids.generateTraceId()), isValidSpanId(ids.generateSpanId())]).toEqual([true, true]);
  });
});
