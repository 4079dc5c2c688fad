/**
 * XML well-formedness against libxml2 (`xmllint --noout`): the accept/reject decision of xroute's parser on the
 * documents of wellformedness-cases.ts (shapes of the W3C xmltest collection), and on libxml2's own XPath test
 * documents. A case agrees when both accept or both reject; it is refused when xroute rejects it by a policy listed
 * in docs/evaluator/transforms.md (entities); it is a documented difference when DIFFERENCES gives the reason.
 * Anything else fails the suite. (test/unit/xml/xml-parser-differential.test.ts mutates documents at random
 * against the same oracle.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseXmlText } from '../../../src/xml/xml-parser';
import { CaseReport, figures, figuresLine, runProcess, staleEntries } from '../support/differential';
import { decodeXml } from '../support/xml-output';
import { CASES } from './wellformedness-cases';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS helper shared with shell use
const { ensureTool } = require('../../support/debian-packages.js') as { ensureTool: (tool: string) => string };

const DOCS = fs.readFileSync(path.join(__dirname, '../../../docs/evaluator/transforms.md'), 'utf8');

const REFUSED: ReadonlyArray<{ message: RegExp; docs: string }> = [
  { message: /entity declarations in a DOCTYPE are not allowed/, docs: 'declares entities' },
  { message: /parameter entity references are not allowed/, docs: 'refers to a parameter entity' },
];

/** Cases where xroute's parser deliberately decides otherwise than libxml2, with the reason. */
const DIFFERENCES: Readonly<Record<string, string>> = {};

function ourDecision(text: string): { accepted: boolean; reason?: string } {
  try {
    parseXmlText(text);
    return { accepted: true };
  } catch (e) {
    return { accepted: false, reason: (e as Error).message };
  }
}

/** One xmllint run over every file: the files it reports an error for are the ones it rejects. */
async function libxml2Rejects(xmllint: string, files: readonly string[], cwd: string): Promise<Set<string>> {
  const r = await runProcess(xmllint, ['--noout', '--nonet', ...files], { cwd, timeoutMs: 60_000 });
  const rejected = new Set<string>();
  for (const line of r.stderr.split('\n')) {
    const file = files.find((f) => line.startsWith(f + ':'));
    if (file !== undefined) rejected.add(file);
  }
  return rejected;
}

/** The documents of the XSLT and XPath corpora (libxslt's and libxml2's test inputs), as a body reaches the parser. */
function corpusDocuments(): string[] {
  const root = path.join(__dirname, '..');
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.xml') || p.includes(`${path.sep}docs${path.sep}`)) found.push(path.relative(root, p));
    }
  };
  walk(path.join(root, 'xslt', 'libxslt'));
  walk(path.join(root, 'xpath', 'libxml2', 'docs'));
  return found.sort();
}

function classify(id: string, ours: { accepted: boolean; reason?: string }, libxml2Accepts: boolean): CaseReport {
  if (ours.accepted === libxml2Accepts) return { id, outcome: 'agree' };
  if (!ours.accepted) {
    const construct = REFUSED.find((k) => k.message.test(ours.reason!));
    if (construct !== undefined) return { id, outcome: 'refused', detail: construct.docs };
  }
  if (DIFFERENCES[id] !== undefined) return { id, outcome: 'documented', detail: DIFFERENCES[id] };
  return { id, outcome: 'silent', detail: ours.accepted ? 'xroute accepts, libxml2 rejects' : `xroute rejects (${ours.reason}), libxml2 accepts` };
}

describe('XML well-formedness against xmllint', () => {
  let reports: CaseReport[] = [];
  let documentReports: CaseReport[] = [];

  beforeAll(async () => {
    const xmllint = ensureTool('xmllint');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-wf-'));
    try {
      const files = CASES.map(([id, text]) => {
        fs.writeFileSync(path.join(dir, `${id}.xml`), text);
        return `${id}.xml`;
      });
      const rejected = await libxml2Rejects(xmllint, files, dir);
      reports = CASES.map(([id, text]) => classify(id, ourDecision(text), !rejected.has(`${id}.xml`)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const root = path.join(__dirname, '..');
    const documents = corpusDocuments();
    const rejected = await libxml2Rejects(xmllint, documents, root);
    documentReports = documents.map((f) => classify(f, ourDecision(decodeXml(fs.readFileSync(path.join(root, f)))), !rejected.has(f)));
    process.stdout.write(figuresLine(figures('XML well-formedness (xmltest shapes)', reports)) + '\n');
    process.stdout.write(figuresLine(figures('XML well-formedness (libxslt and libxml2 test documents)', documentReports)) + '\n');
  }, 120_000);

  it('has no silent difference on the xmltest shapes', () => {
    expect(reports.filter((r) => r.outcome === 'silent').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('has no silent difference on the test documents of libxslt and libxml2', () => {
    expect(documentReports.filter((r) => r.outcome === 'silent').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('lists only differences that still occur', () => {
    expect(staleEntries(DIFFERENCES, [...reports, ...documentReports])).toEqual([]);
  });

  it('names in the docs every policy it refuses by', () => {
    expect(REFUSED.map((k) => k.docs).filter((k) => !DOCS.includes(k))).toEqual([]);
  });
});
