/** Trace and span ids cut from a pool of random bytes (src/tracing/pooled-ids.ts). */
import { isValidSpanId, isValidTraceId } from '@opentelemetry/api';
import { PooledIdGenerator } from '../../../src/tracing/pooled-ids';

describe('pooled trace and span ids', () => {
  it('gives valid W3C ids, none repeated, across several refills of the pool', () => {
    const ids = new PooledIdGenerator();
    const traceIds = Array.from({ length: 1000 }, () => ids.generateTraceId());
    const spanIds = Array.from({ length: 1000 }, () => ids.generateSpanId());
    expect([traceIds.every(isValidTraceId), spanIds.every(isValidSpanId)]).toEqual([true, true]);
    expect([new Set(traceIds).size, new Set(spanIds).size]).toEqual([1000, 1000]);
  });
});
