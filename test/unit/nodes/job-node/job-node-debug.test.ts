import { LogEntry, memoryLogger } from '../../../../src/logging/logger';
import { Message } from '../../../../src/message/message';
import { HandWorker, Rig, rig, waitFor } from './component-support';

const RULESETS = [
  { Name: 'pings', PreferredOutLink: 'bypass', JMSPropertyGroup: [{ JMSType: '^ping$' }] },
  { Name: 'adhoc', Priority: '1', Threshold: '2', JMSPropertyGroup: [{ JobType: '^adhoc$' }] },
];

let r: Rig | undefined;
afterEach(async () => {
  await r?.stop();
  r = undefined;
});

const decisions = (entries: LogEntry[]): Record<string, unknown>[] =>
  entries.filter((e) => e.level === 'debug' && ['ruleset matched', 'outlink chosen'].includes(e.message)).map((e) => ({ message: e.message, ...e.meta }));

describe('JobNode at debug level', () => {
  it('logs the ruleset a request matched, then the worker outlink its job went to', async () => {
    const entries: LogEntry[] = [];
    r = rig({ Ruleset: RULESETS }, { logger: memoryLogger(entries, {}, { debug: true }) });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'adhoc', JobID: 'A' });
    await w0.take();
    await waitFor(() => decisions(entries).length === 2, 'two decisions', 5000);
    expect(decisions(entries)).toEqual([
      { message: 'ruleset matched', component: 'jobs', id: expect.stringMatching(/^trace-\d+$/), ruleset: 'adhoc' },
      { message: 'outlink chosen', component: 'jobs', id: expect.stringMatching(/^trace-\d+$/), job: 1, ruleset: 'adhoc', outlink: 'w0' },
    ]);
  });

  it('logs the bypass outlink of a request its ruleset sends past the workers', async () => {
    const entries: LogEntry[] = [];
    r = rig({ Ruleset: RULESETS }, { logger: memoryLogger(entries, {}, { debug: true }) });
    await r.input.put(Message.text('ping', {}, { JMSType: 'ping', JMSMessageID: 'ID:p' }));
    await waitFor(() => decisions(entries).length === 2, 'two decisions', 5000);
    expect(decisions(entries).map((d) => [d.message, d.id, d.ruleset, d.outlink])).toEqual([
      ['ruleset matched', 'ID:p', 'pings', undefined],
      ['outlink chosen', 'ID:p', 'pings', 'bypass'],
    ]);
  });

  it('builds none of them when the log does not write debug lines', async () => {
    const entries: LogEntry[] = [];
    r = rig({ Ruleset: RULESETS }, { logger: memoryLogger(entries) });
    const w0 = new HandWorker(r.workers[0]);
    await r.send({ JobType: 'adhoc', JobID: 'B' });
    await w0.take();
    expect(decisions(entries)).toEqual([]);
  });
});
