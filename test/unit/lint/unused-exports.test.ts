/**
 * The unused-export gate `npm run lint` runs (knip, configured by knip.jsonc): an export nothing imports, or a
 * file no entry point reaches, fails it. Shown on a small project that uses the repository's knip.jsonc.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');

/** A package whose entry point (package.json main, as the repository's) is src/index.ts. */
const PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'knip-gate-probe', private: true, main: 'dist/src/index.js' }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: '.', outDir: 'dist', strict: true } }),
  'src/index.ts': "import { used } from './helper';\nexport const api = used;\n",
  'src/helper.ts': 'export const used = 1;\n',
};

/** Runs knip with the repository's configuration on PROJECT plus `extra` files; exit code and report. */
function gateOn(extra: Record<string, string>): { status: number | null; report: string } {
  const root = mkdtempSync(join(tmpdir(), 'xroute-knip-'));
  try {
    copyFileSync(join(ROOT, 'knip.jsonc'), join(root, 'knip.jsonc'));
    for (const [file, content] of Object.entries({ ...PROJECT, ...extra })) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), content);
    }
    const child = spawnSync(process.execPath, [KNIP, '--no-progress', '--no-config-hints', '--directory', root], { encoding: 'utf8' });
    return { status: child.status, report: child.stdout };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the unused-export gate', () => {
  it('passes a project whose every export is imported', () => {
    expect(gateOn({})).toEqual({ status: 0, report: '' });
  });

  it('fails on an export nothing imports, naming it and its file', () => {
    const { status, report } = gateOn({ 'src/helper.ts': 'export const used = 1;\nexport function forgotten(): number {\n  return used;\n}\n' });
    expect(status).toBe(1);
    expect(report).toMatch(/Unused exports \(1\)\s+forgotten\s+function\s+src\/helper\.ts:2/);
  });

  it('fails on an export used only inside its own file', () => {
    const { status, report } = gateOn({ 'src/helper.ts': 'export const LIMIT = 3;\nexport const used = LIMIT;\n' });
    expect(status).toBe(1);
    expect(report).toMatch(/LIMIT\s+src\/helper\.ts:1/);
  });

  it('fails on a file no entry point reaches', () => {
    const { status, report } = gateOn({ 'src/orphan.ts': 'export const orphan = 1;\n' });
    expect(status).toBe(1);
    expect(report).toMatch(/Unused files \(1\)\s+src\/orphan\.ts/);
  });
});
