/**
 * Loading a configuration never fails with JavaScript's own words: deep nesting is refused with a clear message,
 * a Supervision of the wrong shape or type is an error naming the property, and every mutation of a real
 * topology ends, quickly, in problems that each name the component, the property and what was expected.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildTopology } from '../../../src/config/topology';
import { ConfigError, ConfigProblem } from '../../../src/config/errors';
import { defaultRegistry } from '../../../actors/index';

const DEMO = path.resolve(__dirname, '../../../config/demo.json');
const FILE = DEMO; // relative paths of the demo (its input file) resolve as they do for the real file
const registry = defaultRegistry();

function problemsOf(json: unknown): ConfigProblem[] {
  try {
    return [...buildTopology(json, FILE, registry).warnings];
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems];
    throw e;
  }
}
const errorsOf = (json: unknown) => problemsOf(json).filter((p) => p.severity === 'error');
const demo = (): Record<string, Record<string, unknown>> => JSON.parse(fs.readFileSync(DEMO, 'utf8'));

function nested(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

// What JavaScript says when code trips over input it did not expect.
const INTERNAL = /is not a function|Cannot read propert|Maximum call stack|is not iterable|undefined|\[object Object\]|Unexpected token|TypeError|RangeError/;

describe('config loading of hostile input', () => {
  it('the demo topology it mutates is valid', () => {
    expect(errorsOf(demo())).toEqual([]);
  });

  it('refuses a component nested 100 000 levels deep with one clear error, fast', () => {
    const json = demo();
    json.rcvr_jobs.StringProperty = nested(100_000) as never;
    const started = Date.now();
    const errors = errorsOf(json);
    expect({ errors: errors.map((e) => [e.component, e.property, e.message]), fast: Date.now() - started < 2000 }).toEqual({
      errors: [
        [
          'rcvr_jobs',
          'StringProperty',
          'nested deeper than 64 levels (at StringProperty/a/a/a/a/a/…): expected a configuration of at most 64 nested maps and lists',
        ],
      ],
      fast: true,
    });
  });

  it('refuses deep nesting in a flow property', () => {
    const json = demo() as Record<string, unknown>;
    json.Description = nested(1000);
    expect(errorsOf(json).map((e) => [e.component, e.property])).toEqual([['(flow)', 'Description']]);
  });

  it('accepts nesting of ordinary depth', () => {
    const json = demo();
    json.pstr_notice.StringProperty = { a: 'b' };
    expect(errorsOf(json)).toEqual([]);
  });

  it('says a non-string Supervision Strategy must be a string, naming flow and property', () => {
    const json = demo();
    json.Supervision = { Strategy: 5 } as never;
    expect(errorsOf(json).map((e) => [e.component, e.property, e.message])).toEqual([
      ['(flow)', 'Supervision/Strategy', '5 (a JSON number): expected one of "restart", "resume", "stop", "escalate", written as a JSON string'],
    ]);
  });

  it('reports a component Supervision Strategy of the wrong type once', () => {
    const json = demo();
    json.node_jobs.Supervision = { Strategy: ['restart'] };
    expect(errorsOf(json).map((e) => [e.component, e.property])).toEqual([['node_jobs', 'Supervision/Strategy']]);
  });

  it('refuses a Supervision that is a string where a map belongs', () => {
    const json = demo();
    json.Supervision = '0' as never;
    expect(errorsOf(json).map((e) => [e.component, e.property, e.message])).toEqual([
      [
        '(flow)',
        'Supervision',
        '"0": expected a map with Strategy, MaxRetry, WithinSeconds, Backoff, MaxMessageAttempts, OnGiveUp, GiveUpBackoff, FatalRetrySeconds',
      ],
    ]);
  });

  it('refuses an empty Backoff without JavaScript text', () => {
    const json = demo();
    json.Supervision = { Backoff: '9,1' } as never;
    const [e] = errorsOf(json);
    expect(e).toMatchObject({ component: '(flow)', property: 'Supervision' });
    expect(e.message).not.toMatch(INTERNAL);
  });

  it('ends every mutation of every value of the demo topology in problems naming component and property, without JavaScript text', () => {
    const hostile: unknown[] = [
      5,
      -1,
      true,
      null,
      [],
      {},
      ['x'],
      { a: 1 },
      '',
      ' ',
      '-5',
      '0',
      'x'.repeat(100_000),
      nested(200),
      [[[[[]]]]],
      '${HOME}',
      '\u0000',
    ];
    const base = demo();
    // every (component, property) of the demo, and the flow-level ones
    const targets: [string | undefined, string][] = Object.keys(base).map((k) => [undefined, k] as [undefined, string]);
    for (const [name, value] of Object.entries(base)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) for (const k of Object.keys(value)) targets.push([name, k]);
    }
    let cases = 0;
    let slowest = 0;
    const bad: string[] = [];
    for (const [name, key] of targets) {
      for (const v of hostile) {
        const json = demo() as Record<string, Record<string, unknown>>;
        if (name === undefined) (json as Record<string, unknown>)[key] = v;
        else json[name][key] = v;
        const started = Date.now();
        let ps: ConfigProblem[];
        try {
          ps = problemsOf(json);
        } catch (e) {
          bad.push(`${name ?? '(flow)'}.${key} = ${JSON.stringify(v)?.slice(0, 40)}: threw ${String(e).slice(0, 200)}`);
          continue;
        }
        slowest = Math.max(slowest, Date.now() - started);
        cases++;
        for (const p of ps) {
          if (INTERNAL.test(p.message) || p.component === '' || p.message.trim() === '')
            bad.push(`${name ?? '(flow)'}.${key} = ${JSON.stringify(v)?.slice(0, 40)}: ${p.component}: ${p.property}: ${p.message.slice(0, 200)}`);
        }
      }
    }
    expect({ bad, slowestUnder2s: slowest < 2000 }).toEqual({ bad: [], slowestUnder2s: true });
    expect(cases).toBeGreaterThan(500);
  });
});
