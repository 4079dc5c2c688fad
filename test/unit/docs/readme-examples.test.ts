/**
 * The README's MessageEvaluator examples are run as written: each test reads its configuration, input
 * and expected output from README.md itself, so the documentation cannot drift from what xroute does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runEval } from '../../../src/cli/eval-command';

const README = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** The text of the README section whose heading starts with `title`, up to the next heading. */
function section(title: string): string {
  const start = README.indexOf(`\n### ${title}`);
  if (start < 0) throw new Error(`README has no section "### ${title}"`);
  const next = README.slice(start + 1).search(/\n#{2,3} /);
  return next < 0 ? README.slice(start) : README.slice(start, start + 1 + next);
}

/** The fenced code blocks of a section, in order. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The first match of `re` in `text` (its groups), or a failure naming what was looked for. */
function find(text: string, re: RegExp): RegExpExecArray {
  const m = re.exec(text);
  if (m === null) throw new Error(`README example changed shape: ${re} not found`);
  return m;
}

/** Runs `xroute eval` on files written to a fresh directory; returns stdout lines and stderr. */
async function evalFiles(files: Record<string, string>, config: string, messages: string): Promise<{ code: number; lines: string[]; err: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-readme-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const out = new PassThrough();
    const err = new PassThrough();
    const outChunks: Buffer[] = [];
    const errChunks: Buffer[] = [];
    out.on('data', (c: Buffer) => outChunks.push(c));
    err.on('data', (c: Buffer) => errChunks.push(c));
    const code = await runEval(path.join(dir, config), path.join(dir, messages), { stdin: Readable.from([]), stdout: out, stderr: err });
    const lines = Buffer.concat(outChunks).toString('utf8').split('\n').filter((l) => l !== '');
    return { code, lines, err: Buffer.concat(errChunks).toString('utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A component configuration holding one README ruleset fragment (`"name": {...}`). */
function evaluatorWith(fragment: string): string {
  return JSON.stringify({ Name: 'pstr_eval', ClassName: 'org.qbroker.persister.MessageEvaluator', Ruleset: JSON.parse(`{${fragment}}`) });
}

/** The name of the ruleset in a README fragment. */
function rulesetName(fragment: string): string {
  return Object.keys(JSON.parse(`{${fragment}}`))[0];
}

describe('README examples (run as written)', () => {
  it('"Trying rulesets: xroute eval" prints exactly the documented lines and warning', async () => {
    const text = section('Trying rulesets');
    const [config, messages, expected] = codeBlocks(text);
    const template = find(text, /`templates\/bill\.txt` holds `([^`]+)` and a newline/)[1];
    const { code, lines, err } = await evalFiles({ 'evaluator.json': config, 'messages.jsonl': messages, 'templates/bill.txt': `${template}\n` }, 'evaluator.json', 'messages.jsonl');
    expect(code).toBe(Number(find(text, /prints \(exit code (\d+)\)/)[1]));
    expect(lines).toEqual(expected.trim().split('\n'));
    expect(err).toContain(find(text, /on stderr `([^`]+)`/)[1]);
  });

  it('"JTMPFile is JSONata" gives the documented body', async () => {
    const text = section('JTMPFile is JSONata');
    const [expression, fragment] = codeBlocks(text);
    const [, name, body, result] = find(text, /property `name=([^`]+)` and body `([^`]+)`, the\s+new body is `([^`]+)`/);
    const message = JSON.stringify({ body, properties: { RuleName: rulesetName(fragment), name } });
    const { lines } = await evalFiles({ 'evaluator.json': evaluatorWith(fragment), 'templates/order.jsonata': expression, 'in.jsonl': message }, 'evaluator.json', 'in.jsonl');
    expect(JSON.parse(lines[0])).toMatchObject({ body: result, properties: { ReturnCode: '0' } });
  });

  it('"JSONFormatter" gives the documented body and property', async () => {
    const text = section('JSONFormatter');
    const [fragment] = codeBlocks(text);
    const [, body, k, result, removed] = find(text, /For body `([^`]+)` and property `k=(\d+)`, the new body is\s+`([^`]+)`, property `removed=([^`]+)`, code 0/);
    const message = JSON.stringify({ body, properties: { RuleName: rulesetName(fragment), k } });
    const { lines } = await evalFiles({ 'evaluator.json': evaluatorWith(fragment), 'in.jsonl': message }, 'evaluator.json', 'in.jsonl');
    expect(JSON.parse(lines[0])).toMatchObject({ body: result, properties: { removed, ReturnCode: '0' } });
  });

  it('"Translation" turns the documented XML into the documented JSON', async () => {
    const text = section('Translation');
    const [fragment, result] = codeBlocks(text);
    const xml = find(text, /turns `([^`]+)` into/)[1];
    const message = JSON.stringify({ body: xml, properties: { RuleName: rulesetName(fragment) } });
    const { lines } = await evalFiles({ 'evaluator.json': evaluatorWith(fragment), 'in.jsonl': message }, 'evaluator.json', 'in.jsonl');
    expect(JSON.parse(lines[0])).toMatchObject({ body: result.replace(/\n$/, ''), properties: { ReturnCode: '0' } });
  });
});
