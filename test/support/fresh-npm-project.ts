/**
 * A new npm project, made as a user makes one, that has this repository's packed tarball installed:
 * `npm pack` (of the dist/ already built: --ignore-scripts), `npm init -y`, the tarball as a dependency (and
 * optionally typescript and @types/node as dev dependencies), `npm ci --offline`, and `npx tsc --init` when
 * typescript is there. Offline: the project gets a lock file that pins every package to the version this
 * repository's lock file holds (the ones `npm ci` put in the npm cache), so no registry is asked.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = path.resolve(__dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
export const quietNpm = { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

export interface FreshProject {
  /** the project directory (its package.json is what `npm init -y` wrote, plus the dependencies) */
  readonly dir: string;
  /** the package's name in its package.json, what the project depends on */
  readonly packageName: string;
  /** the files `npm pack` put in the tarball */
  readonly packedFiles: string[];
  /** milliseconds each step took: pack, init, install, tscInit */
  readonly timings: Record<string, number>;
  remove(): void;
}

/** The lock entry npm would pick for `name` required from the package at `from` (nearest node_modules up). */
function resolveIn(lock: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ;) {
    const key = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (lock[key]) return key;
    if (dir === '') return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

/** Lock entries of everything `roots` need, as this repository's lock file places them. */
function closure(lock: Record<string, LockEntry>, roots: [from: string, name: string][]): Record<string, LockEntry> {
  const picked: Record<string, LockEntry> = {};
  const todo = [...roots];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const [from, name] = next;
    const key = resolveIn(lock, from, name);
    if (key === undefined) throw new Error(`${name} (needed by ${from || 'the project'}) is not in package-lock.json`);
    if (picked[key]) continue;
    picked[key] = lock[key];
    const e = lock[key];
    for (const dep of Object.keys({ ...e.dependencies, ...e.optionalDependencies, ...e.peerDependencies })) todo.push([key, dep]);
  }
  return picked;
}

export async function freshProjectWithPackage(options: { typescript?: boolean } = {}): Promise<FreshProject> {
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    try {
      return await work();
    } finally {
      timings[step] = Date.now() - start;
    }
  };
  const work = mkdtempSync(path.join(os.tmpdir(), 'xroute-fresh-'));
  const dir = path.join(work, 'app');
  mkdirSync(dir);
  const { stdout } = await timed('pack', () =>
    run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repoRoot, env: quietNpm, maxBuffer: 16 << 20 }),
  );
  const [packed] = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[];
  const tarball = path.join(work, packed.filename);
  await timed('init', () => run(npm, ['init', '-y'], { cwd: dir, env: quietNpm }));

  const lock = (JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const self = lock[''];
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; version: string };
  const dependencies = { [packed.name]: `file:${tarball}` };
  const devNames = options.typescript ? ['typescript', '@types/node'] : [];
  const devDependencies = Object.fromEntries(devNames.map((n) => [n, lock[`node_modules/${n}`].version as string]));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...pkg, dependencies, ...(devNames.length > 0 ? { devDependencies } : {}) }, null, 2));
  const installed = `node_modules/${packed.name}`;
  const packages: Record<string, unknown> = {
    '': { name: pkg.name, version: pkg.version, dependencies, devDependencies },
    [installed]: {
      version: self.version,
      resolved: `file:${tarball}`,
      license: self.license,
      dependencies: self.dependencies,
      bin: self.bin,
      engines: self.engines,
    },
  };
  const needed = closure(lock, [
    ...Object.keys(self.dependencies ?? {}).map((d) => ['', d] as [string, string]),
    ...devNames.map((n) => ['', n] as [string, string]),
  ]);
  for (const [key, entry] of Object.entries(needed)) packages[key] = entry;
  writeFileSync(
    path.join(dir, 'package-lock.json'),
    JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  await timed('install', () => run(npm, ['ci', '--offline'], { cwd: dir, env: quietNpm }));
  if (options.typescript) await timed('tscInit', () => run(npx, ['--offline', 'tsc', '--init'], { cwd: dir, env: quietNpm }));
  return { dir, packageName: packed.name, packedFiles: packed.files.map((f) => f.path), timings, remove: () => rmSync(work, { recursive: true, force: true }) };
}
