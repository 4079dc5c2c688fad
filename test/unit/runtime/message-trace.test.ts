import { testTopology } from '../../support/flow-harness';
import { Flow } from '../../../src/runtime/flow';
import { ComponentRegistry } from '../../../src/runtime/component';
import { ComponentTrace, traceIdOf } from '../../../src/runtime/message-trace';
import { TokenBucket } from '../../../src/runtime/token-bucket';
import { LogEntry, memoryLogger } from '../../../src/logging/logger';
import { Message } from '../../../src/message/message';
import { defaultRegistry } from '../../../actors';
import { idleReceiver, upperPersister } from '../config/fake-components';
import { waitFor } from './helpers';
import { UnknownComponentError } from '../../../src/runtime/errors';

const registry = new ComponentRegistry([...defaultRegistry().all(), idleReceiver, upperPersister]);

/** idle receiver -> in -> CollectNode -> evaluate (MessageEvaluator, bounces back) -> out (a persister). */
function topology() {
  return testTopology(
    {
      Name: 'traced',
      Receiver: ['rcvr'],
      Node: ['collect'],
      Persister: ['eval', 'store'],
      rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'in' },
      collect: {
        ClassName: 'node.CollectNode',
        LinkName: 'in',
        OutLink: ['out', 'out', 'out', 'evaluate'],
        Ruleset: [{ Name: 'orders', PreferredOutLink: 'evaluate', FieldName: 'RuleName', Template: 'order' }],
      },
      eval: {
        ClassName: 'persister.MessageEvaluator',
        LinkName: 'evaluate',
        Ruleset: { order: { FormatterArgument: [{ FieldName: 'body', Template: ['ORDER:##body##'] }] } },
      },
      store: { ClassName: 'persister.UpperPersister', LinkName: 'out' },
    },
    registry,
  );
}

function startFlow(options: { debug?: boolean; trace?: string[]; linesPerSecond?: number } = {}): { flow: Flow; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const flow = Flow.start(topology(), {
    registry,
    logger: memoryLogger(entries, {}, { debug: options.debug }),
    trace: options.trace,
    traceOptions: { linesPerSecond: options.linesPerSecond },
  });
  return { flow, entries };
}

const traceLines = (entries: LogEntry[]) => entries.filter((e) => e.level === 'info' && e.message === 'trace' && e.meta.id !== undefined).map((e) => e.meta);

describe('per-message trace', () => {
  const flows: Flow[] = [];
  afterEach(async () => {
    for (const f of flows.splice(0)) await f.stop({ drainMs: 100 });
  });

  it('logs the path of a message through each traced component: id, link, outcome and ms spent', async () => {
    const { flow, entries } = startFlow({ trace: ['collect', 'eval', 'store'] });
    flows.push(flow);
    await flow.send('in', Message.text('chairs', {}, { JMSMessageID: 'ID:42' }));
    expect(traceLines(entries).map(({ component, id, link, direction, outcome }) => ({ component, id, link, direction, outcome }))).toEqual([
      { component: 'eval', id: 'ID:42', link: 'evaluate', direction: 'in', outcome: 'done' },
      { component: 'store', id: 'ID:42', link: 'out', direction: 'in', outcome: 'done' },
      { component: 'collect', id: 'ID:42', link: 'in', direction: 'in', outcome: 'done' },
    ]);
    expect(traceLines(entries).every((l) => typeof l.ms === 'number' && l.ms >= 0)).toBe(true);
  });

  it('names the outlinks a node chose for the message, in order', async () => {
    const { flow, entries } = startFlow({ trace: ['collect'] });
    flows.push(flow);
    await flow.send('in', Message.text('table'));
    expect(traceLines(entries).map((l) => l.outlinks)).toEqual([['evaluate', 'out']]);
  });

  it('gives a message without a JMSMessageID one id, the same in every component', async () => {
    const { flow, entries } = startFlow({ trace: ['collect', 'store'] });
    flows.push(flow);
    await flow.send('in', Message.text('no id'));
    const ids = new Set(traceLines(entries).map((l) => l.id));
    expect([ids.size, [...ids][0]]).toEqual([1, expect.stringMatching(/^trace-\d+$/)]);
  });

  it('logs nothing for a component that is not traced', async () => {
    const { flow, entries } = startFlow({ trace: ['store'] });
    flows.push(flow);
    await flow.send('in', Message.text('x'));
    expect(traceLines(entries).map((l) => l.component)).toEqual(['store']);
  });

  it('is turned on and off at run time', async () => {
    const { flow, entries } = startFlow();
    flows.push(flow);
    await flow.send('in', Message.text('before'));
    expect(flow.setTrace(['store'], true)).toEqual(['store']);
    await flow.send('in', Message.text('during'));
    expect(flow.setTrace(['store'], false)).toEqual([]);
    await flow.send('in', Message.text('after'));
    expect(traceLines(entries).length).toBe(1);
    expect(flow.traced()).toEqual([]);
  });

  it('refuses an unknown component, naming the known ones, and changes nothing', () => {
    const { flow } = startFlow();
    flows.push(flow);
    expect(() => flow.setTrace(['store', 'stroe'], true)).toThrow(UnknownComponentError);
    expect(() => flow.setTrace(['stroe'], true)).toThrow(/no component "stroe"; components: .*store/);
    expect(flow.traced()).toEqual([]);
  });
});

