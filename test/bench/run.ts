/**
 * The bench runner: `npm run bench [-- --only core,amqp] [--smoke] [--runs N] [--out file]`.
 * Runs every benchmark suite (or those named by --only), one after another in this process, prints an
 * aligned table and writes bench-results.json (machine, date, Node version, rows). `--smoke` runs tiny
 * sizes, to check the benches work rather than to measure. A suite that throws is reported as failed and
 * makes the exit code non-zero; the other suites still run. A missed target is shown, not an error
 * (figures from a shared machine are noisy; read them, do not gate on them). `--runs N` runs each selected
 * suite N times in a row and reports, per row, the median of its value, baseline and ratio over the runs
 * (every run's rows and details stay in bench-results.json).
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { parseArgs as parseCommandLine } from 'node:util';
import type { BenchRow } from './bench-types';
import { median } from './interleaved';
import { benchCore } from './core-bench';
import { benchEvaluator } from './evaluator-bench';
import { benchTransforms } from './transforms-bench';
import { benchJobNode } from './jobnode-bench';
import { benchJobNodeShared } from './jobnode-shared-bench';
import { benchAmqp } from './amqp-bench';
import { benchJms } from './jms-bench';
import { benchJmsActiveMQ } from './jms-activemq-bench';
import { benchPools } from './pool-bench';
import { benchLatency, latencyDetails } from './latency-bench';
import { benchReload } from './reload-bench';
import { benchTracing } from './tracing-bench';

interface Suite {
  readonly name: string;
  run(smoke: boolean): Promise<BenchRow[]>;
  /** What the suite keeps beside its rows in bench-results.json (e.g. every latency run, for a plot). */
  details?(): unknown;
}

/** Every suite, with its full and smoke sizes. Add a suite here with one entry. */
const SUITES: readonly Suite[] = [
  {
    name: 'core',
    run: (smoke) => benchCore(smoke ? { messages: 2_000, overloadMessages: 5_000, rounds: 2 } : { messages: 200_000, overloadMessages: 1_000_000 }),
  },
  { name: 'evaluator', run: (smoke) => benchEvaluator({ n: smoke ? 200 : 200_000 }) },
  { name: 'transforms', run: (smoke) => benchTransforms({ n: smoke ? 20 : 30_000 }) },
  { name: 'jobnode', run: (smoke) => benchJobNode({ pending: smoke ? [100, 1_000] : [1_000, 10_000, 100_000] }) },
  // Needs Redis on 127.0.0.1:6379 (XROUTE_TEST_REDIS); without it it fails, it does not skip.
  { name: 'jobnode-shared', run: (smoke) => benchJobNodeShared(smoke ? { jobs: 2_000, rounds: 1 } : { jobs: 100_000 }) },
  // These need RabbitMQ on 127.0.0.1:5672 (AMQP 0-9-1 and 1.0); without it they fail, they do not skip.
  { name: 'amqp', run: (smoke) => benchAmqp({ messages: smoke ? 500 : 50_000 }) },
  { name: 'jms', run: (smoke) => benchJms({ messages: smoke ? 200 : 20_000 }) },
  // This one needs ActiveMQ at ACTIVEMQ_URL (default amqp://127.0.0.1:5673; ../shared/brokers/activemq/start-activemq.sh).
  { name: 'jms-activemq', run: (smoke) => benchJmsActiveMQ({ messages: smoke ? 200 : 20_000 }) },
  // RabbitMQ on 127.0.0.1:5672, like amqp, and ActiveMQ at ACTIVEMQ_URL, like jms-activemq (its JMS path).
  {
    name: 'latency',
    run: (smoke) =>
      benchLatency(
        smoke
          ? { blockMs: 100, pairs: 2, hopMessages: 2_000, backlog: 500, roundTrips: 100 }
          : { blockMs: 1_000, pairs: 12, hopMessages: 10_000, backlog: 20_000, roundTrips: 5_000 },
      ),
    details: () => [...latencyDetails],
  },
  // RabbitMQ on 127.0.0.1:5672, like amqp: swap time of a reload and throughput during reloads.
  { name: 'reload', run: (smoke) => benchReload(smoke ? { reloads: 1, windowMs: 1_000, offered: 2_000 } : { reloads: 10, windowMs: 2_000, offered: 10_000 }) },
  { name: 'pools', run: (smoke) => benchPools(smoke ? { children: [1, 4], messages: 200, blocks: 2, requests: 20 } : { children: [1, 64, 512] }) },
  {
    name: 'tracing',
    run: (smoke) => benchTracing(smoke ? { messages: 400, flowMessages: 200, flowRounds: 2 } : { messages: 400_000, flowMessages: 10_000, flowRounds: 16 }),
  },
];

