import { formatTable, main, medianRows, parseArgs, targetMet } from '../bench/run';

describe('bench runner arguments', () => {
  it('runs everything at full size by default', () => {
    expect(parseArgs([])).toEqual({ smoke: false, out: 'bench-results.json', runs: 1 });
  });

  it('reads --runs, the number of times each suite runs', () => {
    expect(parseArgs(['--runs', '5']).runs).toBe(5);
  });

  it('rejects --runs that is not a whole number of 1 or more', () => {
    expect(() => parseArgs(['--runs', '0'])).toThrow('--runs "0": expected a whole number of runs, 1 or more; usage:');
    expect(() => parseArgs(['--runs', 'five'])).toThrow('--runs "five": expected a whole number of runs, 1 or more; usage:');
  });

  it('selects suites with --only', () => {
    expect(parseArgs(['--only', 'core,jobnode']).only).toEqual(['core', 'jobnode']);
    expect(parseArgs(['--only=core']).only).toEqual(['core']);
  });

  it('reads --smoke and --out', () => {
    expect(parseArgs(['--smoke', '--out', 'x.json'])).toMatchObject({ smoke: true, out: 'x.json' });
  });

  it('rejects an unknown suite, listing the known ones', () => {
    expect(() => parseArgs(['--only', 'core,nope'])).toThrow(/unknown suite\(s\) nope; known: core/);
  });

  it('rejects an unknown option with the usage line', () => {
    expect(() => parseArgs(['--fast'])).toThrow("Unknown option '--fast'; usage: npm run bench -- [--only core,");
  });

  it('rejects --only without a value', () => {
    expect(() => parseArgs(['--only'])).toThrow("Option '--only <value>' argument missing; usage:");
  });

  it('rejects --out without a value', () => {
    expect(() => parseArgs(['--out'])).toThrow("Option '--out <value>' argument missing; usage:");
  });

  it('exits 2 on a usage error, printing the problem with the usage line', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(main(['--fast'])).resolves.toBe(2);
      expect(String(stderr.mock.calls[0][0])).toContain("Unknown option '--fast'; usage: npm run bench");
    } finally {
      stderr.mockRestore();
    }
  });

  it('rejects a stray argument', () => {
    expect(() => parseArgs(['core'])).toThrow(/Unexpected argument 'core'.*; usage:/);
  });
});

describe('bench medians over runs', () => {
  it('reports per row the median value, baseline and ratio of the runs', () => {
    const run = (value: number, baseline: number, ratio: number) => [{ name: 'p99', unit: 'ms', value, baseline, ratio, target: '<= 1.2' }];
    expect(medianRows([run(3, 10, 0.3), run(1, 30, 0.1), run(2, 20, 0.5)])).toEqual([
      { name: 'p99', unit: 'ms', value: 2, baseline: 20, ratio: 0.3, target: '<= 1.2' },
    ]);
  });

  it('merges rows by key when their names carry figures of each run, naming them by the key', () => {
    const row = (rate: number, value: number) => ({ key: 'path at 50 %', name: `path at 50 % (${rate} msg/s)`, unit: 'ms p99', value });
    expect(medianRows([[row(100, 3)], [row(120, 5)], [row(90, 4)]])).toEqual([
      { key: 'path at 50 %', name: 'path at 50 % (median of 3 runs)', unit: 'ms p99', value: 4 },
    ]);
  });

  it('averages the middle two for an even number of runs; a row without a baseline stays without one', () => {
    expect(medianRows([[{ name: 'rate', unit: 'msg/s', value: 4 }], [{ name: 'rate', unit: 'msg/s', value: 8 }]])).toEqual([
      { name: 'rate', unit: 'msg/s', value: 6 },
    ]);
  });
});

describe('bench targets', () => {
  it('checks a ratio target against the ratio', () => {
    expect(targetMet({ name: 'x', unit: 'msgs/s', value: 1, ratio: 2, target: 'ratio >= 1.5' })).toBe(true);
    expect(targetMet({ name: 'x', unit: 'msgs/s', value: 9, ratio: 1, target: 'ratio >= 1.5' })).toBe(false);
  });

  it('checks a value target, with or without the word value, against the value', () => {
    expect(targetMet({ name: 'x', unit: 'MB', value: 80, target: 'value <= 100 MB' })).toBe(true);
    expect(targetMet({ name: 'x', unit: 'ratio', value: 1.7, ratio: 0.5, target: '<= 1.5' })).toBe(false);
  });

  it('checks a bare comparison against the ratio when the row has one, or when it ends in x', () => {
    expect(targetMet({ name: 'x', unit: 'msg/s', value: 5000, baseline: 6000, ratio: 0.83, target: '>= 0.9' })).toBe(false);
    expect(targetMet({ name: 'x', unit: 'msg/s', value: 5000, baseline: 5000, ratio: 1, target: '>= 0.9x raw amqplib' })).toBe(true);
  });

  it('checks a bare comparison against the value when the unit is a ratio or there is no ratio', () => {
    expect(targetMet({ name: 'x', unit: 'ratio', value: 1.2, baseline: 2.4, ratio: 0.5, target: '<= 1.5' })).toBe(true);
    expect(targetMet({ name: 'x', unit: 'ms', value: 0.4, target: '≤ 1 ms' })).toBe(true);
  });

  it('leaves a target that is not a comparison unchecked', () => {
    expect(targetMet({ name: 'x', unit: 'msg/s', value: 1, ratio: 1, target: 'baseline = raw sockets' })).toBeUndefined();
  });

  it('leaves a row without a target unchecked', () => {
    expect(targetMet({ name: 'x', unit: 'msgs/s', value: 1 })).toBeUndefined();
  });
});

describe('bench table', () => {
  it('aligns the columns and marks a failed suite and a missed target', () => {
    const table = formatTable([
      { suite: 'core', ok: true, seconds: 1, rows: [{ name: 'hop', unit: 'msgs/s', value: 1234567, baseline: 1000, ratio: 1.2, target: 'ratio >= 1.5' }] },
      { suite: 'amqp', ok: false, seconds: 0, rows: [], error: 'Error: no broker' },
    ]);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^suite\s+benchmark\s+value\s+unit/);
    expect(lines[2]).toContain('1,234,567');
    expect(lines[2]).toMatch(/MISSED$/);
    expect(lines[3]).toContain('FAILED: Error: no broker');
    expect(lines[0].indexOf('benchmark')).toBe(lines[2].indexOf('hop'));
  });
});
