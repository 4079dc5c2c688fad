/**
 * Reload on the real RabbitMQ that changes the receiver itself (issue 27): its Priority override, under a steady
 * 2,000 msg/s in XAMode 1. The old receiver stops taking deliveries, lets what it handed downstream finish and
 * acknowledges it before it closes; the new one resumes consuming. 0 lost, 0 duplicated, and only the receiver
 * is replaced (one new connection), the rest untouched. Runs about 15 s.
 */
import { waitFor } from '../../support/component-harness';
import { ReloadRig } from './reload-kit';

jest.setTimeout(120_000);

const RATE = 2_000;
const OTHERS = ['node_collect', 'pstr_eval', 'pstr_out', 'pstr_failed'];
let rig: ReloadRig | undefined;

afterEach(async () => {
  await rig?.cleanup();
  rig = undefined;
});

it('replaces a receiver whose Priority changed under load: none lost or duplicated, only the receiver reconnects', async () => {
  const r = (rig = await ReloadRig.start(RATE));
  const { flow, out, publisher } = r;
  const others = OTHERS.map((name) => flow.component(name)!.ref);
  const receiver = flow.component('rcvr_in')!.ref;
  publisher.start();

  await waitFor(() => publisher.published >= 5 * RATE, '5 s of messages published', 30_000);
  const receipt = await flow.reload(r.topology.write('V0:##body##', (j) => (j.rcvr_in.Priority = '7')));
  const publishedAtReceipt = publisher.published;
  expect(receipt).toMatchObject({ outcome: 'applied', redelivered: 0 });
  expect(receipt.components.filter((c) => c.action !== 'kept').map((c) => [c.name, c.action, c.changed])).toEqual([['rcvr_in', 'replaced', ['Priority']]]);
  expect(receipt.components.find((c) => c.name === 'rcvr_in')?.drained?.returned).toBe(0);

  await waitFor(() => publisher.published >= 12 * RATE, '12 s of messages published', 30_000);
  const published = await r.finish();

  expect({ lost: out.lost(published).length, duplicated: out.duplicated().length }).toEqual({ lost: 0, duplicated: 0 });
  const notRaised: number[] = [];
  for (let id = publishedAtReceipt; id < published; id++) if (out.priorities.get(id) !== 7) notRaised.push(id);
  expect(notRaised).toEqual([]);
  expect(flow.component('rcvr_in')!.ref).not.toBe(receiver);
  expect(OTHERS.map((name) => flow.component(name)!.ref)).toEqual(others);
  expect(flow.status().components.map((c) => [c.name, c.reconnects, c.restarts])).toEqual([
    ['pstr_eval', 0, 0],
    ['pstr_out', 0, 0],
    ['pstr_failed', 0, 0],
    ['node_collect', 0, 0],
    ['rcvr_in', 0, 0],
  ]);
});
