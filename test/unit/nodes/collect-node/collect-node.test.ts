import { Message } from '../../../../src/message/message';
import { Outcome, XQueue } from '../../../../src/xqueue/xqueue';
import { ComponentConfig } from '../../../../src/runtime/component';
import { collectNodeComponent, nextHop } from '../../../../actors/nodes/collect-node';
import { CollectRuleset, parseCollectNodeSettings } from '../../../../actors/nodes/collect-node-config';
import { messageEvaluatorComponent } from '../../../../actors/persisters/message-evaluator';
import { validateComponentConfig } from '../../../../src/config/validate-component';
import * as path from 'path';
import { loadTopology } from '../../../../src/config/topology';
import { defaultRegistry } from '../../../../actors';
import { Harness, runComponent } from '../../../support/component-harness';
import { HandWorker, waitFor } from '../job-node/component-support';
import { TurnCounter, eventLoopTurns } from '../../../support/wait';

const EVALUATOR = {
  Name: 'eval',
  Ruleset: {
    order: { JMSPropertyGroup: [{ kind: '^order$' }], FormatterArgument: [{ FieldName: 'body', Template: ['ORDER:##body##'] }] },
    stamp: { FormatterArgument: [{ FieldName: 'stamped', Template: ['yes'] }] },
  },
};
const EVALUATE = { Name: 'evaluate', PreferredOutLink: 'evaluate', FieldName: 'RuleName', Template: 'order' };

interface Rig {
  input: XQueue<Message>;
  done: XQueue<Message>;
  failed: XQueue<Message>;
  nohit: XQueue<Message>;
  evaluate: XQueue<Message>;
  second: XQueue<Message>;
  node: Harness;
  upstream: Map<string, Outcome>;
  send(body: string, props?: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Three messages put into the rig's input and forwarded to done, taken there by hand: `removeAll` removes them at once
 * while counting event-loop turns, and `completedAt` holds the turn each upstream completion came in.
 */
async function threeForwarded(r: Rig): Promise<{ completedAt: number[]; removeAll(): Promise<void> }> {
  const done = new HandWorker(r.done);
  const turns = new TurnCounter();
  const completedAt: number[] = [];
  for (const id of ['a1', 'a2', 'a3']) await r.input.put(Message.text(id, { kind: 'order' }), () => completedAt.push(turns.turn));
  const outs = [await done.take(), await done.take(), await done.take()];
  const removeAll = () =>
    turns.during(async () => {
      for (const out of outs) r.done.remove(out, 'done');
      await waitFor(() => completedAt.length === 3, 'the three upstream completions');
    });
  return { completedAt, removeAll };
}

const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.stop();
});

/** A CollectNode with outlinks done, failed, nohit, evaluate (a real MessageEvaluator) and second (hand-driven). */
function rig(config: Record<string, unknown>, options: { doneCapacity?: number; evaluator?: boolean } = {}): Rig {
  const input = new XQueue<Message>('in', 16);
  const done = new XQueue<Message>('done', options.doneCapacity ?? 16);
  const failed = new XQueue<Message>('failed', 16);
  const nohit = new XQueue<Message>('nohit', 16);
  const evaluate = new XQueue<Message>('evaluate', 4);
  const second = new XQueue<Message>('second', 4);
  const evaluator =
    options.evaluator === false ? undefined : runComponent(messageEvaluatorComponent as never, { config: EVALUATOR as ComponentConfig, input: evaluate });
  const node = runComponent(collectNodeComponent as never, {
    config: { Name: 'collect', OutLink: ['done', 'failed', 'nohit', 'evaluate', 'second'], ...config } as ComponentConfig,
    input,
    outlinks: [done, failed, nohit, evaluate, second],
  });
  const upstream = new Map<string, Outcome>();
  const r: Rig = {
    input,
    done,
    failed,
    nohit,
    evaluate,
    second,
    node,
    upstream,
    send: (body, props = {}) => input.put(Message.text(body, { id: body, ...props }), (item, outcome) => upstream.set(item.getProperty('id') ?? '?', outcome)),
    stop: async () => {
      await node.stop();
      await evaluator?.stop();
    },
  };
  rigs.push(r);
  return r;
}

