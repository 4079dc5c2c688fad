/**
 * XPath 1.0 against libxml2 (`xmllint --xpath`), on libxml2's own XPath test expressions (libxml2/, MIT licence,
 * see libxml2/ATTRIBUTION.md): `expr/*` evaluated on `<r/>`, `tests/<doc><kind>` on `docs/<doc>`. xroute's
 * engine runs with namespace-aware names, as in XSLT (the XPath kinds' local-name matching is a documented
 * difference of their own). A node set is compared node by node as xmllint prints it; any other value as its
 * XPath string value (the oracle is asked for `string(E)`, since xmllint prints numbers to 6 digits). A case
 * agrees, is refused (xroute refuses the expression naming a construct listed in docs/evaluator/transforms.md),
 * or differs in a way DIFFERENCE_RULES recognises and explains; anything else fails the suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseXmlText } from '../../../src/xml/xml-parser';
import { DOCUMENT, NAMESPACE, XNode } from '../../../src/xml/xml-dom';
import { XPathError, XValue, compileXPath, toStr } from '../../../src/xml/xpath-compiler';
import { XmlWriter, copyNode } from '../../../src/xml/xslt-output';
import { CaseReport, mapLimited, printFigures, runProcess, staleEntries } from '../support/differential';
import { normaliseXmlOutput } from '../support/xml-output';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS helper shared with shell use
const { ensureTool } = require('../../support/debian-packages.js') as { ensureTool: (tool: string) => string };

const ROOT = path.join(__dirname, 'libxml2');
const DOCS = fs.readFileSync(path.join(__dirname, '../../../docs/evaluator/transforms.md'), 'utf8');
const EMPTY_DOC = path.join(__dirname, 'empty.xml');

/** Refusals that count, each as the docs list it. */
const REFUSED: ReadonlyArray<{ message: RegExp; docs: string }> = [];

/** Single cases that differ deliberately, each with its reason. */
const DIFFERENCES: Readonly<Record<string, string>> = {
  'expr/functions:6': "number('-') is NaN (XPath 1.0 §4.4: not a Number); libxml2 gives 0",
};

/** Differences recognised by shape, each with its reason (shown in docs/evaluator/transforms.md). */
const DIFFERENCE_RULES: ReadonlyArray<{ reason: string; docs: string; applies: (ours: string, oracle: string) => boolean }> = [
  {
    docs: 'numbers are written with as many digits as it takes to tell them apart',
    reason: 'numbers are written with as many digits as it takes to tell them apart (XPath 1.0 §4.2); libxml2 rounds to 15 significant digits',
    applies: (ours, oracle) => /^-?[\d.]+$/.test(ours) && ours !== oracle && Number(oracle) === Number(Number(ours).toPrecision(15)),
  },
  {
    docs: 'writes large numbers with an exponent',
    reason: 'very large and very small numbers are written without an exponent (XPath 1.0 §4.2); libxml2 writes 1e+21',
    applies: (ours, oracle) => /^-?\d+(\.\d+)?$/.test(ours) && /e/i.test(oracle) && Number(ours) === Number(oracle),
  },
];

interface Case {
  readonly id: string;
  readonly corpus: string;
  readonly doc: string;
  readonly expr: string;
}

const DOC_OF: Readonly<Record<string, string>> = {
  chaptersbase: 'chapters',
  chaptersprefol: 'chapters',
  idsimple: 'id',
  langsimple: 'lang',
  mixedpat: 'mixed',
  nodespat: 'nodes',
  nssimple: 'ns',
  simpleabbr: 'simple',
  simplebase: 'simple',
  strbase: 'str',
  unicodesimple: 'unicode',
  usr1check: 'usr1',
  vidbase: 'vid',
};

