/**
 * `npm pack` makes a package another program can depend on: the tarball is installed into a fresh project,
 * offline (its dependencies come from the npm cache, pinned by this repository's lock file, as `npm ci` left
 * them), then the project requires `xroute`, boots a small flow through the API, and runs the `xroute` bin.
 * Packs the dist/ that `npm test` has just built (--ignore-scripts: no second compilation).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

/** A lock file for a project depending on the tarball: xroute's runtime dependencies exactly as locked here. */
function consumerLock(tarball: string): object {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const self = lock.packages[''];
  const packages: Record<string, unknown> = {
    '': { name: 'app', version: '1.0.0', dependencies: { xroute: `file:${tarball}` } },
    'node_modules/xroute': { version: self.version, resolved: `file:${tarball}`, license: self.license, dependencies: self.dependencies, bin: self.bin, engines: self.engines },
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/') || entry.dev || entry.devOptional || entry.link) continue;
    packages[key] = entry;
  }
  return { name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

const PROGRAM = `
const { Flow, loadTopology, defaultRegistry, PoolClient } = require('xroute');
const registry = defaultRegistry();
const flow = Flow.start(loadTopology('flow.json', registry), { registry });
const watch = setInterval(() => {
  if (flow.component('rcvr_in').status.status !== 'STOPPED' || flow.link('lines').size > 0) return;
  clearInterval(watch);
  flow.stop().then(() => console.log('stopped; PoolClient is', typeof PoolClient));
}, 100);
`;

const FLOW = {
  Name: 'copy',
  Receiver: ['rcvr_in'],
  Persister: ['pstr_out'],
  rcvr_in: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://in.txt', Operation: 'read', LinkName: 'lines' },
  pstr_out: { ClassName: 'org.qbroker.persister.StreamPersister', URI: 'file://out.txt', Operation: 'write', LinkName: 'lines', Template: '##body##!\n' },
};

describe('the npm package', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'xroute-pack-'));
  const app = path.join(work, 'app');
  let files: string[];

  beforeAll(async () => {
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, env: quiet, maxBuffer: 16 << 20 });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    files = packed.files.map((f) => f.path);
    mkdirSync(app);
    const tarball = path.join(work, packed.filename);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { xroute: `file:${tarball}` } }));
    writeFileSync(path.join(app, 'package-lock.json'), JSON.stringify(consumerLock(tarball)));
    await run(npm, ['ci', '--offline'], { cwd: app, env: quiet });
  }, 240_000);

  it('ships the compiled code, the docs and the README, and no tests or sources', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'docs/samples.md']));
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('dist/test/') || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('boots a flow through require("xroute") in another project', async () => {
    writeFileSync(path.join(app, 'in.txt'), 'a\nb\n');
    writeFileSync(path.join(app, 'flow.json'), JSON.stringify(FLOW));
    writeFileSync(path.join(app, 'main.js'), PROGRAM);
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: app });
    expect([stdout, readFileSync(path.join(app, 'out.txt'), 'utf8')]).toEqual(['stopped; PoolClient is function\n', 'a!\nb!\n']);
  }, 60_000);

  it('exposes the public API as xroute, the runtime internals only as xroute/internal, and no deeper path', async () => {
    const probe = `
      const pub = require('xroute');
      const internal = require('xroute/internal');
      let deep;
      try { require('xroute/dist/src/runtime/actor'); deep = 'reachable'; } catch (e) { deep = e.code; }
      console.log(JSON.stringify({
        missingPublic: ['Flow', 'loadTopology', 'buildTopology', 'defaultRegistry', 'Message', 'XQueue', 'PoolClient', 'PoolHandle', 'PoolRequestError', 'createLogger'].filter((k) => typeof pub[k] !== 'function'),
        leakedInternals: ['ActorRuntime', 'COMPONENT_DEFINITIONS', 'StatusReporter', 'parseSupervision'].filter((k) => k in pub),
        internalHasThem: typeof internal.ActorRuntime === 'function' && Array.isArray(internal.COMPONENT_DEFINITIONS) && internal.Flow === pub.Flow,
        deep,
      }));`;
    const { stdout } = await run(process.execPath, ['-e', probe], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ missingPublic: [], leakedInternals: [], internalHasThem: true, deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  }, 60_000);

  it('gives TypeScript the types of xroute and xroute/internal through its exports map', async () => {
    writeFileSync(path.join(app, 'check.ts'), [
      "import { Flow, Message, PoolClient, PoolHandle, loadTopology, defaultRegistry } from 'xroute';",
      "import { ActorRuntime, COMPONENT_DEFINITIONS } from 'xroute/internal';",
      'export function open(file: string): Flow { const registry = defaultRegistry(); return Flow.start(loadTopology(file, registry), { registry }); }',
      'export function client(flow: Flow): PoolClient { return new PoolClient(flow.link(\'requests\')); }',
      'export const used: [typeof PoolHandle, Message, typeof ActorRuntime, number] = [PoolHandle, Message.text(\'x\'), ActorRuntime, COMPONENT_DEFINITIONS.length];',
    ].join('\n'));
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'node16', '--moduleResolution', 'node16', '--types', 'node', '--typeRoots', path.join(root, 'node_modules/@types'), 'check.ts'];
    await expect(run(process.execPath, [tsc, ...args], { cwd: app })).resolves.toMatchObject({ stdout: '' });
  }, 60_000);

  it('installs the xroute command, which runs the flow to its end', async () => {
    writeFileSync(path.join(app, 'in.txt'), 'c\n');
    rmSync(path.join(app, 'out.txt'), { force: true }); // a StreamPersister appends to its file
    const version = (await run(path.join(app, 'node_modules/.bin/xroute'), ['--version'], { cwd: app })).stdout;
    await run(path.join(app, 'node_modules/.bin/xroute'), ['run', 'flow.json', '--log-level', 'warn'], { cwd: app });
    expect([version.trim(), readFileSync(path.join(app, 'out.txt'), 'utf8')]).toEqual([JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version, 'c!\n']);
  }, 60_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));
});
