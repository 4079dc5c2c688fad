/**
 * A fixed amount of XML-kind work in one process, for instruction counts and CPU profiles
 * (`valgrind --tool=callgrind node dist/test/bench/xml-kinds-profile.js xcut 3000`,
 * `node --cpu-prof ...`): the three workloads of transforms-bench.ts run through the compiled
 * ruleset function directly, without a flow, so the count is the XML path's and repeatable.
 * Usage: node dist/test/bench/xml-kinds-profile.js <xcut|xmerge|xslt|parse|chain|all> [messages]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Message } from '../../src/message';
import { compileXCut } from '../../src/transforms/xcut';
import { compileXMerge } from '../../src/transforms/xmerge';
import { compileXslt } from '../../src/transforms/xslt';
import { compileXPathMap } from '../../src/transforms/xpath-map';
import { parseXml } from '../../src/xml/safe-xml';
import { FIXTURES, contextFor } from '../unit/transforms/context';

const DIR = join(FIXTURES, 'bench');

type Work = () => void;

function workloads(): Record<string, Work> {
  const order = readFileSync(join(DIR, 'order.xml'), 'utf8');
  const extra = readFileSync(join(DIR, 'extra.xml'), 'utf8');
  const ctx = contextFor('w', DIR);
  const xcut = compileXCut({ XPath: '/order/payment' }, ctx);
  const xmerge = compileXMerge({ XMLField: 'extra', SourceXPath: '/extra/*', TargetXPath: '/order/*' }, ctx);
  const xslt = compileXslt({ XSLFile: 'order-text.xsl', XSLParameter: { clerk: '##clerk##' } }, ctx);
  const map = compileXPathMap({ XPath: { customer: '/order/customer/name', items: 'count(/order/items/item)' } }, ctx);
  return {
    xcut: () => void xcut(Message.text(order, { RuleName: 'w' })),
    xmerge: () => void xmerge(Message.text(order, { RuleName: 'w', extra })),
    xslt: () => void xslt(Message.text(order, { RuleName: 'w', clerk: 'Bo' })),
    parse: () => void parseXml(order),
    // a chain: xcut, then an XPath map reading the body xcut wrote
    chain: () => {
      const msg = Message.text(order, { RuleName: 'w' });
      xcut(msg);
      map(msg);
    },
  };
}

function main(argv: string[]): void {
  const which = argv[0] ?? 'all';
  const n = Number(argv[1] ?? '3000');
  const all = workloads();
  const names = which === 'all' ? Object.keys(all) : [which];
  for (const name of names) {
    const work = all[name];
    if (work === undefined) throw new Error(`unknown workload ${name}; known: ${Object.keys(all).join(', ')}`);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) work();
    const ms = performance.now() - t0;
    process.stdout.write(`${name}: ${n} in ${ms.toFixed(1)} ms = ${Math.round((n / ms) * 1000)} /s\n`);
  }
}

main(process.argv.slice(2));
