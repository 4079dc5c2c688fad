/**
 * The documentation is navigable: every relative link of README.md and docs/**\/*.md names a file or folder of the
 * repository, every `#anchor` names a heading of the page it points to (GitHub's heading ids), and every code path
 * written as code (`src/transports/amqp10-connection.ts`, `actors/receivers/`) names a file or folder that exists, so a
 * moved module cannot leave a page pointing at nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { docPages, repoRoot } from '../../support/doc-pages';

const root = repoRoot;

/** The page's text outside fenced blocks. */
function prose(file: string): string {
  return fs.readFileSync(file, 'utf8').replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '');
}

/** GitHub's ids of a page's headings (with -1, -2, ... for repeats). */
function anchors(file: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(file).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

const pages = docPages();

describe('links of README.md and docs/', () => {
  it.each(pages.map((p) => [path.relative(root, p), p] as const))('%s links only to files and headings that exist', (_name, page) => {
    const text = prose(page);
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split('#');
      const resolved = file === '' ? page : path.resolve(path.dirname(page), file);
      if (!fs.existsSync(resolved)) broken.push(`${target}: no such file`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});

/** Repository paths written as inline code: a top-level folder, then a file with an extension or a folder ending in '/'. */
const CODE_PATH = /`((?:src|actors|test|scripts|config|examples|docs)\/[\w./-]*(?:\.[a-z]+|\/))(?::\d+)?`/g;

describe('code paths of README.md and docs/', () => {
  it.each(pages.map((p) => [path.relative(root, p), p] as const))('%s names only files and folders that exist', (_name, page) => {
    const missing = [...prose(page).matchAll(CODE_PATH)].map((m) => m[1]).filter((p) => !fs.existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });

  it('docs/architecture.md names its code paths as links, which the link test above checks', () => {
    const page = pages.find((p) => path.relative(root, p) === path.join('docs', 'architecture.md'))!;
    const codeLinks = [...prose(page).matchAll(/\]\(\.\.\/((?:src|actors|test|scripts)\/[^)#\s]*)\)/g)].map((m) => m[1]);
    expect(codeLinks).toEqual(expect.arrayContaining(['src/runtime/errors.ts', 'actors/receivers/amqp10-consumer.ts', 'actors/receivers/amqp-receiver.ts']));
  });
});

describe('code fences of README.md and docs/', () => {
  it.each(pages.map((p) => [path.relative(root, p), p] as const))('%s closes every fenced block it opens', (_name, page) => {
    // An unclosed fence turns the rest of the page into code (and hides its links from the test above).
    const fences = fs
      .readFileSync(page, 'utf8')
      .split('\n')
      .filter((line) => /^\s*```/.test(line));
    expect(fences.length % 2).toBe(0);
  });
});
