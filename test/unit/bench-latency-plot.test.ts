import { latencyPoints, logAxis, latencyRuns, latencySvg } from '../bench/latency-plot';
import type { LatencyDetail } from '../bench/latency-bench';

const summary = (p50: number, p99: number) => ({ n: 100, p50, p99, p999: p99, max: p99 });
const detail = (load: number, xrouteP99: number): LatencyDetail => ({
  path: 'A -> B',
  load,
  rate: 100 * load,
  xroute: summary(1, xrouteP99),
  raw: summary(0.5, 2),
});

describe('latency plot', () => {
  it('plots each broker path and load once, with the median over the runs', () => {
    const points = latencyPoints([[detail(0.5, 3)], [detail(0.5, 9)], [detail(0.5, 4)]]);
    expect(points).toEqual([{ path: 'A -> B', load: 0.5, xroute: { p50: 1, p99: 4 }, raw: { p50: 0.5, p99: 2 } }]);
  });

  it('leaves out the XQueue hop, whose runs have a rate and no load (NaN, null in JSON)', () => {
    const hop = { ...detail(0.5, 3), load: NaN };
    expect(latencyPoints([[hop, { ...hop, load: null as unknown as number }]])).toEqual([]);
  });

  it('reads every run of a --runs result, or the one run otherwise', () => {
    const machine = { cpu: 'x', cpus: 2, loadAverage: [1] };
    expect(latencyRuns({ date: 'd', machine, suites: [{ suite: 'latency', runs: [{ details: [detail(0.1, 1)] }, { details: [] }] }] })).toHaveLength(2);
    expect(latencyRuns({ date: 'd', machine, suites: [{ suite: 'latency', details: [detail(0.1, 1)] }] })).toEqual([[detail(0.1, 1)]]);
    expect(() => latencyRuns({ date: 'd', machine, suites: [] })).toThrow('bench results without a latency suite: run `npm run bench -- --only latency` first');
  });

  it('draws a panel per path with a curve per series and the caption', () => {
    const svg = latencySvg(latencyPoints([[detail(0.1, 3), detail(0.5, 4), detail(0.9, 8)]]), 'median of 1 run(s)');
    expect(svg.match(/<polyline /g)).toHaveLength(4);
    expect(svg).toContain('A → B');
    expect(svg).toContain('median of 1 run(s)');
  });

  it('spans the y axis over whole powers of ten, with ticks at 1, 2 and 5 times each', () => {
    expect(logAxis([0.03, 4, 17])).toEqual({ lo: 0.01, hi: 100, ticks: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100] });
    expect(logAxis([5, 5])).toEqual({ lo: 1, hi: 10, ticks: [1, 2, 5, 10] });
  });
});