describe('CollectNode: evaluate, then route by return code', () => {
  it('sends a message to the evaluator and forwards the transformed message to done when it comes back with SUCCESS', async () => {
    const r = rig({ Ruleset: [EVALUATE] });
    const done = new HandWorker(r.done);
    await r.send('a1', { kind: 'order' });
    const out = await done.take();
    expect(out.item.bodyText()).toBe('ORDER:a1');
    expect(out.item.getProperty('RuleName')).toBe('order');
  });

  it('clears the return code of a message that leaves through done, as the original does', async () => {
    const r = rig({ Ruleset: [EVALUATE] });
    const done = new HandWorker(r.done);
    await r.send('a1', { kind: 'order' });
    const out = await done.take();
    expect(out.item.getProperty('ReturnCode')).toBeUndefined();
    expect(out.item.getProperty('OriginalRC')).toBeUndefined();
  });

  it('forwards a message that comes back with FAILURE (no rule hit) to failure, untransformed and with its return code', async () => {
    const r = rig({ Ruleset: [EVALUATE] });
    const failed = new HandWorker(r.failed);
    await r.send('b1', { kind: 'note' });
    const out = await failed.take();
    expect(out.item.bodyText()).toBe('b1');
    expect(out.item.getProperty('ReturnCode')).toBe('1');
  });

  it('removes the input message only when the final outlink consumer removes it, with that outcome (XA end to end)', async () => {
    const r = rig({ Ruleset: [EVALUATE] });
    const done = new HandWorker(r.done);
    await r.send('a1', { kind: 'order' });
    const out = await done.take();
    await eventLoopTurns(); // a completion sent on forwarding would have arrived by now
    expect(r.upstream.has('a1')).toBe(false);
    expect(r.input.inFlight).toBe(1);
    r.done.remove(out, 'failed');
    await waitFor(() => r.upstream.has('a1'), 'the upstream completion');
    expect(r.upstream.get('a1')).toBe('failed');
    expect(r.input.size).toBe(0);
  });

  it('handles the returns that reach it in one turn together: messages removed downstream at once are removed from its input in one turn', async () => {
    const { completedAt, removeAll } = await threeForwarded(rig({ Ruleset: [EVALUATE] }));
    await removeAll();
    expect(new Set(completedAt).size).toBe(1);
  });

  it('handles a burst of returns in the event-loop turn they arrive in, while it is idle (its inbox wakes it as a pull does)', async () => {
    const { completedAt, removeAll } = await threeForwarded(rig({ Ruleset: [EVALUATE] }));
    await eventLoopTurns(2);
    await removeAll();
    expect(completedAt).toEqual([0, 0, 0]);
  });

  it('carries a message put into its idle input through the evaluator and back to done in the event-loop turn it was put in', async () => {
    const r = rig({ Ruleset: [EVALUATE] });
    const turns = new TurnCounter();
    const addedToDoneAt: number[] = [];
    r.done.attach('test-done', () => addedToDoneAt.push(turns.turn));
    await eventLoopTurns(2);
    await turns.during(async () => {
      r.input.offer(Message.text('c1', { kind: 'order' }));
      await waitFor(() => addedToDoneAt.length === 1, 'the message added to done');
    });
    expect(addedToDoneAt).toEqual([0]);
  });

  it('holds messages taken from its input while the target outlink is full, and sends them in order once it frees (back pressure)', async () => {
    const r = rig({ Ruleset: [EVALUATE] }, { doneCapacity: 1 });
    const done = new HandWorker(r.done);
    for (const b of ['m1', 'm2', 'm3']) await r.send(b, { kind: 'order' });
    const first = await done.take();
    await waitFor(() => r.node.status.get().counters.collected === 3, 'three collections');
    expect(r.done.stats().free).toBe(0);
    expect(r.input.inFlight).toBe(3);
    const bodies = [first.item.bodyText()];
    done.finish(first);
    for (let i = 0; i < 2; i++) {
      const next = await done.take();
      bodies.push(next.item.bodyText());
      done.finish(next);
    }
    expect(bodies).toEqual(['ORDER:m1', 'ORDER:m2', 'ORDER:m3']);
    await waitFor(() => r.upstream.size === 3, 'three upstream completions');
  });

  it('routes a message no ruleset selects to nohit without collecting it', async () => {
    const r = rig({ Ruleset: [{ ...EVALUATE, JMSPropertyGroup: [{ kind: '.' }] }] });
    const nohit = new HandWorker(r.nohit);
    await r.send('plain');
    const out = await nohit.take();
    expect(out.item.getProperty('RuleName')).toBeUndefined();
    expect(r.node.status.get().counters.collected).toBeUndefined();
  });

  it('follows NextTask: task 0 sends a SUCCESS on to another collectible, whose return code then decides the exit (with task 0 ErrorCode)', async () => {
    const r = rig({
      Ruleset: [
        {
          ...EVALUATE,
          NextTask: [
            { Success: 'second', FieldName: 'step', Template: 'two', ErrorCode: '7' },
            { Success: 'done', Failure: 'failed' },
          ],
        },
      ],
    });
    const second = new HandWorker(r.second);
    const failed = new HandWorker(r.failed);
    await r.send('a1', { kind: 'order' });
    const atSecond = await second.take();
    expect(atSecond.item.bodyText()).toBe('ORDER:a1');
    expect(atSecond.item.getProperty('step')).toBe('two');
    second.finish(atSecond, '3');
    const out = await failed.take();
    expect(out.item.getProperty('ReturnCode')).toBe('7');
  });

  it('treats a message its collectible removed as failed as an EXCEPTION (task Exception outlink, default nohit)', async () => {
    const r = rig({ Ruleset: [{ Name: 'direct', PreferredOutLink: 'second', NextTask: [{}] }] }, { evaluator: false });
    const second = new HandWorker(r.second);
    const nohit = new HandWorker(r.nohit);
    await r.send('x');
    second.finish(await second.take(), '0', 'failed');
    expect((await nohit.take()).item.bodyText()).toBe('x');
  });

  it('sends a message whose body its ruleset filters cannot read to the failure outlink', async () => {
    const r = rig({ Ruleset: [{ ...EVALUATE, PatternGroup: [{ Pattern: ['x'] }] }] }, { evaluator: false });
    const failed = new HandWorker(r.failed);
    const bad = Message.text('x', { id: 'obj' });
    bad.bodyText = () => {
      throw new Error('unreadable body');
    };
    await r.input.put(bad, (item, outcome) => r.upstream.set('obj', outcome));
    const out = await failed.take();
    expect(out.item).toBe(bad);
  });

  it('writes "ruleset:task" to TidField before each send to a collectible', async () => {
    const r = rig({ TidField: 'Tid', Ruleset: [{ ...EVALUATE, NextTask: [{ Success: 'second' }] }] });
    const second = new HandWorker(r.second);
    await r.send('a1', { kind: 'order' });
    expect((await second.take()).item.getProperty('Tid')).toBe('1:1');
  });
});

