/**
 * Every code block of README.md and docs/**\/*.md is held to what the package does, so examples cannot rot:
 * - ```ts / ```js blocks are compiled (strict) against the built package, imported as `xroute` and
 *   `xroute/internal` through its exports map, then run from the repository root; a `// text` comment after a
 *   `console.log(...)` is the line it must print (`...` stands for anything). A block preceded by
 *   `<!-- compile-only: why -->`, or one that is a module (it exports something), is compiled and not run.
 * - ```json blocks must be JSON (or `"key": value` fragments of a JSON object); a topology or a component
 *   configuration among them (or in a fragment) must pass `xroute validate` without errors. `<!-- excerpt: why -->`
 *   marks an elided block that is not JSON; `<!-- not-validated: why -->` one that is not validated.
 * - a plain block that starts with `$ npx xroute validate ...` or `$ npx xroute eval ...` is run (in process, from the
 *   repository root) and must print the rest of the block, stdout and stderr together.
 * Needs `npm run build` first (it imports dist/, as a program that installed the package would).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { validateFile } from '../../../src/cli/commands';
import { defaultRegistry } from '../../../actors';
import { main } from '../../../src/cli/main';
import { PassThrough } from 'node:stream';
import { docPages, repoRoot } from './doc-pages';

const run = promisify(execFile);
const root = repoRoot;

interface Block {
  /** page:line, e.g. docs/api.md:42 */
  where: string;
  lang: 'ts' | 'js' | 'json';
  text: string;
  /** the `<!-- kind: reason -->` marker on the line before the block, if any */
  marker?: { kind: string; reason: string };
}

const LANGS: Record<string, Block['lang']> = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js', json: 'json' };


/** The fenced blocks of a page in the languages above, with their marker. */
function blocksOf(file: string): Block[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const page = path.relative(root, file);
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    const lang = LANGS[open[2]];
    if (lang) {
      const prev = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? '';
      const m = /^\s*<!-- ([a-z-]+): (.+?) -->\s*$/.exec(prev);
      const text = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n');
      blocks.push({ where: `${page}:${i + 1}`, lang, text, ...(m ? { marker: { kind: m[1], reason: m[2] } } : {}) });
    }
    i = end;
  }
  return blocks;
}

const pages = docPages();
const blocks = pages.flatMap(blocksOf);
const codeBlocks = blocks.filter((b) => b.lang !== 'json');
const jsonBlocks = blocks.filter((b) => b.lang === 'json');

/** Plain blocks showing an `xroute validate` or `xroute eval` session: the command line and what it prints. */
const sessions = pages.flatMap((file) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^```\n\$ npx xroute ((?:validate|eval) [^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    where: `${path.relative(root, file)}: xroute ${m[1]}`,
    args: m[1].split(' '),
    output: m[2],
  })),
);

const isModule = (b: Block) => /^export /m.test(b.text) || /^module\.exports\b/m.test(b.text);
const runnable = codeBlocks.filter((b) => b.marker?.kind !== 'compile-only' && !isModule(b));
const fileName = (b: Block) => `${b.where.replace(/[^A-Za-z0-9]+/g, '_')}.${b.lang}`;

/**
 * The block as a compilable file: a module stays as it is; otherwise its imports and declarations stay at the top
 * and the rest becomes `main()`, so that top-level await works in a CommonJS program.
 */
function asSource(b: Block): string {
  if (isModule(b)) return b.text;
  const top: string[] = [];
  const body: string[] = [];
  let inImport = false;
  const endsImport = (line: string) => /from\s+['"][^'"]+['"];?\s*$|^import\s+['"]/.test(line);
  for (const line of b.text.split('\n')) {
    if (inImport || /^import\s/.test(line)) {
      top.push(line);
      inImport = !endsImport(line);
    } else if (/^declare\s/.test(line)) top.push(line);
    else body.push(line);
  }
  const main = b.lang === 'ts' ? 'export async function main(): Promise<void> {' : 'module.exports.main = async function main() {';
  return `${top.join('\n')}\n${main}\n${body.join('\n')}\n}\n`;
}

/** The lines a block says it prints: `console.log(...); // expected` comments, in order. */
function expectedOutput(b: Block): RegExp[] {
  return [...b.text.matchAll(/^\s*console\.log\(.*\);?\s*\/\/ (.+)$/gm)].map(
    (m) => new RegExp(`^${m[1].trim().split('...').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`),
  );
}

