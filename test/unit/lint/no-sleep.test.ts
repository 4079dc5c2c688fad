/**
 * The rule of eslint.config.mjs that keeps fixed sleeps out of the unit project, checked on snippets linted as files of
 * this tree: a unit test reaches no Node timer and no sleep helper; it waits for a condition or moves a VirtualClock.
 * Integration and fault tests, where a real broker or process sets the pace, and test/support may use timers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesReported } from '../../support/lint-cases';

/**
 * The file each snippet pretends to be. The snippets themselves are data, in test/fixtures/sleep-probes/NAME.ts.txt:
 * the sleeps among them are what the rule must reject, so they are kept out of the unit tree altogether.
 */
const PRETENDS_TO_BE = {
  promiseSleep: 'test/unit/runtime/sleep-probe.test.ts',
  delayedAction: 'test/unit/runtime/sleep-probe.test.ts',
  intervalPoll: 'test/unit/pools/sleep-probe.test.ts',
  timersPromises: 'test/unit/cli/sleep-probe.test.ts',
  supportSleep: 'test/unit/cli/sleep-probe.test.ts',
  supportWaitFor: 'test/unit/cli/sleep-probe.test.ts',
  virtualClock: 'test/unit/runtime/sleep-probe.test.ts',
  actorTimer: 'test/unit/runtime/sleep-probe.test.ts',
  integrationSleep: 'test/integration/amqp/sleep-probe.test.ts',
  supportTimer: 'test/support/sleep-probe.ts',
};
const CASES = Object.fromEntries(
  Object.entries(PRETENDS_TO_BE).map(([name, filePath]) => [
    name,
    { filePath, code: readFileSync(join(__dirname, '..', '..', 'fixtures', 'sleep-probes', `${name}.ts.txt`), 'utf8') },
  ]),
) as Record<keyof typeof PRETENDS_TO_BE, { filePath: string; code: string }>;
type CaseName = keyof typeof CASES;

let reported: Record<CaseName, string[]>;

beforeAll(() => {
  reported = rulesReported(CASES);
}, 60_000);

describe('a unit test', () => {
  it('may not sleep on a promise of setTimeout', () => {
    expect(reported.promiseSleep).toEqual(['no-restricted-globals']);
  });

  it('may not act after a fixed delay with setTimeout', () => {
    expect(reported.delayedAction).toEqual(['no-restricted-globals']);
  });

  it('may not use setInterval', () => {
    expect(reported.intervalPoll).toEqual(['no-restricted-globals']);
  });

  it('may not import timers/promises', () => {
    expect(reported.timersPromises).toEqual(['no-restricted-imports']);
  });

  it("may not import test/support's sleep", () => {
    expect(reported.supportSleep).toEqual(['no-restricted-imports']);
  });

  it('may wait for a condition with waitFor', () => {
    expect(reported.supportWaitFor).toEqual([]);
  });

  it('may set and advance a VirtualClock', () => {
    expect(reported.virtualClock).toEqual([]);
  });

  it("may start an actor's timers through its context", () => {
    expect(reported.actorTimer).toEqual([]);
  });
});

describe('outside the unit project', () => {
  it('an integration test may sleep', () => {
    expect(reported.integrationSleep).toEqual([]);
  });

  it('test/support may use timers', () => {
    expect(reported.supportTimer).toEqual([]);
  });
});
