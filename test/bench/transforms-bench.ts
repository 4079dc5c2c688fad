/**
 * Benchmark of the transform kinds (issue 3): each case runs the compiled ruleset function and a
 * hand-written function doing the same transform with the same library calls, interleaved in
 * rounds in one run, and reports messages per second and the ratio ruleset / hand-written.
 *   (b) XSLT (SaxonJS, stylesheet compiled once)  (c) JSONata template  (d) xcut and xmerge
 * The hand-written XML baselines serialise with xmldom's XMLSerializer (no indentation), the
 * kinds with their indenting serialiser, so (d) includes that difference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonata from 'jsonata';
import * as xpath from 'xpath';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Node } from '@xmldom/xmldom';
import { Message } from '../../src/message';
import { compileJsonataTemplate, compileXCut, compileXMerge, compileXslt } from '../../src/transforms';
import { CompiledStylesheet } from '../../src/transforms/xslt-engine';
import { XML_DECLARATION } from '../../src/transforms/safe-xml';
import { FIXTURES, contextFor } from '../unit/transforms/context';
import type { BenchRow } from './bench-types';
import { Step, compareInterleaved } from './interleaved';

interface Case {
  name: string;
  make: () => Message;
  ruleset: Step<Message>;
  handWritten: Step<Message>;
}

const ROUNDS = 20;

async function runCase(c: Case, n: number): Promise<BenchRow> {
  const r = await compareInterleaved({ subject: c.ruleset, baseline: c.handWritten, make: c.make, rounds: ROUNDS, perRound: Math.max(1, Math.floor(n / ROUNDS)), warmUp: 50 });
  return {
    name: c.name,
    unit: 'msg/s',
    value: Math.round(1e9 / r.subjectNs),
    baseline: Math.round(1e9 / r.baselineNs),
    // Throughput ratio: xroute rate / hand-written rate, the inverse of the median time ratio.
    ratio: Number((1 / r.timeRatio).toFixed(3)),
    target: 'ratio >= 0.8',
  };
}

function xmlCases(): Case[] {
  const parser = new DOMParser();
  const serializer = new XMLSerializer();
  const body = '<r><a>A1</a><a>A2</a><b>B</b></r>';
  const rewrite = (msg: Message, doc: ReturnType<DOMParser['parseFromString']>) => msg.setText(`${XML_DECLARATION}\n${serializer.serializeToString(doc)}\n`);
  return [
    {
      name: 'xcut',
      make: () => Message.text(body),
      ruleset: compileXCut({ XPath: '/r/b' }, contextFor('xcut')),
      handWritten: (msg) => {
        const doc = parser.parseFromString(msg.bodyText()!, 'text/xml');
        const nodes = xpath.select('/r/b', doc as unknown as globalThis.Node) as unknown as Node[];
        for (const node of nodes) node.parentNode!.removeChild(node);
        rewrite(msg, doc);
      },
    },
    {
      name: 'xmerge',
      make: () => Message.text(body, { src: '<s><c>C1</c><c>C2</c></s>' }),
      ruleset: compileXMerge({ XMLField: 'src', SourceXPath: '/s/*', TargetXPath: '/r/a' }, contextFor('xmerge')),
      handWritten: (msg) => {
        const source = parser.parseFromString(msg.getProperty('src')!, 'text/xml');
        const doc = parser.parseFromString(msg.bodyText()!, 'text/xml');
        const copies = xpath.select('/s/*', source as unknown as globalThis.Node) as unknown as Node[];
        const targets = xpath.select('/r/a', doc as unknown as globalThis.Node) as unknown as Node[];
        const parent = targets[0]!.parentNode!;
        for (const node of copies) parent.appendChild(doc.importNode(node, true));
        rewrite(msg, doc);
      },
    },
  ];
}

function xsltCase(): Case {
  const file = join(FIXTURES, 'xsl', 'modes.xsl');
  const stylesheet = CompiledStylesheet.compile(file, readFileSync(file, 'utf8'));
  const body = '<order><item sku="s1"><qty>1</qty></item><item sku="s2"><qty>5</qty></item></order>';
  return {
    name: 'xslt',
    make: () => Message.text(body, { name: 'Ann' }),
    ruleset: compileXslt({ XSLFile: 'xsl/modes.xsl', XSLParameter: { who: '##name##' } }, contextFor('xsl')),
    handWritten: (msg) => msg.setText(stylesheet.transform(msg.bodyText()!, { who: msg.getProperty('name') ?? '' })),
  };
}

function jsonataCase(): Case {
  const expression = jsonata(readFileSync(join(FIXTURES, 'jsonata', 'jt1.jsonata'), 'utf8'));
  const body = '{"id":"7","items":[{"n":"1"},{"n":"2"}]}';
  return {
    name: 'jsonata',
    make: () => Message.text(body, { name: 'Ann' }),
    ruleset: compileJsonataTemplate({ JTMPFile: 'jsonata/jt1.jsonata', JSONParameter: { who: '##name##', k: '42' } }, contextFor('jt')),
    handWritten: async (msg) => {
      const result: unknown = await expression.evaluate(JSON.parse(msg.bodyText()!), { who: msg.getProperty('name') ?? '', k: '42' });
      msg.setText(JSON.stringify(result));
    },
  };
}

export async function benchTransforms(opts: { n: number }): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const c of [xsltCase(), jsonataCase(), ...xmlCases()]) rows.push(await runCase(c, opts.n));
  return rows;
}
