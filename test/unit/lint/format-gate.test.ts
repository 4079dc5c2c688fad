/**
 * The formatting gate `npm run lint` runs (Prettier, configured by .prettierrc.json with a line width of 160): a file
 * Prettier would rewrite fails it, naming the file. Shown on a small project that uses the repository's
 * .prettierrc.json, and checked to be part of the lint script.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const PRETTIER = join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');

/** Runs `prettier --check` with the repository's configuration on the given files; exit code and report. */
function gateOn(files: Record<string, string>): { status: number | null; report: string } {
  const root = mkdtempSync(join(tmpdir(), 'xroute-format-'));
  try {
    copyFileSync(join(ROOT, '.prettierrc.json'), join(root, '.prettierrc.json'));
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), content);
    }
    const child = spawnSync(process.execPath, [PRETTIER, '--check', '--log-level', 'warn', '**/*.ts'], { cwd: root, encoding: 'utf8' });
    return { status: child.status, report: `${child.stdout}${child.stderr}` };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const FORMATTED = "export const greeting = 'hello';\n";

describe('the formatting gate', () => {
  it('is part of npm run lint', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.lint).toContain('format:check');
    expect(pkg.scripts['format:check']).toMatch(/^prettier --check /);
  });

  it('passes a formatted file', () => {
    expect(gateOn({ 'src/ok.ts': FORMATTED })).toEqual({ status: 0, report: '' });
  });

  it('fails on a file with a line wider than 160 characters, naming the file', () => {
    const items = Array.from({ length: 30 }, (_, i) => `'item-${i}'`).join(', ');
    const { status, report } = gateOn({ 'src/ok.ts': FORMATTED, 'src/wide.ts': `export const items = [${items}];\n` });
    expect(status).toBe(1);
    expect(report).toContain('src/wide.ts');
    expect(report).not.toContain('src/ok.ts');
  });

  it('fails on double quotes where the style says single', () => {
    const { status, report } = gateOn({ 'src/quotes.ts': 'export const greeting = "hello";\n' });
    expect(status).toBe(1);
    expect(report).toContain('src/quotes.ts');
  });
});
