/**
 * Every ts/js block of README.md and docs/ runs unchanged where a user would paste it: a project made by
 * `npm init -y` that installed the packed tarball (and typescript, @types/node), with the tsconfig.json of
 * `npx tsc --init`. The fence names the file a block is saved as, so its module system (docs/api.md): js/cjs are
 * CommonJS, mjs an ES module, ts/cts/mts TypeScript compiled by `npx tsc` (one run for all blocks, as a project
 * holding them would) to .js/.cjs/.mjs. Each block is then run with node from the project directory; a
 * `console.log(...); // text` comment is the line it must print (`...` matches anything).
 * `<!-- compile-only: why -->` on the line before a block, or a block that is a module (it exports something),
 * is compiled (TypeScript) or syntax-checked (`node --check`) and not run.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Block, CODE_LANGS, codeBlocks } from '../support/doc-pages';
import { FreshProject, freshProjectWithPackage } from '../support/fresh-npm-project';

const run = promisify(execFile);
const blocks = codeBlocks();
const declared = blocks.filter((b) => (CODE_LANGS as readonly string[]).includes(b.lang));
const TYPESCRIPT = /^[cm]?ts$/;
const isModule = (b: Block) => /^export /m.test(b.text) || /^module\.exports\b/m.test(b.text);
const runs = (b: Block) => b.marker?.kind !== 'compile-only' && !isModule(b);
const fileName = (b: Block) => `${b.where.replace(/[^A-Za-z0-9]+/g, '_')}.${b.lang}`;
const compiledName = (b: Block) => fileName(b).replace(/ts$/, 'js');

/** The lines a block says it prints: `console.log(...); // expected` comments, in order. */
function expectedOutput(b: Block): RegExp[] {
  return [...b.text.matchAll(/^\s*console\.log\(.*\);?\s*\/\/ (.+)$/gm)].map(
    (m) =>
      new RegExp(
        `^${m[1]
          .trim()
          .split('...')
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
}

describe('the ts/js blocks of README.md and docs/, in a fresh npm project', () => {
  let project: FreshProject;
  /** tsc's diagnostics, by file name */
  const diagnostics = new Map<string, string[]>();

  beforeAll(async () => {
    project = await freshProjectWithPackage({ typescript: true });
    for (const b of declared) writeFileSync(path.join(project.dir, fileName(b)), b.text + '\n');
    const tsc = await run(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--offline', 'tsc'], { cwd: project.dir, maxBuffer: 16 << 20 }).catch(
      (e: { stdout: string }) => e,
    );
    for (const line of tsc.stdout.split('\n')) {
      const m = /^([^(\s]+)\((\d+),\d+\): (error .*)$/.exec(line);
      if (m) diagnostics.set(m[1], [...(diagnostics.get(m[1]) ?? []), `line ${m[2]}: ${m[3]}`]);
    }
  }, 240_000);

  afterAll(() => project?.remove());

  it('finds the TypeScript examples of the README and of docs/api.md', () => {
    expect(declared.filter((b) => TYPESCRIPT.test(b.lang) && /^(README\.md|docs\/api\.md):/.test(b.where)).length).toBeGreaterThanOrEqual(3);
  });

  it('names the module system of every block by its fence (js, cjs, mjs, ts, cts, mts)', () => {
    expect(blocks.filter((b) => !declared.includes(b)).map((b) => `${b.where} (${b.lang})`)).toEqual([]);
  });

  it('marks every block it does not run with a reason, and knows no other marker', () => {
    expect(blocks.filter((b) => b.marker && b.marker.kind !== 'compile-only').map((b) => b.where)).toEqual([]);
  });

  it('compiles every TypeScript block with the tsconfig.json of tsc --init, without a diagnostic', () => {
    const failures = Object.fromEntries(
      declared
        .filter((b) => TYPESCRIPT.test(b.lang))
        .map((b) => [b.where, diagnostics.get(fileName(b)) ?? []])
        .filter(([, d]) => d.length > 0),
    );
    const other = [...diagnostics].filter(([file]) => !declared.some((b) => fileName(b) === file));
    expect({ failures, other }).toEqual({ failures: {}, other: [] });
  });

  it.each(declared.filter((b) => !TYPESCRIPT.test(b.lang) && !runs(b)).map((b) => [b.where, b] as const))(
    '%s is valid in its module system (node --check)',
    async (_where, b) => {
      await expect(run(process.execPath, ['--check', fileName(b)], { cwd: project.dir })).resolves.toMatchObject({ stderr: '' });
    },
  );

  it.each(declared.filter(runs).map((b) => [b.where, b] as const))(
    '%s runs and prints what it says',
    async (_where, b) => {
      const { stdout } = await run(process.execPath, [compiledName(b)], { cwd: project.dir, timeout: 60_000 });
      const expected = expectedOutput(b);
      const lines = stdout.split('\n').filter((l) => l !== '');
      expect(lines.length).toBe(expected.length);
      expected.forEach((re, i) => expect(lines[i]).toMatch(re));
    },
    90_000,
  );
});
