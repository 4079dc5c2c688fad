/**
 * Runs every example under examples/ exactly as its README says: every folder with a README.md is picked up,
 * and its fenced command blocks are run by kind (the convention is documented in examples/README.md):
 *   ```sh cleanup   run before (to start fresh) and after; failures ignored
 *   ```sh start     background (a flow); ready when its output shows waitFor=TEXT; stopped with SIGINT, must exit 0
 *   ```sh watch     background (a watcher); ready when its output shows waitFor=TEXT; may exit by itself with 0
 *   ```sh publish / ```sh run   foreground, in order, each block one bash script that must exit 0
 *   ```text expected   lines that must all appear in the stdout of the commands (`...` matches anything)
 * Stopping a start block sends SIGINT to its process group, as Ctrl-C does. Commands run from the repository root with the built CLI (npm test builds dist/ first), npm kept offline.
 * The AMQP examples use the system RabbitMQ on 127.0.0.1:5672 under their own `xroute.examples.*` names, which
 * their cleanup blocks delete.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../support/wait';

const root = path.resolve(__dirname, '../..');
const examplesDir = path.join(root, 'examples');
const KINDS = ['start', 'watch', 'publish', 'run', 'cleanup', 'expected'] as const;
type Kind = (typeof KINDS)[number];

interface Block {
  kind: Kind;
  attrs: Record<string, string>;
  text: string;
}

/** The fenced blocks of a README whose info string names a kind, e.g. ```sh start waitFor=consuming */
function exampleBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  for (const m of readme.matchAll(/^```\w*[ \t]+(\w+)([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    if (!(KINDS as readonly string[]).includes(m[1])) continue;
    const attrs = Object.fromEntries([...m[2].matchAll(/(\w+)=(?:"([^"]*)"|(\S+))/g)].map((a) => [a[1], a[2] ?? a[3]]));
    blocks.push({ kind: m[1] as Kind, attrs, text: m[3] });
  }
  return blocks;
}

const exampleNames = readdirSync(examplesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(examplesDir, d.name, 'README.md')))
  .map((d) => d.name)
  .sort();

interface Running {
  child: ChildProcess;
  stdout: string;
  output: string;
  /** The exit code, or the name of the signal that ended it. */
  exit: Promise<number | string | null>;
}

/**
 * The JMS examples read AMQP10_URL (default: RabbitMQ on 5672 with its AMQP 1.0 plugin). The suite points it at
 * the run's private node with that plugin, so that it never depends on the system broker's plugins.
 */
function amqp10Url(): Record<string, string> {
  const node = process.env.XROUTE_AMQP10_NODE;
  return node ? { AMQP10_URL: `amqp://guest:guest@127.0.0.1:${(JSON.parse(node) as { port: number }).port}` } : {};
}

/**
 * `npx xroute` from the repository root runs the project's own bin by linking the project into npm's npx cache
 * (libnpmexec). That first link can take a minute on a loaded machine, and a process killed during it leaves the
 * link without its package.json, after which every later `npx xroute` from that path fails with ENOENT (seen in
 * CI). So the suite uses an npm cache of its own, links once before any example with a generous timeout, and
 * removes the cache afterwards.
 */
const npmCache = mkdtempSync(path.join(tmpdir(), 'xroute-examples-npm-'));

function bash(script: string): Running {
  const env = { ...process.env, ...amqp10Url(), npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_cache: npmCache };
  const child = spawn('bash', ['-e', '-c', script], { cwd: root, detached: true, env });
  const running: Running = { child, stdout: '', output: '', exit: new Promise((r) => child.on('exit', (code, signal) => r(code ?? signal))) };
  child.stdout!.on('data', (d) => ((running.stdout += String(d)), (running.output += String(d))));
  child.stderr!.on('data', (d) => (running.output += String(d)));
  return running;
}

function lineMatcher(expected: string): RegExp {
  return new RegExp(
    '^' +
      expected
        .split('...')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '\\s*$',
    'm',
  );
}

async function runExample(name: string): Promise<void> {
  const blocks = exampleBlocks(readFileSync(path.join(examplesDir, name, 'README.md'), 'utf8'));
  const of = (kind: Kind) => blocks.filter((b) => b.kind === kind);
  const background: Running[] = [];
  const finished: Running[] = [];
  const cleanup = async () => {
    for (const b of of('cleanup')) await bash(b.text).exit;
  };
  await cleanup();
  try {
    for (const b of [...of('start'), ...of('watch')]) {
      const r = bash(b.text);
      (b.kind === 'start' ? background : finished).push(r);
      if (b.attrs.waitFor)
        await waitFor(
          () => r.output.includes(b.attrs.waitFor) || r.child.exitCode !== null,
          () => `"${b.attrs.waitFor}" from: ${b.text}\n${r.output}`,
          60_000,
          100,
        );
    }
    for (const b of blocks.filter((x) => x.kind === 'publish' || x.kind === 'run')) {
      const r = bash(b.text);
      finished.push(r);
      const code = await r.exit;
      if (code !== 0) throw new Error(`${name}: exit code ${code} from:\n${b.text}\n${r.output}`);
    }
    const stdout = () => [...background, ...finished].map((r) => r.stdout).join('');
    for (const b of of('expected')) {
      for (const line of b.text.split('\n').filter((l) => l.trim() !== '')) {
        await waitFor(
          () => lineMatcher(line).test(stdout()),
          () => `the line ${JSON.stringify(line)} in the output of ${name}:\n${[...background, ...finished].map((r) => r.output).join('\n')}`,
          60_000,
          100,
        );
      }
    }
    // Ctrl-C: the whole process group gets SIGINT; npx re-raises it after xroute's own clean exit.
    for (const r of background) process.kill(-r.child.pid!, 'SIGINT');
    for (const r of background) {
      const code = await r.exit;
      if (code !== 0 && code !== 'SIGINT') throw new Error(`${name}: a flow stopped with ${code}:\n${r.output}`);
    }
    for (const r of finished) {
      if (r.child.exitCode === null && r.child.signalCode === null) process.kill(-r.child.pid!, 'SIGINT');
      const code = await r.exit;
      if (code !== 0) throw new Error(`${name}: a command exited with ${code}:\n${r.output}`);
    }
  } finally {
    for (const r of [...background, ...finished]) if (r.child.exitCode === null && r.child.signalCode === null) process.kill(-r.child.pid!, 'SIGKILL');
    await cleanup();
  }
}

describe('examples/ (each run as its README says)', () => {
  beforeAll(async () => {
    const link = bash('npx xroute --help');
    const code = await link.exit;
    if (code !== 0) throw new Error(`npx xroute --help exited with ${code}:\n${link.output}`);
  }, 300_000);
  afterAll(() => rmSync(npmCache, { recursive: true, force: true }));

  it('has the scenario folders, each with a README', () => {
    expect(exampleNames).toEqual(
      expect.arrayContaining(['amqp-queue-to-exchange', 'jms-topic-to-queue', 'jobnode-workers', 'pool-api', 'file-evaluator-file']),
    );
  });

  it.each(exampleNames)('%s: its README has commands to run and the output to expect', (name) => {
    const kinds = exampleBlocks(readFileSync(path.join(examplesDir, name, 'README.md'), 'utf8')).map((b) => b.kind);
    expect(kinds.some((k) => k === 'start' || k === 'run')).toBe(true);
    expect(kinds).toContain('expected');
  });

  it.each(exampleNames)('%s: runs as its README says and prints the expected lines', (name) => runExample(name), 180_000);
});
