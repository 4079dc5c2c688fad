/** The documentation pages the docs tests read (README.md and every page under docs/), and their fenced blocks. */
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../..');

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

/**
 * What a code block is written as, named by its fence: the file extension it is saved under, which is its
 * module system in a project made by `npm init -y` ("type": "commonjs"): js and cjs are CommonJS, mjs an ES
 * module, ts and cts TypeScript compiled to CommonJS, mts TypeScript compiled to an ES module (docs/api.md).
 */
export const CODE_LANGS = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'] as const;
/** Fence names that say the language but not the module system: a block must not use them. */
const UNDECLARED_LANGS = ['javascript', 'typescript', 'jsx', 'tsx', 'node'];

export interface Block {
  /** page:line, e.g. docs/api.md:42 */
  where: string;
  /** the fence's info string, first word (json, ts, mjs, ...) */
  lang: string;
  text: string;
  /** the `<!-- kind: reason -->` marker on the line before the block, if any */
  marker?: { kind: string; reason: string };
}

/** The fenced blocks of a page in the given languages, with their marker. */
export function blocksOf(file: string, langs: readonly string[]): Block[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const page = path.relative(repoRoot, file);
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    if (langs.includes(open[2])) {
      const prev =
        lines
          .slice(0, i)
          .reverse()
          .find((l) => l.trim() !== '') ?? '';
      const m = /^\s*<!-- ([a-z-]+): (.+?) -->\s*$/.exec(prev);
      const text = lines
        .slice(i + 1, end)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join('\n');
      blocks.push({ where: `${page}:${i + 1}`, lang: open[2], text, ...(m ? { marker: { kind: m[1], reason: m[2] } } : {}) });
    }
    i = end;
  }
  return blocks;
}

/** The ts/js blocks of README.md and docs/ (and those fenced without a module system, which a test refuses). */
export function codeBlocks(): Block[] {
  return docPages().flatMap((file) => blocksOf(file, [...CODE_LANGS, ...UNDECLARED_LANGS]));
}
