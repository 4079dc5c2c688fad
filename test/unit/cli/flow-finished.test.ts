/**
 * When `xroute run` counts a flow as finished by itself (src/cli/flow-finished.ts), on a virtual clock: the links are
 * sampled every pollMs, and two quiet samples in a row with every receiver ended finish the flow.
 */
import { whenFlowFinished } from '../../../src/cli/flow-finished';
import type { Flow } from '../../../src/runtime/flow';
import { VirtualClock } from '../../support/virtual-clock';

interface FakeLink {
  size: number;
  reserved: number;
  waitingProducers: number;
  totalAdded: number;
  totalRemoved: number;
  totalFailed: number;
  totalPutback: number;
}

/** The parts of a Flow the watch reads: components with their class and status, and the links' counts. */
function fakeFlow(components: { name: string; role: string; className: string; status: string }[]): { flow: Flow; link: FakeLink } {
  const link: FakeLink = { size: 0, reserved: 0, waitingProducers: 0, totalAdded: 0, totalRemoved: 0, totalFailed: 0, totalPutback: 0 };
  const flow = {
    topology: { components: components.map((c) => ({ name: c.name, role: c.role, definition: { className: c.className } })) },
    component: (name: string) => {
      const c = components.find((x) => x.name === name);
      return c && { status: { status: c.status } };
    },
    status: () => ({ links: [link] }),
  };
  return { flow: flow as unknown as Flow, link };
}

/** Watches `flow` on a fresh virtual clock; `finished()` says whether the watch has resolved. */
function watch(flow: Flow): { clock: VirtualClock; finished: () => Promise<boolean>; cancel: () => void } {
  const clock = new VirtualClock();
  const w = whenFlowFinished(flow, 250, clock);
  let done = false;
  void w.finished.then(() => (done = true));
  return { clock, finished: async () => (await Promise.resolve(), done), cancel: w.cancel };
}

const fileReceiver = { name: 'rcvr', role: 'receiver', className: 'receiver.StreamReceiver', status: 'STOPPED' };

describe('whenFlowFinished', () => {
  it('finishes at the second quiet sample once every receiver has ended', async () => {
    const w = watch(fakeFlow([fileReceiver]).flow);
    w.clock.advance(250);
    expect(await w.finished()).toBe(false);
    w.clock.advance(250);
    expect(await w.finished()).toBe(true);
  });

  it('waits while a link counted traffic between two samples', async () => {
    const { flow, link } = fakeFlow([fileReceiver]);
    const w = watch(flow);
    w.clock.advance(250);
    link.totalAdded++;
    link.totalRemoved++;
    w.clock.advance(250);
    expect(await w.finished()).toBe(false);
    w.clock.advance(250);
    expect(await w.finished()).toBe(true);
  });

  it('never finishes while a receiver is still running', async () => {
    const w = watch(fakeFlow([{ ...fileReceiver, status: 'RUNNING' }]).flow);
    w.clock.advance(3_600_000);
    expect(await w.finished()).toBe(false);
    w.cancel();
  });

  it('never finishes a flow with a pool, whose children work outside the links', async () => {
    const w = watch(fakeFlow([fileReceiver, { name: 'pool', role: 'persister', className: 'persister.PersisterPool', status: 'RUNNING' }]).flow);
    w.clock.advance(3_600_000);
    expect(await w.finished()).toBe(false);
    w.cancel();
  });

  it('never finishes a flow without receivers', async () => {
    const w = watch(fakeFlow([{ name: 'pstr', role: 'persister', className: 'persister.MessageEvaluator', status: 'RUNNING' }]).flow);
    w.clock.advance(3_600_000);
    expect(await w.finished()).toBe(false);
    w.cancel();
  });

  it('leaves no timer behind once cancelled', () => {
    const w = watch(fakeFlow([{ ...fileReceiver, status: 'RUNNING' }]).flow);
    expect(w.clock.pending).toBe(1);
    w.cancel();
    expect(w.clock.pending).toBe(0);
  });
});
