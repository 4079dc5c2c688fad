/**
 * The JSON blocks and command sessions of README.md and docs/**\/*.md are held to what the package does, so
 * examples cannot rot (the ts/js blocks are run by test/integration/doc-code-blocks.test.ts, in a fresh npm
 * project that installed the packed tarball):
 * - ```json blocks must be JSON (or `"key": value` fragments of a JSON object); a topology or a component
 *   configuration among them (or in a fragment) must pass `xroute validate` without errors. `<!-- excerpt: why -->`
 *   marks an elided block that is not JSON; `<!-- not-validated: why -->` one that is not validated.
 * - a plain block that starts with `$ npx xroute validate ...` or `$ npx xroute eval ...` is run (in process, from the
 *   repository root) and must print the rest of the block, stdout and stderr together.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateFile } from '../../../src/cli/validate-file';
import { defaultRegistry } from '../../../actors';
import { main } from '../../../src/cli/main';
import { PassThrough } from 'node:stream';
import { Block, blocksOf, docPages, repoRoot } from '../../support/doc-pages';

const root = repoRoot;
const pages = docPages();
const jsonBlocks = pages.flatMap((file) => blocksOf(file, ['json']));

/** Plain blocks showing an `xroute validate` or `xroute eval` session: the command line and what it prints. */
const sessions = pages.flatMap((file) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^```\n\$ npx xroute ((?:validate|eval) [^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    where: `${path.relative(root, file)}: xroute ${m[1]}`,
    args: m[1].split(' '),
    output: m[2],
  })),
);

describe('JSON blocks and command sessions of README.md and docs/', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-doc-blocks-'));

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('knows every marker of a JSON block', () => {
    const known = new Set(['excerpt', 'not-validated']);
    expect(jsonBlocks.filter((b) => b.marker && !known.has(b.marker.kind)).map((b) => b.where)).toEqual([]);
  });

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
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    ('ClassName' in v || ['Receiver', 'Node', 'Persister'].some((k) => Array.isArray((v as Record<string, unknown>)[k])));

  it.each(jsonBlocks.filter((b) => b.marker?.kind !== 'excerpt').map((b) => [b.where, b] as const))(
    '%s is JSON, and its configurations validate',
    (_where, b) => {
      const values = parseJson(b);
      if (b.marker?.kind === 'not-validated') return;
      const dir = fs.mkdtempSync(path.join(work, 'json-'));
      const errors = values.filter(isConfig).flatMap((config, i) => {
        const file = path.join(dir, `config-${i}.json`);
        fs.writeFileSync(file, JSON.stringify(config));
        return validateFile(file, defaultRegistry())
          .filter((p) => p.severity === 'error')
          .map((p) => `${p.component}: ${p.property}: ${p.message}`);
      });
      expect(errors).toEqual([]);
    },
  );

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
