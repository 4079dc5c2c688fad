/**
 * JMS selectors against the results ActiveMQ's and JORAM's selector tests assert (selector-cases.json, see
 * README.md). Each message is encoded as AMQP 1.0 with the JMS types of the original test (byte, short, int,
 * long, float, double, string, boolean), decoded by rhea and read through amqpSelectorSource: the path a
 * delivery takes in xroute. Each case ends as one of:
 *   - agree: the same selection, or the same verdict on the selector's syntax;
 *   - refused: xroute refuses the selector at start-up with a reason naming the construct (REFUSALS, listed in
 *     docs/components/jms-subscriber.md);
 *   - a documented difference (DIFFERENCES, listed in the same page);
 *   - silent: anything else, which fails the suite.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import rhea = require('rhea');
import { JmsSelector, SelectorSyntaxError } from '../../../src/jms/selector';
import { amqpSelectorSource, AmqpMessage } from '../../../src/transports/amqp10-mapping';

type Typed = [type: 'string' | 'boolean' | 'byte' | 'short' | 'int' | 'long' | 'float' | 'double', value: string | number | boolean];
interface Case {
  from: string;
  selector: string;
  message?: string;
  with?: Record<string, Typed>;
  expected: boolean | 'valid' | 'invalid';
}
const corpus = JSON.parse(readFileSync(path.join(__dirname, 'selector-cases.json'), 'utf8')) as {
  messages: Record<string, Record<string, Typed>>;
  cases: Case[];
};
const docs = readFileSync(path.join(__dirname, '../../../docs/components/jms-subscriber.md'), 'utf8').replace(/\s+/g, ' ');

const REFUSALS: ReadonlyArray<{ reason: RegExp; doc: string }> = [
  { reason: /XPATH selectors \(an ActiveMQ extension\)/, doc: "ActiveMQ's `XPATH '...'` selectors" },
  { reason: /function calls such as \w+\(\.\.\.\) \(ActiveMQ extensions\)/, doc: 'its functions (`REGEX(...)`, `INLIST(...)`, ...)' },
  { reason: /'\+' needs numeric operands, found a string/, doc: 'string concatenation with `+`' },
];
const DIFFERENCES: Readonly<Record<string, { doc: string; selectors: readonly string[] }>> = {
  integerDivision: {
    doc: 'ActiveMQ itself divides in double even for integers',
    selectors: ['rank / version = 61.5'],
  },
};

const RHEA_TYPES: Record<Typed[0], (v: never) => unknown> = {
  string: (v) => v,
  boolean: (v) => v,
  byte: rhea.types.wrap_byte,
  short: rhea.types.wrap_short,
  int: rhea.types.wrap_int,
  long: rhea.types.wrap_long,
  float: rhea.types.wrap_float,
  double: rhea.types.wrap_double,
};

/** The case's message as a broker sends it: JMS headers in their AMQP fields, properties with their AMQP types. */
function received(c: Case): AmqpMessage {
  const values = { ...corpus.messages[c.message ?? ''], ...c.with };
  const m: Record<string, unknown> = { body: 'x' };
  const props: Record<string, unknown> = {};
  for (const [name, [type, value]] of Object.entries(values)) {
    if (name === 'JMSType') m.subject = value;
    else if (name === 'JMSMessageID') m.message_id = value;
    else if (name === 'JMSDeliveryMode') m.durable = value === 'PERSISTENT';
    else props[name] = RHEA_TYPES[type](value as never);
  }
  m.application_properties = props;
  return rhea.message.decode(rhea.message.encode(m as never)) as unknown as AmqpMessage;
}

/** As the components read MessageSelector (actors/support/jms-config.ts): an empty selector is no selector. */
function compile(selector: string): JmsSelector | undefined {
  return selector.trim() === '' ? undefined : JmsSelector.compile(selector);
}

type Outcome = 'agree' | 'refused' | 'silent' | { difference: string };

const results = corpus.cases.map((c) => {
  let selector: JmsSelector | undefined;
  let refused: SelectorSyntaxError | undefined;
  try {
    selector = compile(c.selector);
  } catch (e) {
    if (!(e instanceof SelectorSyntaxError)) throw e;
    refused = e;
  }
  let outcome: Outcome;
  let got: unknown;
  if (c.expected === 'valid' || c.expected === 'invalid') {
    got = refused === undefined ? 'valid' : 'invalid';
    outcome = got === c.expected ? 'agree' : refused !== undefined ? 'refused' : 'silent';
  } else if (refused !== undefined) outcome = 'refused';
  else {
    got = selector === undefined || selector.matches(amqpSelectorSource(received(c)));
    const difference = Object.entries(DIFFERENCES).find(([, d]) => d.selectors.includes(c.selector));
    outcome = got === c.expected ? 'agree' : difference !== undefined ? { difference: difference[0] } : 'silent';
  }
  return { c, outcome, got, refused };
});

describe('JMS selector conformance: ActiveMQ and JORAM selector tests', () => {
  afterAll(() => {
    const count = (p: (o: Outcome) => boolean) => results.filter((r) => p(r.outcome)).length;
    console.log(
      `JMS selectors: cases ${results.length}, agree ${count((o) => o === 'agree')}, refused ${count((o) => o === 'refused')}, ` +
        `documented differences ${count((o) => typeof o === 'object')}, silent ${count((o) => o === 'silent')}`,
    );
  });

  it('holds the corpus', () => {
    expect(results.length).toBeGreaterThan(150);
  });

  it('no case differs silently from the recorded result', () => {
    expect(
      results
        .filter((r) => r.outcome === 'silent')
        .map((r) => ({ from: r.c.from, selector: r.c.selector, expected: r.c.expected, xroute: r.refused?.message ?? r.got })),
    ).toEqual([]);
  });

  it('every refusal names its construct, and the construct is listed in docs/components/jms-subscriber.md', () => {
    const refusals = results.filter((r) => r.outcome === 'refused');
    expect(refusals.filter((r) => !REFUSALS.some((k) => k.reason.test(r.refused?.message ?? ''))).map((r) => r.refused?.message)).toEqual([]);
    expect(REFUSALS.map((k) => k.doc).filter((doc) => !docs.includes(doc))).toEqual([]);
  });

  it('every documented difference is listed in docs/components/jms-subscriber.md', () => {
    expect(
      Object.values(DIFFERENCES)
        .map((d) => d.doc)
        .filter((doc) => !docs.includes(doc)),
    ).toEqual([]);
  });
});
