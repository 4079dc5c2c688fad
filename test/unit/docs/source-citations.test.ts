/**
 * Source comments cite only documents a reader of the repository has: a docs/ page that exists. The reference
 * documents the code was first written from (the component and evaluator references with their numbered sections,
 * the design notes, the broker and nact findings) are not in the repository, so citing them tells the reader nothing; a comment says the why itself or names a docs/ page.
 * A failure lists each line: cite the docs/ page that says it (docs/README.md indexes them), or drop the citation
 * where the comment already states the why.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|js|cjs|mjs)$/.test(e.name) ? [p] : [];
  });
}

const thisFile = path.join(__dirname, 'source-citations.test.ts');
const files = ['src', 'actors', 'test']
  .flatMap((d) => sourceFiles(path.join(root, d)))
  .filter((f) => f !== thisFile && !f.includes(`${path.sep}fixtures${path.sep}`));

/** The reference documents outside the repository. */
const OUTSIDE = /(?<![\w/.-])(components|evaluator|spec|design|nact|brokers|xml-path-findings)\.md\b/;

/** `where: line` for every line of the sources that matches `re`. */
function linesMatching(re: RegExp): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (re.test(line) ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('citations in src/, actors/ and test/', () => {
  it('reads the sources', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('never cites a reference document that is not in the repository', () => {
    expect(linesMatching(OUTSIDE)).toEqual([]);
  });

  it('never cites a bare section number (§4.2) of a document the repository does not have', () => {
    // `§` after a version or a document name (`XPath 1.0 §4`, `JMS 1.1 §3.8.1`, `nact.md §0`) names its source
    expect(linesMatching(/(?<![\d.]\s|md\s|[\w§])§\s?\d/)).toEqual([]);
  });

  it('cites only docs/ pages that exist', () => {
    const cited = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/(?<![\w/.-])docs\/[\w./-]*\w/g)].map((m) => ({ file: path.relative(root, file), doc: m[0] })),
    );
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter((c) => !fs.existsSync(path.join(root, c.doc))).map((c) => `${c.file}: ${c.doc}`)).toEqual([]);
  });
});
