/**
 * `npm pack` makes a package another program can depend on, by its name `xroute-broker` (docs/install.md): the
 * tarball is installed into a project made by `npm init -y` (offline, see test/support/fresh-npm-project.ts), then
 * the project requires the package, boots a small flow through the API, and runs the `xroute` command: by the
 * package's name through npx, on its own flow, and on an example the package ships.
 * Packs the dist/ that `npm test` has just built (--ignore-scripts: no second compilation).
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { FreshProject, freshProjectWithPackage, quietNpm, repoRoot } from '../support/fresh-npm-project';

const run = promisify(execFile);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const ownPackage = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; private?: boolean };

const PROGRAM = `
const { Flow, loadTopology, defaultRegistry, PoolClient } = require('xroute-broker');
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
  let project: FreshProject;
  let app: string;

  beforeAll(async () => {
    project = await freshProjectWithPackage();
    app = project.dir;
  }, 240_000);

  afterAll(() => project?.remove());

  it('is publishable under its own name, xroute-broker, with the command xroute', () => {
    expect([ownPackage.name, ownPackage.private, project.packageName, JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).bin]).toEqual([
      'xroute-broker',
      undefined,
      'xroute-broker',
      { xroute: 'dist/src/cli/main.js' },
    ]);
  });

  it('ships the compiled code, the docs, the README, config/ and examples/, and no tests or sources', () => {
    const files = project.packedFiles;
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/cli/main.js',
        'docs/samples.md',
        'config/demo.json',
        'examples/README.md',
        'examples/jobnode-workers/flow.json',
        'examples/pool-api/main.js',
      ]),
    );
    expect(
      files.filter((f) => f.startsWith('test/') || f.startsWith('dist/test/') || f.includes('/out/') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    ).toEqual([]);
  });

  it('boots a flow through require("xroute-broker") in another project', async () => {
    writeFileSync(path.join(app, 'in.txt'), 'a\nb\n');
    writeFileSync(path.join(app, 'flow.json'), JSON.stringify(FLOW));
    writeFileSync(path.join(app, 'main.js'), PROGRAM);
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: app });
    expect([stdout, readFileSync(path.join(app, 'out.txt'), 'utf8')]).toEqual(['stopped; PoolClient is function\n', 'a!\nb!\n']);
  }, 60_000);

  it('exposes the public API as xroute-broker, the runtime internals only as xroute-broker/internal, and no deeper path', async () => {
    const probe = `
      const pub = require('xroute-broker');
      const internal = require('xroute-broker/internal');
      let deep;
      try { require('xroute-broker/dist/src/runtime/actor'); deep = 'reachable'; } catch (e) { deep = e.code; }
      console.log(JSON.stringify({
        missingPublic: ['Flow', 'loadTopology', 'buildTopology', 'defaultRegistry', 'Message', 'XQueue', 'PoolClient', 'PoolHandle', 'PoolRequestError', 'createLogger'].filter((k) => typeof pub[k] !== 'function'),
        leakedInternals: ['ActorRuntime', 'COMPONENT_DEFINITIONS', 'StatusReporter', 'parseSupervision'].filter((k) => k in pub),
        internalHasThem: typeof internal.ActorRuntime === 'function' && Array.isArray(internal.COMPONENT_DEFINITIONS) && internal.Flow === pub.Flow,
        deep,
      }));`;
    const { stdout } = await run(process.execPath, ['-e', probe], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ missingPublic: [], leakedInternals: [], internalHasThem: true, deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  }, 60_000);

  it('gives TypeScript the types of xroute-broker and xroute-broker/internal through its exports map', async () => {
    writeFileSync(
      path.join(app, 'check.ts'),
      [
        "import { Flow, Message, PoolClient, PoolHandle, loadTopology, defaultRegistry } from 'xroute-broker';",
        "import { ActorRuntime, COMPONENT_DEFINITIONS } from 'xroute-broker/internal';",
        'export function open(file: string): Flow { const registry = defaultRegistry(); return Flow.start(loadTopology(file, registry), { registry }); }',
        "export function client(flow: Flow): PoolClient { return new PoolClient(flow.link('requests')); }",
        "export const used: [typeof PoolHandle, Message, typeof ActorRuntime, number] = [PoolHandle, Message.text('x'), ActorRuntime, COMPONENT_DEFINITIONS.length];",
      ].join('\n'),
    );
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--types',
      'node',
      '--typeRoots',
      path.join(repoRoot, 'node_modules/@types'),
      'check.ts',
    ];
    await expect(run(process.execPath, [tsc, ...args], { cwd: app })).resolves.toMatchObject({ stdout: '' });
  }, 60_000);

  it('runs by its package name: npx xroute-broker --version prints the version', async () => {
    const { stdout } = await run(npx, ['--offline', 'xroute-broker', '--version'], { cwd: app, env: quietNpm });
    expect(stdout.trim()).toBe(ownPackage.version);
  }, 60_000);

  it('installs the xroute command, which runs the flow to its end', async () => {
    writeFileSync(path.join(app, 'in.txt'), 'c\n');
    rmSync(path.join(app, 'out.txt'), { force: true }); // a StreamPersister appends to its file
    await run(npx, ['--offline', 'xroute', 'run', 'flow.json', '--log-level', 'warn'], { cwd: app, env: quietNpm });
    expect(readFileSync(path.join(app, 'out.txt'), 'utf8')).toBe('c!\n');
  }, 60_000);

  it('runs an example it ships, as docs/install.md says: xroute run node_modules/xroute-broker/examples/jobnode-workers/flow.json', async () => {
    const { stdout } = await run(npx, ['--offline', 'xroute', 'run', 'node_modules/xroute-broker/examples/jobnode-workers/flow.json', '--log-level', 'warn'], {
      cwd: app,
      env: quietNpm,
      timeout: 60_000,
    });
    expect(stdout.split('\n').filter((l) => /FINISHED .* ReturnCode=0$/.test(l)).length).toBe(4);
  }, 90_000);
});
