/** Rate-limited failure logging: the first failure at once, the rest counted per reason per window. */
import { FailureSummary } from '../../../src/logging/failure-summary';
import { LogEntry, memoryLogger } from '../../../src/logging/logger';

function rig(windowMs = 10_000) {
  const logs: LogEntry[] = [];
  const timers: (() => void)[] = [];
  const summary = new FailureSummary(memoryLogger(logs), 'rcvr', 'messages failed', { setTimeout: (fn) => timers.push(fn) }, windowMs);
  const endWindow = () => (timers.shift() as () => void)();
  return { logs, summary, endWindow, timers };
}

describe('FailureSummary', () => {
  it('logs the first failure at once with its details', () => {
    const { logs, summary } = rig();
    summary.record('unroutable on exchange "x", routing key "orders.eu"', 'a message failed; attempting it again in 1000 ms', { messageId: 'm1' });
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'a message failed; attempting it again in 1000 ms',
        meta: expect.objectContaining({ messageId: 'm1', component: 'rcvr' }),
      }),
    ]);
  });

  it('counts the failures within the window and logs one line per reason with the count when it ends', () => {
    const { logs, summary, endWindow } = rig();
    for (let i = 0; i < 313; i++) summary.record('unroutable on exchange "xroute.out", routing key "orders.eu"', 'failed');
    summary.record('nacked by the broker', 'failed');
    expect(logs).toHaveLength(1);
    endWindow();
    expect(logs.slice(1).map((l) => l.message)).toEqual([
      '312 messages failed in the last 10 s: unroutable on exchange "xroute.out", routing key "orders.eu"',
      '1 messages failed in the last 10 s: nacked by the broker',
    ]);
  });

  it('logs the next failure at once again after a window without failures', () => {
    const { logs, summary, endWindow, timers } = rig();
    summary.record('r', 'first');
    endWindow();
    expect(timers).toHaveLength(0);
    summary.record('r', 'again');
    expect(logs.map((l) => l.message)).toEqual(['first', 'again']);
  });

  it('logs what is still counted on flush (the component stops)', () => {
    const { logs, summary } = rig();
    summary.record('r', 'first');
    summary.record('r', 'second');
    summary.flush();
    expect(logs.map((l) => l.message)).toEqual(['first', '1 messages failed in the last 10 s: r']);
  });
});
