import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runEval } from '../../../src/cli/eval-command';
import { FIXTURES } from './helpers';

const DIR = join(FIXTURES, 'eval');

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function run(config: string, messages: string | undefined, stdinText = '') {
  const out = collect();
  const err = collect();
  const code = await runEval(config, messages, { stdin: Readable.from([stdinText]), stdout: out.stream, stderr: err.stream });
  return {
    code,
    out: out
      .text()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
    err: err.text(),
  };
}

describe('runEval (xroute eval)', () => {
  it('evaluates every valid line of a jsonl file in order and reports the bad line by number', async () => {
    const { code, out, err } = await run(join(DIR, 'evaluator.json'), join(DIR, 'messages.jsonl'));
    expect(code).toBe(1);
    expect(err).toMatch(/line 3: /);
    expect(out).toEqual([
      { body: 'disk full', properties: { RuleName: 'urgent', ReturnCode: '0', summary: 'ALERT: DISK FULL' }, headers: { JMSType: 'alert', JMSPriority: '8' } },
      { body: 'disk full', properties: { RuleName: 'urgent', ReturnCode: '1' }, headers: { JMSType: 'alert', JMSPriority: '3' } },
      { body: 'Hello Ann, you owe 10.', properties: { RuleName: 'bill', name: 'Ann', amount: '10', ReturnCode: '0' } },
      { properties: { RuleName: 'nosuch', ReturnCode: '-1', OriginalRC: '0' } },
    ]);
  });

  it('reads stdin when no file is given and exits 0 when every line is valid', async () => {
    const line = JSON.stringify({ body: 'x', properties: { RuleName: 'urgent' }, headers: { JMSType: 't', JMSPriority: '9' } });
    const { code, out } = await run(join(DIR, 'evaluator.json'), undefined, `${line}\n\n${line}\n`);
    expect(code).toBe(0);
    expect(out).toHaveLength(2);
    expect(out[1].properties.summary).toBe('T: X');
  });

  it('finds the MessageEvaluator component in a topology', async () => {
    const { code, out } = await run(join(DIR, 'topology.json'), undefined, JSON.stringify({ properties: { RuleName: 'hello', who: 'you' } }));
    expect(code).toBe(0);
    expect(out[0].properties.greeting).toBe('hello you');
  });

  it('runs Translation rulesets: converted bodies, -1 for a bad body, and one start-up warning for an unknown name', async () => {
    const lines = [
      { body: '<r><a>1</a><a>2</a><b x="y">t</b></r>', properties: { RuleName: 'toJson' } },
      { body: 'a:1:{s:2:"id";i:7;}', properties: { RuleName: 'fromPhp' } },
      { body: 'a:1:{s:2:"id";i:7;', properties: { RuleName: 'fromPhp' } },
      { body: 'x,y', properties: { RuleName: 'noSuch' } },
    ];
    const { code, out, err } = await run(join(DIR, 'translation.json'), undefined, lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(code).toBe(0);
    expect(out.map((m) => [m.body, m.properties.ReturnCode])).toEqual([
      ['{\n  "r":{"a":["1","2"],"b":"t"}\n}', '0'],
      ['{\n  "PHP":{"id":7}\n}', '0'],
      ['a:1:{s:2:"id";i:7;', '-1'],
      ['x,y', '0'],
    ]);
    expect(err.match(/Translation "CSV2XML" is not one of/g)).toHaveLength(1);
  });

  it('runs a JSONFormatter ruleset: rewrites the body and returns -1 for get on a missing path', async () => {
    const body = '{"a":{"b":"1","c":"C"},"l":["y","x","y"],"n":5}';
    const lines = [
      { body, properties: { RuleName: 'jfmt', k: '42' } },
      { body, properties: { RuleName: 'jget' } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const { code, out } = await run(join(DIR, 'jsonformatter.json'), undefined, lines);
    expect(code).toBe(0);
    expect(out).toEqual([
      { body: '{"a":{"b":42},"l":["x","y"],"n":5}', properties: { RuleName: 'jfmt', k: '42', removed: 'C', ReturnCode: '0' } },
      { body, properties: { RuleName: 'jget', ReturnCode: '-1' } },
    ]);
  });

  it('exits 2 with a clear error for an unusable configuration', async () => {
    const { code, err } = await run(join(DIR, 'messages.jsonl'), undefined);
    expect(code).toBe(2);
    expect(err).toMatch(/^error: /);
  });

  it('exits 1 when the messages file cannot be read, saying so as run and validate do', async () => {
    const { code, err } = await run(join(DIR, 'evaluator.json'), join(DIR, 'missing.jsonl'));
    expect(code).toBe(1);
    expect(err).toBe(`error: ${join(DIR, 'missing.jsonl')}: does not exist\n`);
  });
});
