import { RECENT_ERRORS, StatusReporter } from '../../../src/runtime/component';
import { startFlakyFlow, Switch } from './flaky-component';
import { waitFor } from './helpers';

describe("a component's recent errors (the status page's details)", () => {
  it('keeps the last errors, oldest first, with the time each was reported', () => {
    const s = new StatusReporter();
    for (let i = 0; i < RECENT_ERRORS + 2; i++) s.recordError(`error ${i}`, 1000 + i);
    expect(s.recentErrors().map((e) => [e.text, e.at])).toEqual(Array.from({ length: RECENT_ERRORS }, (_, k) => [`error ${k + 2}`, 1002 + k]));
  });

  it('counts a repeat of the newest error instead of keeping it twice, dated by its latest report', () => {
    const s = new StatusReporter();
    s.recordError('connection refused', 1);
    s.recordError('connection refused', 2);
    s.recordError('connection refused', 3);
    expect(s.recentErrors()).toEqual([{ text: 'connection refused', at: 3, count: 3 }]);
  });

  it('records what a component reports while RETRYING or FAILED, not its other states', () => {
    const s = new StatusReporter();
    s.set('READY', 'starting');
    s.set('RETRYING', 'connection refused; retry 1 in 100 ms');
    s.set('RUNNING', 'consuming');
    s.set('FAILED', 'gave up');
    expect(s.recentErrors().map((e) => e.text)).toEqual(['connection refused; retry 1 in 100 ms', 'gave up']);
  });

  it('masks a password in what it keeps', () => {
    const s = new StatusReporter();
    s.recordError('login amqp://me:hunter22@broker/ refused');
    expect(s.recentErrors()[0].text).toBe('login amqp://me:***@broker/ refused');
  });

  it("keeps a component's crashes, which its details show with their times", async () => {
    const sw: Switch = { broken: true, starts: 0 };
    const flow = startFlakyFlow(sw);
    try {
      await waitFor(() => (flow.componentDetails('pstr')?.errors.length ?? 0) > 0, 'a recorded crash');
      expect(flow.componentDetails('pstr')!.errors[0]).toEqual({
        text: expect.stringMatching(/^crashed: .*injected fault: disk on fire/),
        at: expect.any(Number),
        count: expect.any(Number),
      });
    } finally {
      await flow.stop({ drainMs: 100 });
    }
  });
});
