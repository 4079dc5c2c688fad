import { readFileSync } from 'fs';
import * as path from 'path';
import { Message } from '../../../../src/message/message';
import { ComponentConfig } from '../../../../src/runtime/component';
import { ActiveTime } from '../../../../src/rules/time-windows';
import { validateComponentConfig } from '../../../../src/config/validate-component';
import { JobNodeConfigError, parseJobNodeSettings, thresholdProvider } from '../../../../actors/nodes/job-node-config';
import { rulesetMatcher } from '../../../../actors/nodes/ruleset-matcher';
import { validateJobNode } from '../../../../actors/nodes/job-node-schema';
import { jobNodeComponent } from '../../../../actors/nodes/job-node';
import { Sim } from './scheduler-sim';

const SAMPLE = JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/nodes/JobNode.json'), 'utf8')) as ComponentConfig;
const OUT = ['notice', 'bypass', 'w0'];

function config(extra: Record<string, unknown>): ComponentConfig {
  return { Name: 'jobs', OutLink: OUT, ...extra } as ComponentConfig;
}

describe('JobNode configuration: the published sample', () => {
  it('reports the sample\'s KeyTemplat as an error with "did you mean KeyTemplate" (validate)', () => {
    const issues = validateJobNode(SAMPLE);
    expect(issues).toContainEqual({ property: 'Ruleset/0/KeyTemplat', message: 'unknown property; did you mean KeyTemplate?', severity: 'error' });
    expect(issues).toContainEqual({ property: 'Ruleset/1/KeyTemplat', message: 'unknown property; did you mean KeyTemplate?', severity: 'error' });
  });

  it('reports KeyTemplat with "did you mean KeyTemplate" through the loader\'s schema check', () => {
    const problems = validateComponentConfig(jobNodeComponent as never, SAMPLE, '.');
    expect(problems).toContainEqual(
      expect.objectContaining({ property: 'Ruleset/0/KeyTemplat', severity: 'error', message: expect.stringContaining('did you mean KeyTemplate') }),
    );
  });

  it('accepts the sample once KeyTemplate is spelt right, with the documented layout: log = notice, done = bypass, four workers', () => {
    const fixed = JSON.parse(JSON.stringify(SAMPLE).replace(/KeyTemplat"/g, 'KeyTemplate"')) as ComponentConfig;
    expect(validateComponentConfig(jobNodeComponent as never, fixed, '.').filter((p) => p.severity === 'error')).toEqual([]);
    const s = parseJobNodeSettings('node_job', fixed);
    expect(s.outlinkNames).toEqual(['log', 'done', 'script1', 'script2', 'script3', 'script4']);
    expect(s.workerCount).toBe(4);
    expect(s.rulesets.map((r) => [r.name, r.spec.priority, r.spec.heartbeatMs])).toEqual([
      ['nohit', 0, 30_000],
      ['express', 650, 120_000],
      ['job', 450, 240_000],
    ]);
  });

  it('selects express for a short runJob and job for a long one, nohit otherwise', () => {
    const s = parseJobNodeSettings('node_job', SAMPLE);
    const match = rulesetMatcher(s.rulesets, () => undefined);
    expect(match(Message.text('', { method: 'runJob', Duration: '120' }))).toBe(1);
    expect(match(Message.text('', { method: 'runJob', Duration: '900' }))).toBe(2);
    expect(match(Message.text('', { method: 'other' }))).toBe(0);
  });
});

describe('JobNode configuration: rulesets', () => {
  it('builds the key from KeyTemplate and KeySubstitution', () => {
    const s = parseJobNodeSettings('jobs', config({ Ruleset: [{ Name: 'nightly', KeyTemplate: '##JobID##', KeySubstitution: 's/-retry$//' }] }));
    expect(s.rulesets[1].keyOf?.(Message.text('', { JobID: 'A-retry' }))).toBe('A');
  });

  it('has no key function without KeyTemplate (every job is unique)', () => {
    expect(parseJobNodeSettings('jobs', config({ Ruleset: [{ Name: 'r' }] })).rulesets[1].keyOf).toBeUndefined();
  });

  it('makes a ruleset with PreferredOutLink a bypass ruleset', () => {
    const s = parseJobNodeSettings('jobs', config({ Ruleset: [{ Name: 'pings', PreferredOutLink: 'bypass' }] }));
    expect(s.rulesets[1].bypass).toBe(true);
  });

  it('warns when PreferredOutLink names another outlink than bypass', () => {
    expect(validateJobNode(config({ Ruleset: [{ Name: 'pings', PreferredOutLink: 'w0' }] }))).toContainEqual(
      expect.objectContaining({ property: 'Ruleset/0/PreferredOutLink', severity: 'warning' }),
    );
  });

  const defaults: { title: string; ruleset: Record<string, string>; node?: Record<string, string>; expected: Record<string, unknown> }[] = [
    {
      title: 'Threshold 1, Priority 0, node Heartbeat, no TTL by default',
      ruleset: {},
      expected: { priority: 0, heartbeatMs: 30_000, ttlMs: 0, duplicates: 'defer', failedJobs: 'redispatch', maxDispatch: 3 },
    },
    { title: 'a ruleset Heartbeat of 0 means the node Heartbeat', ruleset: { Heartbeat: '0' }, node: { Heartbeat: '10' }, expected: { heartbeatMs: 10_000 } },
    { title: 'Heartbeat and TimeToLive are seconds', ruleset: { Heartbeat: '0.5', TimeToLive: '3600' }, expected: { heartbeatMs: 500, ttlMs: 3_600_000 } },
    {
      title: 'node-level policies are inherited',
      ruleset: {},
      node: { DuplicatePolicy: 'drop', FailedJobPolicy: 'report', MaxDispatch: '5' },
      expected: { duplicates: 'drop', failedJobs: 'report', maxDispatch: 5 },
    },
    { title: 'ruleset policies override the node', ruleset: { DuplicatePolicy: 'drop' }, node: { DuplicatePolicy: 'defer' }, expected: { duplicates: 'drop' } },
  ];
  it.each(defaults)('$title', ({ ruleset, node, expected }) => {
    const s = parseJobNodeSettings('jobs', config({ ...node, Ruleset: [{ Name: 'r', ...ruleset }] }));
    expect(s.rulesets[1].spec).toMatchObject(expected);
  });

  it('reads a static Threshold of 0 or less as 1, as the original', () => {
    const s = parseJobNodeSettings('jobs', config({ Ruleset: [{ Name: 'r', Threshold: '0' }] }));
    expect(s.rulesets[1].spec.threshold.at(0)).toBe(1);
  });

  const errors: { title: string; cfg: Record<string, unknown>; property: string }[] = [
    { title: 'fewer than three outlinks', cfg: { OutLink: ['notice', 'bypass'] }, property: 'OutLink' },
    { title: 'an outlink named twice', cfg: { OutLink: ['notice', 'bypass', 'notice'] }, property: 'OutLink' },
    { title: 'a ruleset called nohit', cfg: { Ruleset: [{ Name: 'nohit' }] }, property: 'Ruleset/0/Name' },
    { title: 'two rulesets with one name', cfg: { Ruleset: [{ Name: 'a' }, { Name: 'a' }] }, property: 'Ruleset/1/Name' },
    { title: 'a Threshold that is not a number', cfg: { Ruleset: [{ Name: 'a', Threshold: 'many' }] }, property: 'Ruleset/0/Threshold' },
    { title: 'a bad pattern', cfg: { Ruleset: [{ Name: 'a', JMSPropertyGroup: [{ x: '(' }] }] }, property: 'Ruleset/0/JMSPropertyGroup' },
    {
      title: 'a bad substitution',
      cfg: { Ruleset: [{ Name: 'a', KeyTemplate: '##x##', KeySubstitution: 'nonsense' }] },
      property: 'Ruleset/0/KeySubstitution',
    },
    { title: 'a bad time window', cfg: { Ruleset: [{ Name: 'a', ActiveTime: [{ TimeWindow: [{ Interval: 'soon' }] }] }] }, property: 'Ruleset/0/ActiveTime' },
    { title: 'an unknown DuplicatePolicy', cfg: { DuplicatePolicy: 'ignore' }, property: 'DuplicatePolicy' },
    { title: 'more rulesets than MaxNumberRule', cfg: { MaxNumberRule: '2', Ruleset: [{ Name: 'a' }, { Name: 'b' }] }, property: 'Ruleset' },
  ];
  it.each(errors)('rejects $title, naming $property', ({ cfg, property }) => {
    expect(() => parseJobNodeSettings('jobs', config(cfg))).toThrow(JobNodeConfigError);
    expect(validateJobNode(config(cfg))).toContainEqual(expect.objectContaining({ property, severity: 'error' }));
  });

  it('warns that a node Heartbeat of 0 means the default', () => {
    expect(validateJobNode(config({ Heartbeat: '0' }))).toContainEqual(expect.objectContaining({ property: 'Heartbeat', severity: 'warning' }));
    expect(parseJobNodeSettings('jobs', config({ Heartbeat: '0' })).heartbeatMs).toBe(30_000);
  });
});

describe('JobNode ActiveTime thresholds', () => {
  const nightly = thresholdProvider(1, ActiveTime.parse([{ TimeWindow: [{ Interval: '22:00:00-06:00:00', Threshold: '3' }] }]));
  const weekendPause = thresholdProvider(2, ActiveTime.parse([{ TimeWindow: [{ Interval: '00:00:00-24:00:00', Threshold: '0' }], WeekDay: [0, 6] }]));
  const at = (d: number, h: number, m = 0, s = 0) => new Date(2024, 0, d, h, m, s).getTime(); // 2024-01-06 is a Saturday

  const cases: { title: string; provider: typeof nightly; time: number; expected: number }[] = [
    { title: 'inside a window that crosses midnight, before midnight', provider: nightly, time: at(3, 23, 30), expected: 3 },
    { title: 'inside a window that crosses midnight, after midnight', provider: nightly, time: at(4, 5, 59, 59), expected: 3 },
    { title: 'at the end of a window that crosses midnight', provider: nightly, time: at(4, 6), expected: 1 },
    { title: 'outside the window', provider: nightly, time: at(4, 21, 59, 59), expected: 1 },
    { title: 'on a Saturday paused by a weekday window', provider: weekendPause, time: at(6, 12), expected: 0 },
    { title: 'on a Sunday paused by a weekday window', provider: weekendPause, time: at(7, 23, 59, 59), expected: 0 },
    { title: 'on a Monday outside the weekday window', provider: weekendPause, time: at(8, 0), expected: 2 },
  ];
  it.each(cases)('gives the window threshold $title', ({ provider, time, expected }) => {
    expect(provider.at(time)).toBe(expected);
  });

  it('raises the cap when a window opens at midnight-crossing 22:00 and lowers it at 06:00', () => {
    const sim = new Sim([{ name: 'nightly', threshold: nightly }], 5, at(3, 21, 59, 59));
    sim.submit('a:nightly', 'b:nightly', 'c:nightly', 'd:nightly');
    expect(sim.activeNames()).toEqual(['a']);
    sim.clock.advanceTo(at(3, 22));
    expect(sim.activeNames()).toEqual(['a', 'b', 'c']);
    sim.clock.advanceTo(at(4, 6));
    sim.complete('a');
    expect(sim.activeNames()).toEqual(['b', 'c']);
    sim.complete('b', 'c');
    expect(sim.activeNames()).toEqual(['d']);
  });

  it('holds a group over the weekend and starts its jobs on Monday at 00:00:00', () => {
    const sim = new Sim([{ name: 'weekday', threshold: weekendPause }], 5, at(6, 10));
    sim.submit('a:weekday', 'b:weekday', 'c:weekday');
    sim.clock.advanceTo(at(7, 23, 59, 59));
    expect(sim.startedNames()).toEqual([]);
    sim.clock.advanceTo(at(8, 0));
    expect(sim.startedNames()).toEqual(['a', 'b']);
  });
});

describe('JobNode configuration: SharedState', () => {
  it('has no shared state without SharedState (this process alone)', () => {
    expect(parseJobNodeSettings('jobs', config({})).shared).toBeUndefined();
  });

  it('reads the Redis URL, the lease in seconds and a namespace defaulting to the node name', () => {
    expect(parseJobNodeSettings('jobs', config({ SharedState: 'redis://127.0.0.1:6379/0', SharedStateLease: '5' })).shared).toEqual({
      url: 'redis://127.0.0.1:6379/0',
      namespace: 'xroute:jobnode:jobs',
      leaseMs: 5000,
    });
  });

  it('refuses a SharedState that is not a Redis URL, naming the property and without its password', () => {
    const fail = () => parseJobNodeSettings('jobs', config({ SharedState: 'http://user:s3cret@host/' }));
    expect(fail).toThrow(JobNodeConfigError);
    expect(fail).toThrow(/SharedState.*redis:\/\/host:port\/db/);
    expect(fail).not.toThrow(/s3cret/);
  });

  it('refuses a lease shorter than 1 second', () => {
    expect(() => parseJobNodeSettings('jobs', config({ SharedState: 'redis://127.0.0.1:6379/0', SharedStateLease: '0.5' }))).toThrow(
      /SharedStateLease.*at least 1 second/,
    );
  });
});
