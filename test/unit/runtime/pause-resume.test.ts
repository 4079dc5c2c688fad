/** Flow.pause, resume and restart of one component (QBroker's admin disable/enable/restart), with in-process fakes. */
import { Flow } from '../../../src/runtime/flow';
import { Behaviour } from '../../../src/runtime/actor';
import { ComponentRegistry } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { componentOf, startRunningFlow, testComponent, testTopology } from '../../support/flow-harness';
import { waitFor } from './helpers';

/** Bodies each persister incarnation took, and how many incarnations started. */
let taken: string[] = [];
let starts = 0;

const recordingPersister = testComponent('persister', 'persister.RecordingPersister', (env): Behaviour<never> => ({
  start(ctx) {
    starts++;
    env.status.set('RUNNING');
    ctx.consume(env.input!, (t, q) => {
      taken.push(t.item.bodyText() ?? '');
      q.remove(t);
    });
  },
}));

const registry = () => new ComponentRegistry([recordingPersister]);

const pstr = (flow: Flow) => componentOf(flow, 'pstr')!;

/** The flow, once its persister runs (an actor starts a turn after it is spawned). */
const startFlow = (): Promise<Flow> =>
  startRunningFlow({ Name: 'ctl', Persister: ['pstr'], pstr: { ClassName: 'persister.RecordingPersister', LinkName: 'in', Capacity: '8' } }, registry(), [
    'pstr',
  ]);

beforeEach(() => {
  taken = [];
  starts = 0;
});

describe('Flow.pause', () => {
  it('stops the component, shows it as PAUSE and not ready, and leaves what arrives in its input link', async () => {
    const flow = await startFlow();
    await flow.pause('pstr', { drainMs: 1_000 });
    void flow.send('in', Message.text('while paused'));
    expect([pstr(flow).status, pstr(flow).ready, flow.status().ready, flow.link('in').size, taken]).toEqual(['PAUSE', false, false, 1, []]);
    await flow.stop({ drainMs: 0 });
  });

  it('leaves a component paused already as it is', async () => {
    const flow = await startFlow();
    await flow.pause('pstr');
    await flow.pause('pstr');
    expect([pstr(flow).status, starts]).toEqual(['PAUSE', 1]);
    await flow.stop({ drainMs: 0 });
  });

  it('names the components when there is no such one', async () => {
    const flow = await startFlow();
    await expect(flow.pause('nope')).rejects.toThrow('flow ctl has no component "nope"; components: pstr');
    await flow.stop({ drainMs: 0 });
  });

  it('is refused once the flow stops', async () => {
    const flow = await startFlow();
    await flow.stop({ drainMs: 0 });
    await expect(flow.pause('pstr')).rejects.toThrow('flow ctl is stopping: pstr is not paused, resumed or restarted');
  });
});

describe('Flow.resume', () => {
  it('starts a paused component again, which takes what waited in its link', async () => {
    const flow = await startFlow();
    await flow.pause('pstr');
    const done = flow.send('in', Message.text('waited'));
    await flow.resume('pstr');
    await done;
    await waitFor(() => pstr(flow).status === 'RUNNING', 'pstr running again');
    expect([taken, starts, pstr(flow).status]).toEqual([['waited'], 2, 'RUNNING']);
    await flow.stop({ drainMs: 0 });
  });

  it('leaves a running component as it is', async () => {
    const flow = await startFlow();
    await flow.resume('pstr');
    expect(starts).toBe(1);
    await flow.stop({ drainMs: 0 });
  });
});

describe('a pause and a reload of the same component', () => {
  it('pauses after the reload under way, so that the new incarnation is the one paused', async () => {
    const flow = await startFlow();
    const next = testTopology(
      { Name: 'ctl', Persister: ['pstr'], pstr: { ClassName: 'persister.RecordingPersister', LinkName: 'in', Capacity: '8', Description: 'v2' } },
      registry(),
    );
    const [receipt] = await Promise.all([flow.reload(next), flow.pause('pstr')]);
    expect([receipt.outcome, receipt.components.map((c) => c.action), starts, pstr(flow).status]).toEqual(['applied', ['replaced'], 2, 'PAUSE']);
    await flow.stop({ drainMs: 0 });
  });
});

describe('Flow.restart', () => {
  it('drains, stops and starts the component again, counting one restart and keeping its totals', async () => {
    const flow = await startFlow();
    await flow.send('in', Message.text('before'));
    await flow.restart('pstr', { drainMs: 1_000 });
    await flow.send('in', Message.text('after'));
    const c = pstr(flow);
    expect([starts, c.restarts, c.status, c.actor, taken]).toEqual([2, 1, 'RUNNING', 'running', ['before', 'after']]);
    await flow.stop({ drainMs: 0 });
  });

  it('runs after a pause asked for before it, one at a time', async () => {
    const flow = await startFlow();
    const pause = flow.pause('pstr');
    const restart = flow.restart('pstr');
    await Promise.all([pause, restart]);
    await waitFor(() => pstr(flow).status === 'RUNNING', 'pstr running again');
    expect([starts, pstr(flow).status]).toEqual([2, 'RUNNING']);
    await flow.stop({ drainMs: 0 });
  });
});
