/**
 * The rule of eslint.config.mjs that keeps fixed sleeps out of the unit project, checked on snippets linted as files of
 * this tree: a unit test reaches no Node timer and no sleep helper; it waits for a condition or moves a VirtualClock.
 * Integration and fault tests, where a real broker or process sets the pace, and test/support may use timers.
 */
import { rulesReported } from '../../support/lint-cases';

const test = (body: string): string => `it('waits', async () => {\n${body}\n});\n`;

/** Each case: the file a snippet pretends to be, and its code. */
const CASES = {
  promiseSleep: { filePath: 'test/unit/runtime/sleep-probe.test.ts', code: test('  await new Promise((resolve) => setTimeout(resolve, 50));') },
  delayedAction: { filePath: 'test/unit/runtime/sleep-probe.test.ts', code: test("  setTimeout(() => console.log('later'), 50);") },
  intervalPoll: { filePath: 'test/unit/pools/sleep-probe.test.ts', code: test('  const t = setInterval(() => undefined, 10);\n  clearInterval(t);') },
  timersPromises: {
    filePath: 'test/unit/cli/sleep-probe.test.ts',
    code: `import { setTimeout as pause } from 'node:timers/promises';\n${test('  await pause(50);')}`,
  },
  supportSleep: { filePath: 'test/unit/cli/sleep-probe.test.ts', code: `import { sleep } from '../../support/wait';\n${test('  await sleep(50);')}` },
  supportWaitFor: {
    filePath: 'test/unit/cli/sleep-probe.test.ts',
    code: `import { waitFor } from '../../support/wait';\nlet done = false;\n${test("  done = true;\n  await waitFor(() => done, 'done');")}`,
  },
  virtualClock: {
    filePath: 'test/unit/runtime/sleep-probe.test.ts',
    code: `import { VirtualClock } from '../../support/virtual-clock';\n${test('  const clock = new VirtualClock();\n  clock.set(() => undefined, 50);\n  clock.advance(50);')}`,
  },
  actorTimer: {
    filePath: 'test/unit/runtime/sleep-probe.test.ts',
    code: `export const start = (ctx: { setTimeout(fn: () => void, ms: number): unknown }) => ctx.setTimeout(() => undefined, 50);\n`,
  },
  integrationSleep: { filePath: 'test/integration/amqp/sleep-probe.test.ts', code: test('  await new Promise((resolve) => setTimeout(resolve, 50));') },
  supportTimer: { filePath: 'test/support/sleep-probe.ts', code: 'export const later = (fn: () => void) => setTimeout(fn, 50);\n' },
};
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
