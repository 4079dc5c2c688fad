/**
 * The MessageEvaluator examples of the documentation are run as written: each test reads its configuration,
 * input and expected output from the docs/ page itself, so the documentation cannot drift from what xroute does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runEval } from '../../../src/cli/eval-command';

const DOCS = path.join(__dirname, '..', '..', '..', 'docs');

/** The text of the section of docs/`page` whose `## ` heading starts with `title`, up to the next heading. */
function section(page: string, title: string): string {
  const text = fs.readFileSync(path.join(DOCS, page), 'utf8');
  const start = text.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`docs/${page} has no section "## ${title}"`);
  const next = text.slice(start + 1).search(/\n#{1,3} /);
  return next < 0 ? text.slice(start) : text.slice(start, start + 1 + next);
}

/** The fenced code blocks of a section, in order. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The first match of `re` in `text` (its groups), or a failure naming what was looked for. */
function find(text: string, re: RegExp): RegExpExecArray {
  const m = re.exec(text);
  if (m === null) throw new Error(`documented example changed shape: ${re} not found`);
  return m;
}

/** Runs `xroute eval` on files written to a fresh directory; returns stdout lines and stderr. */
async function evalFiles(files: Record<string, string>, config: string, messages: string): Promise<{ code: number; lines: string[]; err: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-docs-'));
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
    const lines = Buffer.concat(outChunks)
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
    return { code, lines, err: Buffer.concat(errChunks).toString('utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A component configuration holding one documented ruleset fragment (`"name": {...}`). */
function evaluatorWith(fragment: string): string {
  return JSON.stringify({ Name: 'pstr_eval', ClassName: 'org.qbroker.persister.MessageEvaluator', Ruleset: JSON.parse(`{${fragment}}`) });
}

/** The name of the ruleset in a documented fragment. */
function rulesetName(fragment: string): string {
  return Object.keys(JSON.parse(`{${fragment}}`))[0];
}

describe('docs/ MessageEvaluator examples (run as written)', () => {
  it('"Trying rulesets: xroute eval" prints exactly the documented lines and warning', async () => {
    const text = section('components/message-evaluator.md', 'Trying rulesets');
    const [config, messages, expected] = codeBlocks(text);
    const template = find(text, /`templates\/bill\.txt` holds `([^`]+)` and a newline/)[1];
    const { code, lines, err } = await evalFiles(
      { 'evaluator.json': config, 'messages.jsonl': messages, 'templates/bill.txt': `${template}\n` },
      'evaluator.json',
      'messages.jsonl',
    );
    expect(code).toBe(Number(find(text, /prints \(exit code (\d+)\)/)[1]));
    expect(lines).toEqual(expected.trim().split('\n'));
    expect(err).toContain(find(text, /on stderr `([^`]+)`/)[1]);
  });

  it('"JTMPFile: QBroker\'s JSONT" gives the documented body', async () => {
    const text = section('evaluator/transforms.md', "JTMPFile: QBroker's JSONT");
    const [templateFile, fragment] = codeBlocks(text);
    const [, name, body, result] = find(text, /property `name=([^`]+)` and body `([^`]+)`,\s+the new body is `([^`]+)`/);
    const message = JSON.stringify({ body, properties: { RuleName: rulesetName(fragment), name } });
    const { lines } = await evalFiles(
      { 'evaluator.json': evaluatorWith(fragment), 'templates/order.json': templateFile, 'in.jsonl': message },
      'evaluator.json',
      'in.jsonl',
    );
    expect(JSON.parse(lines[0])).toMatchObject({ body: result, properties: { ReturnCode: '0' } });
  });

  it('"JSONataFile: JSONata" gives the documented body', async () => {
    const text = section('evaluator/transforms.md', 'JSONataFile: JSONata');
    const [expression, fragment] = codeBlocks(text);
    const [, name, body, result] = find(text, /property `name=([^`]+)` and body `([^`]+)`, the\s+new body is `([^`]+)`/);
    const message = JSON.stringify({ body, properties: { RuleName: rulesetName(fragment), name } });
    const { lines } = await evalFiles(
      { 'evaluator.json': evaluatorWith(fragment), 'templates/order.jsonata': expression, 'in.jsonl': message },
      'evaluator.json',
      'in.jsonl',
    );
    expect(JSON.parse(lines[0])).toMatchObject({ body: result, properties: { ReturnCode: '0' } });
  });

  it('"JSONFormatter" gives the documented body and property', async () => {
    const text = section('evaluator/transforms.md', 'JSONFormatter');
    const [fragment] = codeBlocks(text);
    const [, body, k, result, removed] = find(
      text,
      /For body `([^`]+)` and property `k=(\d+)`, the new body is\s+`([^`]+)`, property `removed=([^`]+)`, code 0/,
    );
    const message = JSON.stringify({ body, properties: { RuleName: rulesetName(fragment), k } });
    const { lines } = await evalFiles({ 'evaluator.json': evaluatorWith(fragment), 'in.jsonl': message }, 'evaluator.json', 'in.jsonl');
    expect(JSON.parse(lines[0])).toMatchObject({ body: result, properties: { removed, ReturnCode: '0' } });
  });

  it('"Translation" turns the documented XML into the documented JSON', async () => {
    const text = section('evaluator/transforms.md', 'Translation');
    const [fragment, result] = codeBlocks(text);
    const xml = find(text, /turns `([^`]+)` into/)[1];
    const message = JSON.stringify({ body: xml, properties: { RuleName: rulesetName(fragment) } });
    const { lines } = await evalFiles({ 'evaluator.json': evaluatorWith(fragment), 'in.jsonl': message }, 'evaluator.json', 'in.jsonl');
    expect(JSON.parse(lines[0])).toMatchObject({ body: result.replace(/\n$/, ''), properties: { ReturnCode: '0' } });
  });
});
