/** The documentation pages the docs tests read: README.md and every page under docs/. */
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? markdownFiles(p) : e.name.endsWith('.md') ? [p] : [];
  });
}

/** Absolute paths of README.md and docs/**\/*.md. */
export function docPages(): string[] {
  return [path.join(repoRoot, 'README.md'), ...markdownFiles(path.join(repoRoot, 'docs'))];
}
