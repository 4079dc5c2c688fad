/**
 * The latency plot of docs/benchmarks.md: p50 and p99 against load for each broker path, xroute beside the raw
 * client, drawn as SVG from bench-results.json and turned into a PNG by Debian's chromium (playwright-core).
 * With `--runs N` the figures plotted are the medians over the runs.
 *   node dist/test/bench/latency-plot.js [bench-results.json] [docs/latency.png]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LatencyDetail } from './latency-bench';
import { median } from './interleaved';

/** One point of a path's curves. */
export interface LatencyPoint {
  readonly path: string;
  readonly load: number;
  readonly xroute: { readonly p50: number; readonly p99: number };
  readonly raw: { readonly p50: number; readonly p99: number };
}

/** The broker paths' points (per path and load, the median over the runs given). */
export function latencyPoints(runs: readonly (readonly LatencyDetail[])[]): LatencyPoint[] {
  const groups = new Map<string, LatencyDetail[]>();
  for (const d of runs.flat()) {
    if (Number.isNaN(d.load) || d.load === null) continue; // the XQueue hop has rates, not loads
    const key = `${d.path}\u0000${d.load}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.values()].map((ds) => ({
    path: ds[0].path,
    load: ds[0].load,
    xroute: { p50: median(ds.map((d) => d.xroute.p50)), p99: median(ds.map((d) => d.xroute.p99)) },
    raw: { p50: median(ds.map((d) => d.raw.p50)), p99: median(ds.map((d) => d.raw.p99)) },
  }));
}

const PANEL_W = 460;
const PANEL_H = 300;
const M = { left: 56, right: 16, top: 48, bottom: 44 };
const SERIES = [
  { label: 'xroute p99', color: '#c0392b', dash: '', pick: (p: LatencyPoint) => p.xroute.p99 },
  { label: 'raw client p99', color: '#7f8c8d', dash: '', pick: (p: LatencyPoint) => p.raw.p99 },
  { label: 'xroute p50', color: '#c0392b', dash: '6 4', pick: (p: LatencyPoint) => p.xroute.p50 },
  { label: 'raw client p50', color: '#7f8c8d', dash: '6 4', pick: (p: LatencyPoint) => p.raw.p50 },
] as const;

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The y axis (log scale, so p50 and p99 both read): from the power of ten at or below the smallest value to the
 * one at or above the largest, with a tick at 1, 2 and 5 times each power of ten in between.
 */
export function logAxis(values: readonly number[]): { lo: number; hi: number; ticks: number[] } {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return { lo: 0.1, hi: 1, ticks: [0.1, 0.2, 0.5, 1] };
  const lo = 10 ** Math.floor(Math.log10(Math.min(...positive)));
  let hi = 10 ** Math.ceil(Math.log10(Math.max(...positive)));
  if (hi <= lo) hi = lo * 10;
  const ticks: number[] = [];
  for (let p = lo; p < hi * 1.0001; p *= 10) for (const k of [1, 2, 5]) if (k * p <= hi * 1.0001) ticks.push(Number((k * p).toPrecision(3)));
  return { lo, hi, ticks };
}

/** A long path name on two lines, cut at the arrow nearest its middle. */
function titleLines(name: string): string[] {
  const text = name.replace(/ -> /g, ' → ');
  if (text.length <= 60) return [text];
  const arrows = [...text.matchAll(/ → /g)].map((m) => m.index ?? 0);
  const cut = arrows.reduce((best, i) => (Math.abs(i - text.length / 2) < Math.abs(best - text.length / 2) ? i : best), arrows[0] ?? text.length);
  return [text.slice(0, cut + 2), text.slice(cut + 3)];
}

/** One panel per path: ms (y, log scale) against load in % of the path's maximum rate (x). */
export function latencySvg(points: readonly LatencyPoint[], caption: string): string {
  const paths = [...new Set(points.map((p) => p.path))];
  const width = Math.max(1, paths.length) * PANEL_W;
  const height = PANEL_H + 40;
  const parts: string[] = [];
  paths.forEach((name, i) => {
    const ps = points.filter((p) => p.path === name).sort((a, b) => a.load - b.load);
    const x0 = i * PANEL_W + M.left;
    const w = PANEL_W - M.left - M.right;
    const h = PANEL_H - M.top - M.bottom;
    const axis = logAxis(ps.flatMap((p) => SERIES.map((s) => s.pick(p))));
    const X = (load: number) => x0 + load * w;
    const Y = (ms: number) => M.top + h - ((Math.log10(Math.max(ms, axis.lo)) - Math.log10(axis.lo)) / (Math.log10(axis.hi) - Math.log10(axis.lo))) * h;
    titleLines(name).forEach((line, k) => parts.push(`<text x="${x0}" y="${16 + k * 15}" font-size="12" font-weight="bold">${escapeXml(line)}</text>`));
    parts.push(`<rect x="${x0}" y="${M.top}" width="${w}" height="${h}" fill="none" stroke="#bbb"/>`);
    for (const ms of axis.ticks) {
      parts.push(
        `<line x1="${x0}" x2="${x0 + w}" y1="${Y(ms)}" y2="${Y(ms)}" stroke="#eee"/><text x="${x0 - 6}" y="${Y(ms) + 4}" font-size="10" text-anchor="end">${Number(ms.toPrecision(3))}</text>`,
      );
    }
    for (const load of [0, 0.25, 0.5, 0.75, 1])
      parts.push(`<text x="${X(load)}" y="${M.top + h + 16}" font-size="10" text-anchor="middle">${load * 100}</text>`);
    parts.push(`<text x="${x0 + w / 2}" y="${M.top + h + 32}" font-size="11" text-anchor="middle">load, % of the path's maximum rate</text>`);
    parts.push(
      `<text x="${x0 - 40}" y="${M.top + h / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 ${x0 - 40} ${M.top + h / 2})">ms from publish to arrival (log)</text>`,
    );
    for (const s of SERIES) {
      const pts = ps.map((p) => `${X(p.load).toFixed(1)},${Y(s.pick(p)).toFixed(1)}`).join(' ');
      parts.push(`<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2" stroke-dasharray="${s.dash}"/>`);
      for (const p of ps) parts.push(`<circle cx="${X(p.load).toFixed(1)}" cy="${Y(s.pick(p)).toFixed(1)}" r="2.5" fill="${s.color}"/>`);
    }
  });
  SERIES.forEach((s, k) => {
    const x = 16 + k * 150;
    parts.push(
      `<line x1="${x}" x2="${x + 28}" y1="${height - 14}" y2="${height - 14}" stroke="${s.color}" stroke-width="2" stroke-dasharray="${s.dash}"/><text x="${x + 34}" y="${height - 10}" font-size="11">${s.label}</text>`,
    );
  });
  parts.push(`<text x="${width - 8}" y="${height - 10}" font-size="10" text-anchor="end" fill="#555">${escapeXml(caption)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>`;
}

