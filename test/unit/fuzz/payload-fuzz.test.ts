/**
 * Mutated payloads through every ruleset kind (the every-kind topology, inside a running Flow): whatever
 * the message, evaluation ends within a bound with a return code, the flow goes on, and no log line
 * carries a secret.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { loadTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { Message } from '../../../src/message/message';
import { LogEntry, memoryLogger } from '../../../src/logging/logger';
import { registerConfigSecrets } from '../../../src/logging/redact';
import { defaultRegistry } from '../../../actors';
import { FIXTURES } from '../evaluator/helpers';
import { fuzzRuns, fuzzSeed, NIGHTLY, traceCase } from './fuzz-mode';

const TOPOLOGY = join(FIXTURES, 'every-kind', 'topology.json');
const SECRET = 'Payload-Fuzz-Secret-31';
const BOUND_MS = 5_000;

const registry = defaultRegistry();
const topology = loadTopology(TOPOLOGY, registry);
const RULE_NAMES = Object.keys((topology.components.find((c) => c.name === 'pstr_eval')?.config as { Ruleset: Record<string, unknown> }).Ruleset);

/** Seeds that the kinds parse (XML, JSON, PHP, text), mutated by an attacker's edits. */
const SEEDS = [
  '<r><a>A1</a><a>A2</a><b>B</b></r>',
  '{"order":{"id":"7","items":[1]}}',
  'a:1:{s:1:"k";s:1:"v";}',
  'qty=3 WARN disk full',
  '<?xml version="1.0"?><r/>',
];

const edit = fc.oneof(
  fc.record({ at: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({
    at: fc.nat(),
    text: fc.constantFrom(
      '<',
      '>',
      '{',
      '}',
      '"',
      '\\',
      '&',
      '<!DOCTYPE r [<!ENTITY x "xx">]>',
      '&x;',
      ']]>',
      '\u0000',
      '\uFFFF',
      '\uD800',
      'a'.repeat(5000) + 'b',
      '[['.repeat(3000),
      '<a>'.repeat(3000),
    ),
  }),
);

const payload = fc.record({
  seed: fc.nat({ max: SEEDS.length - 1 }),
  edits: fc.array(edit, { maxLength: 4 }),
  bytes: fc.boolean(),
  invalidUtf8: fc.boolean(),
  rule: fc.oneof(fc.constantFrom(...RULE_NAMES), fc.constantFrom('', 'nope', 'isA|isB', 'formatter,stamp', 'isB:stamp', '|', ',,', 'x'.repeat(1000))),
  props: fc.dictionary(
    fc.constantFrom('name', 'amount', 'region', 'kind', 'src', 'element', 'k', 'file', 'eventTime', 'Password'),
    fc.oneof(fc.string({ maxLength: 12 }), fc.constant(SECRET), fc.constant('../../../../etc/passwd')),
  ),
});

type Payload = typeof payload extends fc.Arbitrary<infer T> ? T : never;

function buildMessage(p: Payload): Message {
  let text = SEEDS[p.seed];
  for (const e of p.edits) {
    const at = e.at % (text.length + 1);
    text = text.slice(0, at) + e.text + text.slice(at);
  }
  const properties = { ...p.props, RuleName: p.rule };
  if (!p.bytes) return Message.text(text, properties);
  const bytes = Buffer.from(text, 'utf8');
  return Message.bytes(p.invalidUtf8 ? Buffer.concat([bytes, Buffer.from([0xff, 0xc3, 0x28])]) : bytes, properties);
}

describe('mutated payloads through every ruleset kind', () => {
  let flow: Flow;
  const logs: LogEntry[] = [];
  beforeAll(() => {
    registerConfigSecrets({ Password: SECRET });
    flow = Flow.start(topology, { registry, logger: memoryLogger(logs) });
  });
  afterAll(() => flow.stop());

  it(`evaluate to a return code within ${BOUND_MS} ms each and never log a secret (${fuzzRuns(200, 5_000)} messages${NIGHTLY ? ', nightly' : ''})`, async () => {
    await fc.assert(
      fc.asyncProperty(payload, async (p) => {
        traceCase(p);
        const started = Date.now();
        const { outcome, message } = await flow.send('eval', buildMessage(p));
        expect(Date.now() - started).toBeLessThan(BOUND_MS);
        expect(outcome).toBe('done');
        expect(['0', '1', '-1']).toContain(message.getProperty('ReturnCode'));
      }),
      { numRuns: fuzzRuns(200, 5_000), seed: fuzzSeed() },
    );
    expect(JSON.stringify(logs)).not.toContain(SECRET);
    expect(flow.status().components.every((c) => c.restarts === 0)).toBe(true);
  }, 600_000);
});