describe('CollectNode routing (nextHop)', () => {
  const settings = parseCollectNodeSettings('c', {
    OutLink: ['done', 'failed', 'nohit', 'a', 'b', 'c'],
    Ruleset: [{ Name: 'flow', PreferredOutLink: 'a', NextTask: [{ Success: 'b', Failure: 'c' }, { Success: 'done' }, { Success: 'c' }, { Success: 'done' }] }],
  } as unknown as ComponentConfig);
  const rs = settings.rulesets[1] as CollectRuleset;
  const warn = jest.fn();

  it('without tasks, sends SUCCESS to done and every other return code to failure', () => {
    const plain = parseCollectNodeSettings('c', {
      OutLink: ['d', 'f', 'n', 'a'],
      Ruleset: [{ Name: 'p', PreferredOutLink: 'a' }],
    } as unknown as ComponentConfig).rulesets[1];
    expect([0, 1, -1].map((rc) => nextHop(plain, 0, rc, warn).outlink)).toEqual([0, 1, 1]);
  });

  it('uses the task of the current step: Success, Failure, Exception (default nohit)', () => {
    expect(nextHop(rs, 0, 0, warn)).toEqual({ outlink: 4, task: 0, rc: 0 });
    expect(nextHop(rs, 1, 0, warn)).toEqual({ outlink: 0, task: 1, rc: 0 });
    expect(nextHop(rs, 1, -1, warn)).toEqual({ outlink: 2, task: 1, rc: -1 });
  });

  it('jumps a failure routed to another collectible to the branch that starts with it', () => {
    expect(nextHop(rs, 0, 1, warn)).toEqual({ outlink: 5, task: 2, rc: 0 });
  });

  it('sends a failure to nohit when no branch starts with its collectible', () => {
    const odd = parseCollectNodeSettings('c', {
      OutLink: ['d', 'f', 'n', 'a', 'b'],
      Ruleset: [{ Name: 'p', PreferredOutLink: 'a', NextTask: [{ Success: 'a', Failure: 'b' }] }],
    } as unknown as ComponentConfig).rulesets[1];
    expect(nextHop(odd, 0, 1, warn).outlink).toBe(2);
    expect(warn).toHaveBeenCalled();
  });
});

