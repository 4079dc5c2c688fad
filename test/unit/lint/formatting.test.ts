/**
 * The formatter's check (`npm run format:check`: prettier with .prettierrc.json, 160 columns, single quotes,
 * trailing commas) fails on a badly formatted file and passes the same code formatted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const PRETTIER = join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');

/** Exit code of the check on one file holding `code`, with the repository's configuration. */
function checkStatus(code: string): number | null {
  const dir = mkdtempSync(join(tmpdir(), 'xroute-format-'));
  try {
    const file = join(dir, 'probe.ts');
    writeFileSync(file, code);
    return spawnSync(process.execPath, [PRETTIER, '--config', join(ROOT, '.prettierrc.json'), '--check', file], { encoding: 'utf8' }).status;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FORMATTED = [
  "import { join } from 'node:path';",
  '',
  'export function where(dir: string, names: readonly string[]): string[] {',
  '  return names.map((name) => join(dir, name));',
  '}',
  '',
].join('\n');

describe('the formatter check', () => {
  it('passes code written as the configuration says', () => {
    expect(checkStatus(FORMATTED)).toBe(0);
  });

  it('fails on double quotes and a missing semicolon', () => {
    expect(checkStatus(FORMATTED.replace("'node:path';", '"node:path"'))).toBe(1);
  });

  it('fails on a line longer than 160 characters', () => {
    const long = `export const tooLong = [${Array.from({ length: 30 }, (_, i) => `'item${i}'`).join(', ')}];\n`;
    expect(long.length).toBeGreaterThan(160);
    expect(checkStatus(long)).toBe(1);
  });
});
