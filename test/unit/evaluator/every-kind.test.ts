/**
 * Every ruleset kind, run the two ways an operator runs it: through `xroute eval` and inside a
 * running topology (a Flow with the MessageEvaluator component). Both read the same topology file
 * (test/fixtures/evaluator/every-kind/topology.json) and must give the same, expected results.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runEval } from '../../../src/cli/eval-command';
import { loadTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { MessageJson, messageFromJson, messageToJson } from '../../../src/message/json-form';
import { defaultRegistry } from '../../../actors';
import { FIXTURES } from './helpers';

const DIR = join(FIXTURES, 'every-kind');
const TOPOLOGY = join(DIR, 'topology.json');
const XML = '<r><a>A1</a><a>A2</a><b>B</b></r>';
const BILL_SIZE = String(statSync(join(FIXTURES, 'templates', 'bill.txt')).size);

/** A local time one minute ago as "yyyy-MM-dd HH:mm:ss" (the `fresh` ruleset's TimePattern). */
function oneMinuteAgo(): string {
  const d = new Date(Date.now() - 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

interface Case {
  readonly title: string;
  readonly input: MessageJson;
  /** Expected ReturnCode, selected properties, and the body when given. */
  readonly rc: string;
  readonly properties?: Record<string, string>;
  readonly body?: string | RegExp;
}

const CASES: readonly Case[] = [
  { title: 'filter only: a match', input: { body: 'qty=3', properties: { RuleName: 'filterOnly' }, headers: { JMSType: 'order.new' } }, rc: '0' },
  { title: 'filter only: no match', input: { body: 'none', properties: { RuleName: 'filterOnly' }, headers: { JMSType: 'order.new' } }, rc: '1' },
  { title: 'default formatter with substitutions', input: { properties: { RuleName: 'formatter', region: 'us-east-1' } }, rc: '0', properties: { site: 'US' } },
  {
    title: 'formatter followed by its TemplateFile (NeedChop)',
    input: { body: '', properties: { RuleName: 'bill', name: 'Ann', amount: '21' } },
    rc: '0',
    properties: { amount: '42' },
    body: 'Hello Ann, you owe 42.',
  },
  {
    title: 'TemplateFile alone',
    input: { body: '', properties: { RuleName: 'templateFile', name: 'Bo', amount: '5' } },
    rc: '0',
    body: 'Hello Bo, you owe 5.\n',
  },
  { title: 'plugin formatter from PluginDir', input: { properties: { RuleName: 'plugin', name: 'ann' } }, rc: '0', properties: { name: 'ANN' } },
  { title: 'plugin formatter written in TypeScript', input: { body: 'go', properties: { RuleName: 'tsPlugin' } }, rc: '0', body: 'GO!' },
  { title: 'SimpleParser', input: { body: 'WARN disk full', properties: { RuleName: 'parser' } }, rc: '0', properties: { level: 'WARN' }, body: 'disk full' },
  {
    title: 'StaticCache with KeySubstitution',
    input: { properties: { RuleName: 'cache', region: 'eu-west-2' } },
    rc: '0',
    properties: { regionName: 'Europe' },
  },
  { title: 'JSONPath map', input: { body: '{"order":{"id":"7"}}', properties: { RuleName: 'jsonPathMap' } }, rc: '0', properties: { orderId: '7' } },
  { title: 'jcut', input: { body: '{"order":{"id":"7","items":[1]}}', properties: { RuleName: 'jcut' } }, rc: '0', body: '{"order":{"id":"7"}}' },
  {
    title: 'jmerge (union into the target object)',
    input: { body: '{"order":{"id":"7"}}', properties: { RuleName: 'jmerge', src: '{"note":"x"}' } },
    rc: '0',
    body: '{"order":{"id":"7","note":"x"}}',
  },
  {
    title: 'JSONataFile with JSONParameter',
    input: { body: '{"id":"7","items":[{"n":"1"},{"n":"2"}]}', properties: { RuleName: 'jsonata', name: 'Ann' } },
    rc: '0',
    body: '{"id":"7","k":42,"items":[{"n":"1"},{"n":"2"}],"who":"Ann"}',
  },
  {
    title: 'XPath map with a templated path',
    input: { body: XML, properties: { RuleName: 'xpathMap', element: 'b' } },
    rc: '0',
    properties: { first: 'A1', dynamic: 'B' },
  },
  { title: 'xcut', input: { body: XML, properties: { RuleName: 'xcut' } }, rc: '0', body: /^(?![\s\S]*<b>)[\s\S]*<a>A2<\/a>/ },
  { title: 'xmerge', input: { body: XML, properties: { RuleName: 'xmerge', src: '<s><c>C</c></s>' } }, rc: '0', body: /<c>C<\/c>/ },
  { title: 'XSLT with XSLParameter', input: { body: XML, properties: { RuleName: 'xslt', name: 'Ann' } }, rc: '0', body: 'Hi Annstatic: A1' },
  { title: 'Branch applies the first matching ruleset', input: { properties: { RuleName: 'branch', kind: 'b' } }, rc: '0', properties: { picked: 'B' } },
  {
    title: 'Loop applies every matching ruleset',
    input: { properties: { RuleName: 'loop', kind: 'a' } },
    rc: '0',
    properties: { picked: 'A', stamped: 'yes' },
  },
  { title: 'rule list a|b: first hit', input: { properties: { RuleName: 'isA|isB', kind: 'b' } }, rc: '0', properties: { picked: 'B' } },
  {
    title: 'rule list a,b: chain',
    input: { properties: { RuleName: 'formatter,stamp', region: 'eu-1' } },
    rc: '0',
    properties: { site: 'EU', stamped: 'yes' },
  },
  { title: 'rule list a:b: every hit', input: { properties: { RuleName: 'isB:stamp', kind: 'a' } }, rc: '0', properties: { stamped: 'yes' } },
  { title: 'time window (ActiveTime, KeyTemplate, TimePattern)', input: { properties: { RuleName: 'fresh', eventTime: oneMinuteAgo() } }, rc: '0' },
  { title: 'SizeRange file check', input: { properties: { RuleName: 'small', file: 'bill.txt' } }, rc: '0', properties: { size: BILL_SIZE } },
  {
    title: 'Translation XML2JSON',
    input: { body: '<r><a>1</a><b>t</b></r>', properties: { RuleName: 'translation' } },
    rc: '0',
    body: '{\n  "r":{"a":"1","b":"t"}\n}',
  },
  {
    title: 'JSONFormatter operations (set, remove into a property, sort)',
    input: { body: '{"a":{"b":"1","c":"C"},"l":["y","x","y"],"n":5}', properties: { RuleName: 'jsonFormatter', k: '42' } },
    rc: '0',
    properties: { removed: 'C' },
    body: '{"a":{"b":42},"l":["x","y","y"],"n":5}',
  },
  { title: 'an unknown rule name', input: { properties: { RuleName: 'nope' } }, rc: '-1' },
];

function expectResult(c: Case, out: MessageJson): void {
  const props = out.properties ?? {};
  expect({ title: c.title, rc: props.ReturnCode }).toEqual({ title: c.title, rc: c.rc });
  for (const [k, v] of Object.entries(c.properties ?? {})) expect({ title: c.title, [k]: props[k] }).toEqual({ title: c.title, [k]: v });
  if (typeof c.body === 'string') expect({ title: c.title, body: out.body }).toEqual({ title: c.title, body: c.body });
  else if (c.body !== undefined) expect(out.body).toMatch(c.body);
}

async function evaluateWithCli(): Promise<MessageJson[]> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  err.resume();
  const stdin = Readable.from([CASES.map((c) => JSON.stringify(c.input)).join('\n') + '\n']);
  const code = await runEval(TOPOLOGY, undefined, { stdin, stdout: out, stderr: err });
  expect(code).toBe(0);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as MessageJson);
}

describe('every ruleset kind through `xroute eval`', () => {
  let results: MessageJson[] = [];
  beforeAll(async () => {
    results = await evaluateWithCli();
  });

  it('prints one evaluated message per input line, in input order', () => {
    expect(results.map((r) => r.properties?.RuleName)).toEqual(CASES.map((c) => c.input.properties?.RuleName));
  });

  it.each(CASES.map((c, i) => [c.title, i] as const))('%s', (_title, i) => {
    expectResult(CASES[i], results[i]);
  });
});

describe('every ruleset kind inside a running topology', () => {
  const registry = defaultRegistry();
  let flow: Flow;
  beforeAll(() => {
    flow = Flow.start(loadTopology(TOPOLOGY, registry), { registry });
  });
  afterAll(() => flow.stop());

  it.each(CASES.map((c, i) => [c.title, i] as const))('%s', async (_title, i) => {
    const { outcome, message } = await flow.send('eval', messageFromJson(CASES[i].input));
    expect(outcome).toBe('done');
    expectResult(CASES[i], messageToJson(message));
  });
});