function casesOf(folder: 'expr' | 'tests'): Case[] {
  return fs
    .readdirSync(path.join(ROOT, folder))
    .sort()
    .flatMap((file) => {
      const doc = folder === 'expr' ? EMPTY_DOC : path.join(ROOT, 'docs', DOC_OF[file] ?? file);
      const lines = fs
        .readFileSync(path.join(ROOT, folder, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      return lines.map((expr, i) => ({ id: `${folder}/${file}:${i + 1}`, corpus: `libxml2 test/XPath/${folder}`, doc, expr }));
    });
}

const CASES = [...casesOf('expr'), ...casesOf('tests')];

/** How xmllint prints one node of a node set (a document with a declaration and a blank line after it). */
function printNode(n: XNode): string {
  // xmllint prints a namespace node as its declaration, and the xml namespace as an empty line
  if (n.type === NAMESPACE) return n.local === 'xml' ? '' : ` xmlns:${n.local}="${n.value}"`;
  if (n.type === 2) return ` ${n.name}="${n.value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"`;
  const w = new XmlWriter({ declaration: undefined, indent: false });
  if (n.type !== DOCUMENT) {
    copyNode(n, w, true, false);
    return w.result();
  }
  for (const c of n.children) copyNode(c, w, true, false);
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + w.result() + '\n';
}

type Ours = { kind: 'nodes'; text: string } | { kind: 'value'; text: string } | { kind: 'refused'; message: string } | { kind: 'failed'; message: string };

const parsed = new Map<string, XNode>();
function runXroute(c: Case): Ours {
  let doc = parsed.get(c.doc);
  if (doc === undefined) parsed.set(c.doc, (doc = parseXmlText(fs.readFileSync(c.doc, 'utf8'))));
  let e;
  try {
    e = compileXPath(c.expr, { names: 'namespaces', resolvePrefix: () => undefined });
  } catch (err) {
    return { kind: 'refused', message: (err as Error).message };
  }
  let v: XValue;
  try {
    v = e({ node: doc, pos: 1, size: 1, rt: undefined });
  } catch (err) {
    if (err instanceof XPathError || err instanceof RangeError) return { kind: 'failed', message: err.message };
    throw err;
  }
  return Array.isArray(v) ? { kind: 'nodes', text: v.map(printNode).join('\n') } : { kind: 'value', text: toStr(v) };
}

async function runOracle(xmllint: string, c: Case, ours: Ours): Promise<{ ok: boolean; empty: boolean; text: string }> {
  const expr = ours.kind === 'value' ? `string(${c.expr})` : c.expr;
  const r = await runProcess(xmllint, ['--nonet', '--xpath', expr, c.doc]);
  const text = r.stdout.toString('utf8').replace(/\n$/, '');
  return { ok: r.status === 0, empty: r.status === 10 && /XPath set is empty/.test(r.stderr), text };
}

function classify(c: Case, ours: Ours, oracle: { ok: boolean; empty: boolean; text: string }): CaseReport {
  if (ours.kind === 'refused' || ours.kind === 'failed') {
    if (!oracle.ok && !oracle.empty) return { id: c.id, outcome: 'agree', detail: 'both refuse' };
    const construct = REFUSED.find((k) => k.message.test(ours.message));
    if (construct !== undefined) return { id: c.id, outcome: 'refused', detail: construct.docs };
    return { id: c.id, outcome: 'silent', detail: `${c.expr}: xroute ${ours.kind}: ${ours.message}; xmllint: ${oracle.text}` };
  }
  if (ours.kind === 'nodes' && ours.text === '' && oracle.empty) return { id: c.id, outcome: 'agree' };
  const a = ours.kind === 'nodes' ? normaliseXmlOutput(ours.text, { indented: false, newlineAfterDeclaration: true }) : ours.text;
  const b = ours.kind === 'nodes' ? normaliseXmlOutput(oracle.text, { indented: false, newlineAfterDeclaration: true }) : oracle.text;
  if (oracle.ok && a === b) return { id: c.id, outcome: 'agree' };
  const rule = oracle.ok && ours.kind === 'value' ? DIFFERENCE_RULES.find((r) => r.applies(a, b)) : undefined;
  if (rule !== undefined) return { id: c.id, outcome: 'documented', detail: rule.reason };
  if (DIFFERENCES[c.id] !== undefined) return { id: c.id, outcome: 'documented', detail: DIFFERENCES[c.id] };
  return { id: c.id, outcome: 'silent', detail: `${c.expr} on ${path.basename(c.doc)}:\nxroute:\n${a}\nxmllint${oracle.ok ? '' : ' (failed)'}:\n${b}` };
}

describe('XPath conformance against xmllint', () => {
  let reports: CaseReport[] = [];

  beforeAll(async () => {
    const xmllint = ensureTool('xmllint');
    const ours = CASES.map(runXroute);
    const oracle = await mapLimited(CASES, 4, (c) => runOracle(xmllint, c, ours[CASES.indexOf(c)]!));
    reports = CASES.map((c, i) => classify(c, ours[i]!, oracle[i]!));
    printFigures(new Set(CASES.map((c) => c.corpus)), CASES, reports);
  }, 120_000);

  it('has no silent difference', () => {
    expect(reports.filter((r) => r.outcome === 'silent').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('lists only differences that still occur', () => {
    expect(staleEntries(DIFFERENCES, reports)).toEqual([]);
  });

  it('names in the docs every construct it refuses and every difference it accepts', () => {
    expect([...REFUSED.map((k) => k.docs), ...DIFFERENCE_RULES.map((r) => r.docs)].filter((k) => !DOCS.includes(k))).toEqual([]);
  });
});