interface Results {
  date: string;
  runs?: number;
  machine: { cpu: string; cpus: number; loadAverage: number[] };
  suites: { suite: string; details?: LatencyDetail[]; runs?: { details?: LatencyDetail[] }[] }[];
}

/** The latency suite's details of every run in a bench-results.json. */
export function latencyRuns(results: Results): LatencyDetail[][] {
  const suite = results.suites.find((s) => s.suite === 'latency');
  if (!suite) throw new Error('bench results without a latency suite: run `npm run bench -- --only latency` first');
  return suite.runs ? suite.runs.map((r) => r.details ?? []) : [suite.details ?? []];
}

async function main(input: string, output: string): Promise<void> {
  const results = JSON.parse(readFileSync(input, 'utf8')) as Results;
  const runs = latencyRuns(results);
  const m = results.machine;
  const caption = `${results.date.slice(0, 10)}, ${m.cpus} × ${m.cpu}, load ${m.loadAverage[0]}, median of ${runs.length} run(s)`;
  const svg = latencySvg(latencyPoints(runs), caption);
  const svgFile = path.join(tmpdir(), `xroute-latency-${process.pid}.svg`);
  writeFileSync(svgFile, svg);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const size = /width="(\d+)" height="(\d+)"/.exec(svg)!;
    const page = await browser.newPage({ viewport: { width: Number(size[1]), height: Number(size[2]) } });
    await page.goto(`file://${svgFile}`);
    await page.screenshot({ path: output });
  } finally {
    await browser.close();
  }
  process.stdout.write(`${output} written from ${input}\n`);
}

if (require.main === module) {
  main(process.argv[2] ?? 'bench-results.json', process.argv[3] ?? 'docs/latency.png').catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
