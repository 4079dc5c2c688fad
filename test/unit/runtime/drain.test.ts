/** Drain then stop (docs/operations.md#stopping), with in-process fakes: the order of a flow stop and one component's. */
import { Flow } from '../../../src/runtime/flow';
import { ActorRuntime, Behaviour, QueueConsumer } from '../../../src/runtime/actor';
import { ComponentRegistry } from '../../../src/runtime/component';
import { DrainRequest, untilDoneOrDeadline } from '../../../src/runtime/drain';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { startTestFlow, testComponent } from '../../support/flow-harness';
import { waitFor } from './helpers';

/** What the fakes of one test did, in order. */
let events: string[] = [];
/** Removes one message the persister holds (a finished job), in the order taken. */
let held: (() => void)[] = [];
const finishHeld = (): void => held.splice(0).forEach((finish) => finish());

/** A receiver that hands 3 messages downstream at start, and drains as a broker receiver does: it waits for them. */
const handingReceiver = testComponent('receiver', 'receiver.HandingReceiver', (env): Behaviour<never> => {
  let outstanding = 0;
  let acknowledged = 0;
  return {
    start() {
      for (let i = 0; i < 3; i++) {
        outstanding++;
        env.output!.offer(Message.text(`m${i}`), () => {
          outstanding--;
          acknowledged++;
        });
      }
    },
    async drain(_ctx, request: DrainRequest) {
      events.push(`drain ${env.name} ${request.onStop}`);
      const before = acknowledged;
      await untilDoneOrDeadline(request.deadline, () => outstanding === 0);
      return { acknowledged: acknowledged - before, returned: outstanding };
    },
    stop() {
      events.push(`stop ${env.name}`);
    },
  };
});

/** A persister that holds each message it takes until the test finishes it (finishHeld). */
const holdingPersister = testComponent('persister', 'persister.HoldingPersister', (env): Behaviour<never> => ({
  start(ctx) {
    ctx.consume(env.input!, (taken, q) => {
      events.push(`take ${taken.item.bodyText()}`);
      held.push(() => q.remove(taken));
    });
  },
  stop() {
    events.push(`stop ${env.name}`);
  },
}));

const registry = () => new ComponentRegistry([handingReceiver, holdingPersister]);

const startFlow = (): Flow =>
  startTestFlow(
    {
      Name: 'drain',
      Receiver: ['rcvr'],
      Persister: ['pstr'],
      rcvr: { ClassName: 'receiver.HandingReceiver', LinkName: 'in' },
      pstr: { ClassName: 'persister.HoldingPersister', LinkName: 'in', Capacity: '8' },
    },
    registry(),
  );

beforeEach(() => {
  events = [];
  held = [];
});

describe('Flow.stop drains before it stops', () => {
  it('lets a receiver wait for the work it handed downstream, then stops it before the rest', async () => {
    const flow = startFlow();
    await waitFor(() => events.filter((e) => e.startsWith('take')).length === 3, 'the 3 messages taken');
    const stopping = flow.stop({ drainMs: 5_000 });
    await waitFor(() => events.includes('drain rcvr wait'), 'the drain to start');
    finishHeld();
    await stopping;
    expect(flow.link('in').stats()).toMatchObject({ totalRemoved: 3, size: 0 });
    expect(events.slice(3)).toEqual(['drain rcvr wait', 'stop rcvr', 'stop pstr']);
  });

  it('stops at the deadline with what is unfinished, without waiting longer', async () => {
    const flow = startFlow();
    await waitFor(() => events.filter((e) => e.startsWith('take')).length === 3, 'the 3 messages taken');
    const started = Date.now();
    await flow.stop({ drainMs: 300, onStop: 'kill' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(events.slice(3)).toEqual(['drain rcvr kill', 'stop rcvr', 'stop pstr']);
  });
});

describe('Flow.drainAndStop', () => {
  it('drains and stops one component, reports what it acknowledged and gave back, and leaves the others running', async () => {
    const flow = startFlow();
    await waitFor(() => events.filter((e) => e.startsWith('take')).length === 3, 'the 3 messages taken');
    const draining = flow.drainAndStop('rcvr', { drainMs: 5_000 });
    await waitFor(() => events.includes('drain rcvr wait'), 'the drain to start');
    finishHeld();
    const report = await draining;
    expect(report).toEqual({ acknowledged: 3, returned: 0 });
    expect(flow.status().components.map((c) => [c.name, c.actor])).toEqual([
      ['pstr', 'running'],
      ['rcvr', 'stopped'],
    ]);
    await flow.stop({ drainMs: 0 });
  });

  it('names the components when there is no such one', async () => {
    const flow = startFlow();
    await expect(flow.drainAndStop('nope')).rejects.toThrow('flow drain has no component "nope"; components: pstr, rcvr');
    await flow.stop({ drainMs: 0 });
  });
});

describe('QueueConsumer.stopTaking', () => {
  it('takes nothing more from its queue, and what it holds stays held', async () => {
    const runtime = new ActorRuntime('test');
    const q = new XQueue<string>('in', 8);
    let consumer: QueueConsumer | undefined;
    const taken: string[] = [];
    runtime.spawn('c', (): Behaviour<never> => ({ start: (ctx) => void (consumer = ctx.consume(q, (t) => void taken.push(t.item))) }));
    q.offer('a');
    await waitFor(() => taken.length === 1, 'a taken');
    consumer!.stopTaking();
    q.offer('b');
    const other: string[] = [];
    runtime.spawn('other', (): Behaviour<never> => ({ start: (ctx) => void ctx.consume(q, (t) => void other.push(t.item)) }));
    await waitFor(() => other.length === 1, 'b taken by the other consumer');
    expect({ taken, other, inFlight: q.inFlight }).toEqual({ taken: ['a'], other: ['b'], inFlight: 2 });
    await runtime.stop();
  });
});
