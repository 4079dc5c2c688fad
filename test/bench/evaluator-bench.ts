/**
 * Benchmark of the MessageEvaluator engine (issue 3).
 *   (a) pattern groups + formatter with substitutions through MessageEvaluatorEngine.evaluate,
 *       against a hand-written JavaScript function doing the same regex, template and substitution
 *       work (and the same return-code bookkeeping) on the same messages.
 * The two run interleaved in rounds in one process (alternating which goes first); the row reports
 * nanoseconds per message over all rounds, and ratio = engine time / hand-written time as the
 * median of the per-round ratios, which is robust against a noisy (shared) machine. Target <= 1.2.
 */
import { MessageEvaluatorEngine } from '../../src/evaluator';
import { Message } from '../../src/message';
import type { BenchRow } from './bench-types';
import { Step, compareInterleaved } from './interleaved';

const ROUNDS = 20;

const RULESET = {
  route: {
    JMSPropertyGroup: [{ JMSType: '^order', region: '^(us|eu)-' }],
    PatternGroup: [{ Pattern: ['qty=\\d+'] }],
    FormatterArgument: [
      { FieldName: 'site', Template: ['##region##'], Substitution: ['s/-.*$//', 's//:=upper/e'] },
      { FieldName: 'summary', Template: ['[##site##] ##JMSType## ##body##'], Substitution: ['s/\\s+/ /g'] },
    ],
  },
};

const REGIONS = ['us-east-1', 'eu-west-2', 'ap-south-1', 'us-west-2'];

/** Messages that exercise both outcomes: most match, some fail the region or body pattern. */
function makeMessage(i: number): Message {
  const body = i % 7 === 0 ? `order ${i}   without quantity` : `order ${i}  sku=s${i % 13}   qty=${i % 5}`;
  return Message.text(
    body,
    { RuleName: 'route', region: REGIONS[i % REGIONS.length], ReturnCode: '0' },
    { JMSType: i % 11 === 0 ? 'notice' : 'order.new', JMSPriority: 4 },
  );
}

// The hand-written equivalent: the same checks and rewrites with plain JavaScript regexes.
const TYPE_RE = /^order/;
const REGION_RE = /^(us|eu)-/;
const BODY_RE = /qty=\d+/;
const SITE_RE = /-.*$/;
const SPACES_RE = /\s+/g;

function handWritten(msg: Message): void {
  const p = msg.properties;
  const previous = p.get('ReturnCode');
  if (previous === undefined) p.delete('OriginalRC');
  else p.set('OriginalRC', previous);
  p.set('ReturnCode', '-1');
  if (p.get('RuleName') !== 'route') return;
  const type = msg.headers.JMSType;
  const region = p.get('region');
  const body = msg.bodyText();
  if (type === undefined || !TYPE_RE.test(type) || region === undefined || !REGION_RE.test(region) || body === undefined || !BODY_RE.test(body)) {
    p.set('ReturnCode', '1');
    return;
  }
  const site = region.replace(SITE_RE, '').toUpperCase();
  p.set('site', site);
  p.set('summary', `[${site}] ${type} ${body}`.replace(SPACES_RE, ' '));
  p.set('ReturnCode', '0');
}

/** Checks that both sides compute the same result, so the comparison is fair. */
function assertSameWork(engineStep: Step<Message>): void {
  for (let i = 0; i < 50; i++) {
    const a = makeMessage(i);
    const b = makeMessage(i);
    void engineStep(a);
    handWritten(b);
    const pa = JSON.stringify([...a.properties]);
    const pb = JSON.stringify([...b.properties]);
    if (pa !== pb) throw new Error(`engine and hand-written results differ for message ${i}: ${pa} vs ${pb}`);
  }
}

export async function benchEvaluator(opts: { n: number }): Promise<BenchRow[]> {
  const engine = new MessageEvaluatorEngine({ Name: 'bench', Ruleset: RULESET }, { baseDir: __dirname, pluginDirs: [] });
  const engineStep: Step<Message> = (msg) => engine.evaluate(msg);
  assertSameWork(engineStep);
  const r = await compareInterleaved({
    subject: engineStep,
    baseline: handWritten,
    make: makeMessage,
    rounds: ROUNDS,
    perRound: Math.max(1, Math.floor(opts.n / ROUNDS)),
  });
  await engine.close();
  return [
    {
      name: 'evaluator (a): pattern groups + formatter with substitutions, engine vs hand-written',
      unit: 'ns/msg',
      value: Number(r.subjectNs.toFixed(1)),
      baseline: Number(r.baselineNs.toFixed(1)),
      ratio: Number(r.timeRatio.toFixed(3)),
      target: 'ratio <= 1.2',
    },
  ];
}