describe('code blocks of README.md and docs/', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-doc-blocks-'));
  const src = path.join(work, 'blocks');
  const out = path.join(work, 'out');
  const diagnostics = new Map<string, string[]>();

  beforeAll(() => {
    if (!fs.existsSync(path.join(root, 'dist/src/index.js')) || !fs.existsSync(path.join(root, 'dist/src/internal.js'))) {
      throw new Error('dist/ is missing: run `npm run build` (tsc) before this test');
    }
    fs.mkdirSync(path.join(work, 'node_modules'), { recursive: true });
    fs.symlinkSync(root, path.join(work, 'node_modules', 'xroute'), 'dir');
    fs.mkdirSync(src);
    for (const b of codeBlocks) fs.writeFileSync(path.join(src, fileName(b)), asSource(b));
    const program = ts.createProgram(
      codeBlocks.map((b) => path.join(src, fileName(b))),
      {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.Node16,
        moduleResolution: ts.ModuleResolutionKind.Node16,
        allowJs: true,
        esModuleInterop: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
        rootDir: src,
        outDir: out,
      },
    );
    const emitted = program.emit();
    for (const d of [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]) {
      const file = d.file ? path.basename(d.file.fileName) : '(program)';
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const list = diagnostics.get(file) ?? [];
      list.push(`${at ? `line ${at.line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      diagnostics.set(file, list);
    }
  }, 120_000);

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('finds the TypeScript examples of the README and of docs/api.md', () => {
    expect(codeBlocks.filter((b) => b.lang === 'ts' && /^(README\.md|docs\/api\.md):/.test(b.where)).length).toBeGreaterThanOrEqual(3);
  });

  it('compiles every ts/js block against the package entry without a diagnostic', () => {
    const failures = Object.fromEntries(codeBlocks.map((b) => [b.where, diagnostics.get(fileName(b)) ?? []]).filter(([, d]) => d.length > 0));
    expect({ failures, other: diagnostics.get('(program)') ?? [] }).toEqual({ failures: {}, other: [] });
  });

  it('marks every block it does not run with a reason, and knows every marker', () => {
    const known = new Set(['compile-only', 'excerpt', 'not-validated']);
    expect(blocks.filter((b) => b.marker && !known.has(b.marker.kind)).map((b) => b.where)).toEqual([]);
    expect(codeBlocks.filter((b) => b.marker && b.marker.kind !== 'compile-only').map((b) => b.where)).toEqual([]);
    expect(jsonBlocks.filter((b) => b.marker?.kind === 'compile-only').map((b) => b.where)).toEqual([]);
  });

  it.each(runnable.map((b) => [b.where, b] as const))('%s runs and prints what it says', async (_where, b) => {
    const compiled = path.join(out, fileName(b).replace(/\.ts$/, '.js'));
    const script = 'require(process.argv[1]).main().catch((e) => { console.error(e); process.exit(1); })';
    const { stdout } = await run(process.execPath, ['-e', script, compiled], { cwd: root, timeout: 60_000 });
    const expected = expectedOutput(b);
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(expected.length);
    expected.forEach((re, i) => expect(lines[i]).toMatch(re));
  }, 90_000);

  it('finds the xroute sessions of the README tour', () => {
    expect(sessions.map((x) => x.args[0]).sort()).toEqual(expect.arrayContaining(['eval', 'validate']));
  });

  it.each(sessions.map((x) => [x.where, x] as const))('%s prints what the block shows', async (_where, x) => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += String(c)));
    const cwd = process.cwd();
    process.chdir(root);
    try {
      await main(x.args, { stdin: new PassThrough(), stdout: out, stderr: out }, new Promise(() => undefined));
    } finally {
      process.chdir(cwd);
    }
    expect(text).toBe(x.output);
  });

  /** Parses a JSON block: the value, the values of a `"key": value` fragment, or undefined for an excerpt. */
  function parseJson(b: Block): unknown[] {
    try {
      return [JSON.parse(b.text)];
    } catch {
      return Object.values(JSON.parse(`{${b.text}}`) as Record<string, unknown>);
    }
  }

  const isConfig = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && ('ClassName' in v || ['Receiver', 'Node', 'Persister'].some((k) => Array.isArray((v as Record<string, unknown>)[k])));

  it.each(jsonBlocks.filter((b) => b.marker?.kind !== 'excerpt').map((b) => [b.where, b] as const))('%s is JSON, and its configurations validate', (_where, b) => {
    const values = parseJson(b);
    if (b.marker?.kind === 'not-validated') return;
    const dir = fs.mkdtempSync(path.join(work, 'json-'));
    const errors = values.filter(isConfig).flatMap((config, i) => {
      const file = path.join(dir, `config-${i}.json`);
      fs.writeFileSync(file, JSON.stringify(config));
      return validateFile(file, defaultRegistry()).filter((p) => p.severity === 'error').map((p) => `${p.component}: ${p.property}: ${p.message}`);
    });
    expect(errors).toEqual([]);
  });

  it('finds an excerpt only where a block is not JSON', () => {
    const parses = (b: Block) => {
      try {
        parseJson(b);
        return true;
      } catch {
        return false;
      }
    };
    expect(jsonBlocks.filter((b) => b.marker?.kind === 'excerpt' && parses(b)).map((b) => b.where)).toEqual([]);
  });
});
