/**
 * The README tour shows a topology in step 2 and validates it in step 3: the block a reader studies is the file
 * the command checks, character for character (the session's output is checked by code-blocks.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../support/doc-pages';

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The text of the README between two step headings of the tour. */
function step(n: number): string {
  const start = readme.indexOf(`**${n}. `);
  const end = readme.indexOf(`**${n + 1}. `, start);
  expect([start, end].every((i) => i >= 0)).toBe(true);
  return readme.slice(start, end);
}

it('shows in step 2 the topology file that step 3 validates', () => {
  const shown = /```json\n([\s\S]*?)```/.exec(step(2))?.[1];
  const validated = /\$ npx xroute validate (\S+)/.exec(step(3))?.[1];
  expect(shown).toBeDefined();
  expect(validated).toBeDefined();
  expect(step(2)).toContain(`\`${validated}\``);
  expect(fs.readFileSync(path.join(repoRoot, validated!), 'utf8')).toBe(shown);
});