describe('trace rate bound', () => {
  it('logs at most its lines per second, counts the lines dropped and reports them once', () => {
    let now = 0;
    const entries: LogEntry[] = [];
    const trace = new ComponentTrace('busy', memoryLogger(entries), { linesPerSecond: 10, now: () => now, reportEveryMs: 1_000_000 });
    const messages = Array.from({ length: 100 }, (_, i) => Message.text(`m${i}`));
    for (const m of messages) {
      trace.took('in', m);
      trace.finished('in', m, 'done');
    }
    now += 1000; // one second later: 10 more tokens
    for (const m of messages.slice(0, 15)) trace.finished('in', m, 'done');
    trace.reportDropped();
    trace.reportDropped();
    trace.close();
    const lines = entries.filter((e) => e.message === 'trace').length;
    const reports = entries.filter((e) => e.message.startsWith('trace lines dropped')).map((e) => e.meta.dropped);
    expect({ lines, reports }).toEqual({ lines: 20, reports: [95] });
  });

  it('reports the dropped lines on its own timer when messages stop', async () => {
    const entries: LogEntry[] = [];
    const trace = new ComponentTrace('busy', memoryLogger(entries), { linesPerSecond: 1, now: () => 0, reportEveryMs: 20 });
    for (let i = 0; i < 3; i++) trace.finished('in', Message.text('x'), 'failed', 'broken');
    await waitFor(() => entries.length === 2, 'the report of the dropped lines', 2000);
    trace.close();
    expect(entries.map((e) => [e.message.split(':')[0], e.meta.dropped ?? e.meta.reason])).toEqual([
      ['trace', 'broken'],
      ['trace lines dropped', 2],
    ]);
  });

  it('token bucket: refills at its rate up to its burst', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 4, () => now);
    const takes = () => Array.from({ length: 6 }, () => bucket.take()).filter(Boolean).length;
    expect(takes()).toBe(4);
    now = 1000;
    expect(takes()).toBe(2);
    now = 60_000;
    expect(takes()).toBe(4);
  });

  it('trace ids: the JMSMessageID when there is one', () => {
    expect(traceIdOf(Message.text('x', {}, { JMSMessageID: 'ID:7' }))).toBe('ID:7');
  });
});

describe('debug level: the decisions behind a routing choice', () => {
  const flows: Flow[] = [];
  afterEach(async () => {
    for (const f of flows.splice(0)) await f.stop({ drainMs: 100 });
  });
  const decisions = (entries: LogEntry[]) =>
    entries.filter((e) => e.level === 'debug' && ['ruleset matched', 'outlink chosen', 'evaluated'].includes(e.message));

  it('logs the ruleset matched, each outlink chosen and the evaluator ruleset with its return code', async () => {
    const { flow, entries } = startFlow({ debug: true });
    flows.push(flow);
    await flow.send('in', Message.text('desk', {}, { JMSMessageID: 'ID:9' }));
    expect(decisions(entries).map((e) => ({ message: e.message, ...e.meta }))).toEqual([
      { message: 'ruleset matched', component: 'collect', id: 'ID:9', ruleset: 'orders' },
      { message: 'outlink chosen', component: 'collect', id: 'ID:9', ruleset: 'orders', task: 0, outlink: 'evaluate' },
      { message: 'evaluated', component: 'eval', id: 'ID:9', ruleset: 'order', rc: '0' },
      { message: 'outlink chosen', component: 'collect', id: 'ID:9', ruleset: 'orders', task: 0, outlink: 'out' },
    ]);
  });

  it('builds no decision line when the log does not write debug lines', async () => {
    const { flow, entries } = startFlow({ debug: false });
    flows.push(flow);
    await flow.send('in', Message.text('desk'));
    expect(decisions(entries)).toEqual([]);
  });
});
