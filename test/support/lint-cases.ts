/**
 * Lints snippets as files of this tree with its eslint.config.mjs (through lint-snippets.js, a separate process) and
 * returns, per case, the ids of the rules reported: what the tests of the lint rules (test/unit/lint) assert on.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface LintCase {
  /** The file the snippet pretends to be, relative to the repository root. */
  readonly filePath: string;
  readonly code: string;
}

export function rulesReported<N extends string>(cases: Record<N, LintCase>): Record<N, string[]> {
  const root = join(__dirname, '..', '..');
  const names = Object.keys(cases) as N[];
  const child = spawnSync(process.execPath, [join(root, 'test', 'support', 'lint-snippets.js')], {
    cwd: root,
    input: JSON.stringify(names.map((n) => cases[n])),
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`lint-snippets.js failed (exit ${child.status}): ${child.stderr}`);
  const results = JSON.parse(child.stdout) as { filePath: string; rules: string[] }[];
  return Object.fromEntries(names.map((n, i) => [n, results[i].rules])) as Record<N, string[]>;
}
