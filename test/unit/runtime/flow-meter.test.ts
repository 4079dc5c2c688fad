import { FlowMeter, InOut } from '../../../src/runtime/flow-meter';

function meterOver(counts: Map<string, InOut>) {
  return new FlowMeter(() => counts, 1000);
}

describe('FlowMeter', () => {
  it('gives the rate over the last second from the sample at least a second old', () => {
    const counts = new Map([['c', { in: 0, out: 0 }]]);
    const m = meterOver(counts);
    m.sample(10_000);
    m.sample(11_000);
    expect(m.rates('c', { in: 50, out: 20 }, 12_000)).toMatchObject({ in1s: 50, out1s: 20 });
  });

  it('gives the rate over the last minute from the oldest sample while less than a minute is sampled', () => {
    const counts = new Map([['c', { in: 0, out: 0 }]]);
    const m = meterOver(counts);
    m.sample(0);
    m.sample(1000);
    expect(m.rates('c', { in: 60, out: 60 }, 2000)).toMatchObject({ in1m: 30, out1m: 30 });
  });

  it('forgets samples older than a minute', () => {
    const counts = new Map([['c', { in: 0, out: 0 }]]);
    const m = meterOver(counts);
    for (let t = 0; t <= 120_000; t += 1000) {
      counts.set('c', { in: t < 60_000 ? t : 60_000, out: 0 });
      m.sample(t);
    }
    expect(m.rates('c', { in: 60_000, out: 0 }, 121_000).in1m).toBe(0);
  });

  it('answers zero rates for a series never sampled', () => {
    expect(meterOver(new Map()).rates('x', { in: 5, out: 5 })).toEqual({ in1s: 0, in1m: 0, out1s: 0, out1m: 0 });
  });

  it('dates the last message by the sample that first saw the counters move', () => {
    const counts = new Map([['c', { in: 0, out: 0 }]]);
    const m = meterOver(counts);
    m.sample(1000);
    counts.set('c', { in: 3, out: 3 });
    m.sample(2000);
    m.sample(3000);
    expect(m.lastMovedAt('c', { in: 3, out: 3 }, 3500)).toBe(2000);
  });

  it('dates the last message now when the counters moved since the last sample', () => {
    const counts = new Map([['c', { in: 0, out: 0 }]]);
    const m = meterOver(counts);
    m.sample(1000);
    expect(m.lastMovedAt('c', { in: 1, out: 0 }, 1500)).toBe(1500);
  });

  it('has no last message time for counters that never moved', () => {
    const counts = new Map([['c', { in: 0, out: 0 }]]);
    const m = meterOver(counts);
    m.sample(1000);
    expect(m.lastMovedAt('c', { in: 0, out: 0 }, 1500)).toBeUndefined();
  });
});