interface SuiteResult {
  suite: string;
  ok: boolean;
  seconds: number;
  rows: BenchRow[];
  details?: unknown;
  error?: string;
  /** With --runs N > 1: each run's rows and details; `rows` are then their medians. */
  runs?: { rows: BenchRow[]; details?: unknown }[];
}

interface Args {
  only?: string[];
  smoke: boolean;
  out: string;
  runs: number;
}

class UsageError extends Error {
  override name = 'UsageError';
}

const USAGE = `usage: npm run bench -- [--only ${SUITES.map((s) => s.name).join(',')}] [--smoke] [--runs N] [--out FILE]`;

/** Strict, like the xroute CLI: an unknown option, a missing value or a stray argument is a UsageError. */
export function parseArgs(argv: string[]): Args {
  let values: { only?: string; smoke?: boolean; out?: string; runs?: string };
  try {
    ({ values } = parseCommandLine({
      args: argv,
      options: { only: { type: 'string' }, smoke: { type: 'boolean' }, out: { type: 'string' }, runs: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    const reason = (err as Error).message.replace(/^\w*Error \[ERR_[A-Z_]+\]: /, '').split('\n')[0];
    throw new UsageError(`${reason}; ${USAGE}`);
  }
  if (values.out === '') throw new UsageError(`--out needs a file name; ${USAGE}`);
  const runs = values.runs === undefined ? 1 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs ${JSON.stringify(values.runs)}: expected a whole number of runs, 1 or more; ${USAGE}`);
  const args: Args = { smoke: values.smoke === true, out: values.out ?? 'bench-results.json', runs };
  if (values.only !== undefined) {
    args.only = values.only
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = args.only.filter((n) => !SUITES.some((s) => s.name === n));
    if (unknown.length > 0) throw new UsageError(`unknown suite(s) ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  }
  return args;
}

/**
 * One row per key (BenchRow.key, else the name; in the first run's order) whose value, baseline and ratio are
 * the medians over the runs that have the row; the ratio is the median of the runs' ratios, not the ratio of
 * the medians. A row whose name carries figures of its run is named by its key and the number of runs.
 */
export function medianRows(runs: readonly (readonly BenchRow[])[]): BenchRow[] {
  const keyOf = (r: BenchRow) => r.key ?? r.name;
  const keys = [...new Set(runs.flatMap((rows) => rows.map(keyOf)))];
  return keys.map((key) => {
    const same = runs.flatMap((rows) => rows.filter((r) => keyOf(r) === key));
    const name = same.every((r) => r.name === same[0].name) ? same[0].name : `${key} (median of ${same.length} runs)`;
    const row: BenchRow = { ...same[0], name, value: median(same.map((r) => r.value)) };
    const of = (pick: (r: BenchRow) => number | undefined) => same.map(pick).filter((x): x is number => x !== undefined && !Number.isNaN(x));
    const baselines = of((r) => r.baseline);
    const ratios = of((r) => r.ratio);
    if (baselines.length > 0) row.baseline = median(baselines);
    if (ratios.length > 0) row.ratio = median(ratios);
    return row;
  });
}

/**
 * Checks a row against its target: true/false, or undefined when the target is not a comparison.
 * "ratio >= 1.5" and "value <= 100 MB" name what they compare; "0.9x ..." compares the ratio; otherwise a
 * bare "<= 1.5" compares the value when the row's unit is itself a ratio or the row has no ratio, else the ratio.
 */
export function targetMet(row: BenchRow): boolean | undefined {
  const m = row.target && /^\s*(ratio|value)?\s*(>=|<=|≥|≤|>|<)\s*(-?\d+(?:\.\d+)?)(x?)/.exec(row.target);
  if (!m) return undefined;
  const onRatio = m[1] === 'ratio' || (m[1] === undefined && (m[4] === 'x' || (row.ratio !== undefined && row.unit !== 'ratio')));
  const subject = onRatio ? row.ratio : row.value;
  if (subject === undefined) return undefined;
  const limit = Number(m[3]);
  switch (m[2]) {
    case '>=':
    case '≥':
      return subject >= limit;
    case '<=':
    case '≤':
      return subject <= limit;
    case '>':
      return subject > limit;
    default:
      return subject < limit;
  }
}

function formatNumber(x: number | undefined): string {
  if (x === undefined) return '';
  if (Number.isInteger(x) && Math.abs(x) >= 1000) return x.toLocaleString('en-US');
  return String(x);
}

export function formatTable(results: SuiteResult[]): string {
  const header = ['suite', 'benchmark', 'value', 'unit', 'baseline', 'ratio', 'target', 'met'];
  const lines: string[][] = [];
  for (const r of results) {
    if (!r.ok) {
      // first line only: the full error is in bench-results.json
      lines.push([r.suite, `FAILED: ${(r.error ?? 'unknown error').split('\n')[0]}`, '', '', '', '', '', '']);
      continue;
    }
    for (const row of r.rows) {
      const met = targetMet(row);
      lines.push([
        r.suite,
        row.name,
        formatNumber(row.value),
        row.unit,
        formatNumber(row.baseline),
        formatNumber(row.ratio),
        row.target ?? '',
        met === undefined ? '' : met ? 'yes' : 'MISSED',
      ]);
    }
  }
  const numeric = new Set([2, 4, 5]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(render)].join('\n');
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGb: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}

async function runSuite(suite: Suite, smoke: boolean, runs: number): Promise<SuiteResult> {
  const t0 = performance.now();
  try {
    const each: { rows: BenchRow[]; details?: unknown }[] = [];
    for (let i = 0; i < runs; i++) {
      if (runs > 1) process.stderr.write(`bench ${suite.name}: run ${i + 1} of ${runs}\n`);
      each.push({ rows: await suite.run(smoke), details: suite.details?.() });
    }
    const seconds = (performance.now() - t0) / 1000;
    if (runs === 1) return { suite: suite.name, ok: true, seconds, ...each[0] };
    return { suite: suite.name, ok: true, seconds, rows: medianRows(each.map((r) => r.rows)), runs: each };
  } catch (err) {
    const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { suite: suite.name, ok: false, seconds: (performance.now() - t0) / 1000, rows: [], error };
  }
}

/** Exit codes: 0 every suite ran, 1 a suite failed, 2 a usage error (printed with the usage line). */
export async function main(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const selected = SUITES.filter((s) => !args.only || args.only.includes(s.name));
  const date = new Date().toISOString();
  const host = machine(); // load average before the benches, not caused by them
  const results: SuiteResult[] = [];
  for (const suite of selected) {
    process.stderr.write(`bench ${suite.name}${args.smoke ? ' (smoke)' : ''} ...\n`);
    const result = await runSuite(suite, args.smoke, args.runs);
    process.stderr.write(`bench ${suite.name}: ${result.ok ? 'done' : 'FAILED'} in ${result.seconds.toFixed(1)} s\n`);
    results.push(result);
  }
  process.stdout.write(formatTable(results) + '\n');
  const report = { date, node: process.version, machine: host, smoke: args.smoke, runs: args.runs, suites: results };
  writeFileSync(args.out, JSON.stringify(report, null, 2) + '\n');
  process.stderr.write(`results written to ${args.out}\n`);
  return results.every((r) => r.ok) ? 0 : 1;
}

if (require.main === module) {
  // Exit explicitly: a suite that failed half-way may leave a socket or timer behind.
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
