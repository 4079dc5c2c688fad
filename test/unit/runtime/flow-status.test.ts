import { componentOf, startTestFlow } from '../../support/flow-harness';
import { Flow } from '../../../src/runtime/flow';
import { AnyComponentDefinition, ComponentRegistry } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { Taken, XQueue } from '../../../src/xqueue/xqueue';
import { forwardNode, idleReceiver } from '../config/fake-components';
import { waitFor } from './helpers';

/**
 * A persister whose destination can be missing: while `gate.open` is false it holds what it takes, RETRYING with a
 * next retry time (or, with `gate.runWhileClosed`, RUNNING); opening the gate finishes what it holds.
 */
interface Gate {
  open: boolean;
  runWhileClosed: boolean;
  release?: () => void;
}

function gatedPersister(gate: Gate): AnyComponentDefinition {
  return {
    className: 'persister.GatedPersister',
    role: 'persister',
    operations: ['store'],
    description: 'test persister with a destination that may be missing',
    schema: { properties: { ExchangeName: { type: 'string' } } },
    create: (env) => {
      const held: { taken: Taken<Message>; q: XQueue<Message> }[] = [];
      const closed = () => (gate.runWhileClosed ? env.status.set('RUNNING') : env.status.set('RETRYING', 'exchange missing', Date.now() + 5000));
      return {
        start(ctx) {
          if (gate.open) env.status.set('RUNNING');
          else closed();
          gate.release = () => {
            env.status.set('RUNNING');
            for (const h of held.splice(0)) h.q.remove(h.taken);
          };
          ctx.consume(env.input!, (taken, q) => {
            if (gate.open) q.remove(taken);
            else held.push({ taken, q });
          });
        },
      };
    },
  };
}

function startFlow(gate: Gate, outCapacity = 8) {
  const registry = new ComponentRegistry([idleReceiver, forwardNode, gatedPersister(gate)]);
  const flow = startTestFlow(
    {
      Name: 'flow-status',
      Receiver: ['rcvr'],
      Node: ['node'],
      Persister: ['pstr'],
      rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'root' },
      node: { ClassName: 'node.ForwardNode', LinkName: 'root', OutLink: ['out'], Capacity: '8' },
      pstr: { ClassName: 'persister.GatedPersister', LinkName: 'out', Capacity: String(outCapacity), ExchangeName: 'orders' },
    },
    registry,
    { rateSampleMs: 50 },
  );
  // The test receiver and node do not report themselves running; the real ones do once connected.
  flow.component('rcvr')!.status.set('RUNNING');
  flow.component('node')!.status.set('RUNNING');
  return flow;
}

/** Adds as the receiver would: counted in the receiver's totals until the node finishes it. */
function receive(flow: Flow, n: number): void {
  const totals = flow.component('rcvr')!.status.totals;
  for (let i = 0; i < n; i++) flow.link('root').offer(Message.text(`m${i}`), undefined, undefined, totals);
}

const component = (flow: Flow, name: string) => componentOf(flow, name)!;
const link = (flow: Flow, name: string) => flow.status().links.find((l) => l.name === name)!;

describe('flow status: what moves and what is stuck', () => {
  let flow: Flow | undefined;
  afterEach(async () => {
    await flow?.stop({ drainMs: 0 });
    flow = undefined;
  });

  it('calls a link stuck while it holds messages and its consumer is not running, and turns it red', async () => {
    flow = startFlow({ open: false, runWhileClosed: false });
    receive(flow, 3);
    await waitFor(() => link(flow!, 'out').inFlight === 3, 'the persister holds 3');
    expect(link(flow, 'out')).toMatchObject({ stuck: 'consumer-not-running', health: 'red' });
  });

  it('turns everything upstream of a stuck link amber, naming the link', async () => {
    flow = startFlow({ open: false, runWhileClosed: false });
    receive(flow, 3);
    await waitFor(() => link(flow!, 'out').inFlight === 3, 'the persister holds 3');
    const s = flow.status();
    expect(Object.fromEntries(s.components.map((c) => [c.name, [c.health, c.blockedBy]]))).toEqual({
      rcvr: ['amber', 'out'],
      node: ['amber', 'out'],
      pstr: ['red', undefined],
    });
    expect(s.links.find((l) => l.name === 'root')).toMatchObject({ health: 'amber', blockedBy: 'out' });
  });

  it('shows the messages in flight upstream of a stuck link in each component', async () => {
    flow = startFlow({ open: false, runWhileClosed: false });
    receive(flow, 3);
    await waitFor(() => link(flow!, 'out').inFlight === 3, 'the persister holds 3');
    expect(Object.fromEntries(flow.status().components.map((c) => [c.name, c.inFlight]))).toEqual({ rcvr: 3, node: 3, pstr: 3 });
  });

  it('shows the failing component with its next retry time and its endpoint', async () => {
    flow = startFlow({ open: false, runWhileClosed: false });
    await waitFor(() => component(flow!, 'pstr').status === 'RETRYING', 'the persister retrying');
    const c = component(flow, 'pstr');
    expect(c.nextRetryAt).toBeGreaterThan(Date.now());
    expect(c.endpoint).toEqual({ ExchangeName: 'orders' });
  });

  it('gives the age of the oldest message of a stuck link', async () => {
    flow = startFlow({ open: false, runWhileClosed: false });
    receive(flow, 1);
    await waitFor(() => link(flow!, 'out').oldestAgeMs >= 100, 'the oldest message of out is 100 ms old', 3000);
  });

  it('calls a full link stuck and the flow degraded though every component runs', async () => {
    flow = startFlow({ open: false, runWhileClosed: true }, 2);
    receive(flow, 2);
    await waitFor(() => link(flow!, 'out').free === 0, 'out is full');
    const s = flow.status();
    expect({ ready: s.ready, degraded: s.degraded, stuckLinks: s.stuckLinks }).toEqual({
      ready: true,
      degraded: true,
      stuckLinks: [{ link: 'out', reason: 'full' }],
    });
  });

  it('turns everything back to ok once the stuck link moves, with every message done', async () => {
    const gate: Gate = { open: false, runWhileClosed: false };
    flow = startFlow(gate);
    receive(flow, 3);
    await waitFor(() => link(flow!, 'out').inFlight === 3, 'the persister holds 3');
    gate.open = true;
    gate.release!();
    await waitFor(() => component(flow!, 'rcvr').messages.done === 3, 'the receiver sees 3 done');
    const s = flow.status();
    expect([...s.components, ...s.links].map((x) => x.health)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect({ stuckLinks: s.stuckLinks, ready: s.ready, pstrDone: component(flow, 'pstr').messages.done }).toEqual({ stuckLinks: [], ready: true, pstrDone: 3 });
  });

  it('reports rates from counters sampled on a timer, falling back to 0 over the last second when idle', async () => {
    flow = startFlow({ open: true, runWhileClosed: false });
    receive(flow, 5);
    await waitFor(() => component(flow!, 'pstr').rate.out1s > 0 && link(flow!, 'out').rate.in1s > 0, 'a rate out of the persister and into out');
    await waitFor(() => component(flow!, 'pstr').rate.out1s === 0, 'no rate over the last second once idle', 4000);
    expect(component(flow, 'pstr').rate.out1m).toBeGreaterThan(0);
  });

  it('dates the last message of a component', async () => {
    flow = startFlow({ open: true, runWhileClosed: false });
    const before = Date.now();
    receive(flow, 1);
    await waitFor(() => component(flow!, 'pstr').messages.done === 1, 'the persister finished it');
    expect(component(flow, 'pstr').lastMessageAt).toBeGreaterThanOrEqual(before);
  });
});
