/**
 * XSLT against xsltproc (libxslt), on libxslt's own test stylesheets (libxslt/, MIT licence, see
 * libxslt/ATTRIBUTION.md) and on the cases of issue 33 (cases/). Each stylesheet X.xsl runs on X.xml with the
 * parameters libxslt's test runner passes (`test`, `test2`). A case agrees when both outputs are equal after the
 * normalisation of support/xml-output.ts, or when both processors refuse it; it is refused when xroute refuses the
 * stylesheet or the input naming a construct of REFUSED_CONSTRUCTS (each listed in docs/evaluator/transforms.md);
 * it is a documented difference when DIFFERENCES lists it with its reason. Anything else fails the suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CompiledStylesheet } from '../../../src/transforms/xslt-engine';
import { parseXml } from '../../../src/xml/safe-xml';
import { CaseReport, mapLimited, printFigures, runProcess, staleEntries } from '../support/differential';
import { decodeXml, normaliseXmlOutput } from '../support/xml-output';
import { DIFFERENCES, REFUSED_CONSTRUCTS } from './expectations';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS helper shared with shell use
const { ensureTool } = require('../../support/debian-packages.js') as { ensureTool: (tool: string) => string };

const ROOT = __dirname;
const PARAMS = { test: 'passed_value', test2: 'passed_value2' };
const DOCS = fs.readFileSync(path.join(ROOT, '../../../docs/evaluator/transforms.md'), 'utf8');

interface Case {
  readonly id: string;
  readonly corpus: string;
  readonly dir: string;
  readonly name: string;
}

function casesOf(corpusDir: string, corpus: string): Case[] {
  const dir = path.join(ROOT, corpusDir);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.xsl') && fs.existsSync(path.join(dir, f.slice(0, -4) + '.xml')))
    .sort()
    .map((f) => ({ id: `${corpusDir}/${f.slice(0, -4)}`, corpus, dir, name: f.slice(0, -4) }));
}

const CORPORA: Array<[string, string]> = [
  ['libxslt/REC', 'libxslt tests/REC'],
  ['libxslt/general', 'libxslt tests/general'],
  ['libxslt/namespaces', 'libxslt tests/namespaces'],
  ['libxslt/keys', 'libxslt tests/keys'],
  ['libxslt/numbers', 'libxslt tests/numbers'],
  ['libxslt/exslt-common', 'libxslt tests/exslt/common'],
  ['libxslt/exslt-math', 'libxslt tests/exslt/math'],
  ['libxslt/exslt-sets', 'libxslt tests/exslt/sets'],
  ['libxslt/exslt-strings', 'libxslt tests/exslt/strings'],
  ['cases', 'issue 33 cases'],
];
const CASES = CORPORA.flatMap(([dir, corpus]) => casesOf(dir, corpus));

type Run = { kind: 'output'; text: string; indented: boolean } | { kind: 'refused'; message: string } | { kind: 'failed'; message: string };

function runXroute(c: Case): Run {
  const xslPath = path.join(c.dir, c.name + '.xsl');
  const xsl = decodeXml(fs.readFileSync(xslPath));
  let sheet: CompiledStylesheet;
  try {
    sheet = CompiledStylesheet.compile(xslPath, xsl);
  } catch (e) {
    return { kind: 'refused', message: (e as Error).message };
  }
  let doc;
  try {
    doc = parseXml(decodeXml(fs.readFileSync(path.join(c.dir, c.name + '.xml'))));
  } catch (e) {
    return { kind: 'refused', message: `input: ${(e as Error).message}` };
  }
  try {
    return { kind: 'output', text: sheet.transformDocument(doc, PARAMS), indented: /<xsl:output[^>]*indent="yes"/.test(xsl) };
  } catch (e) {
    return { kind: 'failed', message: (e as Error).message };
  }
}

async function runOracle(xsltproc: string, c: Case): Promise<{ ok: boolean; text: string; stderr: string }> {
  const args = ['--nonet', '--stringparam', 'test', PARAMS.test, '--stringparam', 'test2', PARAMS.test2, c.name + '.xsl', c.name + '.xml'];
  const r = await runProcess(xsltproc, args, { cwd: c.dir });
  return { ok: r.status === 0, text: decodeXml(r.stdout), stderr: r.stderr };
}

function classify(c: Case, ours: Run, oracle: { ok: boolean; text: string; stderr: string }): CaseReport {
  const documented = DIFFERENCES[c.id];
  if (ours.kind === 'refused') {
    if (!oracle.ok) return { id: c.id, outcome: 'agree', detail: 'both refuse' };
    const construct = REFUSED_CONSTRUCTS.find((k) => k.message.test(ours.message));
    if (construct !== undefined) return { id: c.id, outcome: 'refused', detail: construct.docs };
    return { id: c.id, outcome: documented !== undefined ? 'documented' : 'silent', detail: `refused without naming a listed construct: ${ours.message}` };
  }
  if (ours.kind === 'failed' && !oracle.ok) return { id: c.id, outcome: 'agree', detail: 'both fail' };
  if (ours.kind === 'output' && oracle.ok) {
    const a = normaliseXmlOutput(ours.text, { indented: ours.indented, newlineAfterDeclaration: false });
    const b = normaliseXmlOutput(oracle.text, { indented: ours.indented, newlineAfterDeclaration: true });
    if (a === b) return { id: c.id, outcome: 'agree' };
    return { id: c.id, outcome: documented !== undefined ? 'documented' : 'silent', detail: `xroute:\n${a}\nxsltproc:\n${b}` };
  }
  const detail =
    ours.kind === 'failed' ? `xroute failed: ${ours.message}\nxsltproc gave:\n${oracle.text}` : `xsltproc failed: ${oracle.stderr}\nxroute gave:\n${ours.text}`;
  return { id: c.id, outcome: documented !== undefined ? 'documented' : 'silent', detail };
}

describe('XSLT conformance against xsltproc', () => {
  let reports: CaseReport[] = [];

  beforeAll(async () => {
    const xsltproc = ensureTool('xsltproc');
    const oracle = await mapLimited(CASES, 4, (c) => runOracle(xsltproc, c));
    reports = CASES.map((c, i) => classify(c, runXroute(c), oracle[i]!));
    const dump = process.env.XROUTE_CONFORMANCE_DUMP; // a folder: each differing case's detail goes to a file there
    if (dump !== undefined)
      for (const r of reports) if (r.outcome !== 'agree') fs.writeFileSync(path.join(dump, `${r.outcome}-${r.id.replace(/\//g, '_')}.txt`), r.detail ?? '');
    printFigures(
      CORPORA.map(([, corpus]) => corpus),
      CASES,
      reports,
    );
  }, 120_000);

  it('has no silent difference in any corpus', () => {
    expect(reports.filter((r) => r.outcome === 'silent').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('lists only differences that still occur', () => {
    expect(staleEntries(DIFFERENCES, reports)).toEqual([]);
  });

  it('names in the docs every construct it refuses', () => {
    expect(REFUSED_CONSTRUCTS.filter((k) => !DOCS.includes(k.docs)).map((k) => k.docs)).toEqual([]);
  });
});