describe('CollectNode configuration', () => {
  const check = (config: Record<string, unknown>) =>
    validateComponentConfig(collectNodeComponent as never, { ClassName: 'node.CollectNode', LinkName: 'in', ...config }, '.');

  it('accepts the same link for done, failure and nohit', () => {
    expect(check({ OutLink: ['out', 'failed', 'failed', 'evaluate'], Ruleset: [EVALUATE] })).toEqual([]);
  });

  it('rejects a collectible that repeats a fixed outlink', () => {
    expect(check({ OutLink: ['out', 'failed', 'nohit', 'out'], Ruleset: [] })).toEqual([expect.objectContaining({ property: 'OutLink/3', severity: 'error' })]);
  });

  it('rejects a PreferredOutLink that is no outlink, with a did-you-mean', () => {
    const issues = check({ OutLink: ['out', 'failed', 'nohit', 'evaluate'], Ruleset: [{ Name: 'r', PreferredOutLink: 'evaluat' }] });
    expect(issues).toEqual([expect.objectContaining({ property: 'Ruleset/0/PreferredOutLink', message: expect.stringContaining('did you mean evaluate?') })]);
  });

  it('rejects an unknown task key with a did-you-mean', () => {
    const issues = check({
      OutLink: ['out', 'failed', 'nohit', 'evaluate'],
      Ruleset: [{ Name: 'r', PreferredOutLink: 'evaluate', NextTask: [{ Sucess: 'out' }] }],
    });
    expect(issues).toEqual([expect.objectContaining({ property: 'Ruleset/0/NextTask/0/Sucess', message: expect.stringContaining('did you mean Success?') })]);
  });

  it('rejects fewer than four outlinks', () => {
    expect(check({ OutLink: ['out', 'failed', 'nohit'], Ruleset: [] }).some((i) => i.property === 'OutLink' && i.severity === 'error')).toBe(true);
  });
});

describe('config/examples/evaluate-route.json', () => {
  it('loads without problems: receiver -> CollectNode -> evaluator, out and failed persisters, failure and nohit sharing one link', () => {
    const t = loadTopology(path.resolve(__dirname, '../../../../config/examples/evaluate-route.json'), defaultRegistry());
    expect(t.warnings).toEqual([]);
    expect(t.components.map((c) => [c.name, c.definition.className]).sort()).toEqual([
      ['node_collect', 'node.CollectNode'],
      ['pstr_eval', 'persister.MessageEvaluator'],
      ['pstr_failed', 'persister.AmqpPersister'],
      ['pstr_out', 'persister.AmqpPersister'],
      ['rcvr_in', 'receiver.AmqpReceiver'],
    ]);
    expect([...t.links.keys()].sort()).toEqual(['evaluate', 'failed', 'incoming', 'out']);
  });
});
