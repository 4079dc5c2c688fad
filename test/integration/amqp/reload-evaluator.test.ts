/**
 * Reload of a running flow on the real RabbitMQ (issue 27, docs/operations.md#changing-a-running-flow): the
 * evaluate-route example (AmqpReceiver -> CollectNode -> MessageEvaluator -> AmqpPersister, XAMode 1) at a steady
 * 2,000 msg/s for 60 s while its evaluator's ruleset is changed 10 times. Every message arrives exactly once,
 * counted by id; the unchanged receiver and persister never reconnect; every message published after a receipt
 * carries the new ruleset's mark and none that arrived before the reload began does. Runs about 85 s.
 */
import { waitFor } from '../../support/component-harness';
import { ReloadRig } from './reload-kit';

jest.setTimeout(240_000);

const RATE = 2_000;
const DURATION_S = 60;
const RELOADS = 10;

let rig: ReloadRig | undefined;

afterEach(async () => {
  await rig?.cleanup();
  rig = undefined;
});

function version(v: string | undefined): number {
  return v === undefined ? -1 : Number(v.slice(1));
}

it('changes a ruleset 10 times at 2,000 msg/s for 60 s: every message once, no reconnect, each receipt a clean cut', async () => {
  const r = (rig = await ReloadRig.start(RATE));
  const { flow, out, publisher } = r;
  const kept = ['rcvr_in', 'node_collect', 'pstr_out', 'pstr_failed'].map((name) => flow.component(name)!.ref);
  publisher.start();

  const cuts: { version: number; arrivedBefore: number; publishedAtReceipt: number }[] = [];
  const perReload = (RATE * DURATION_S) / (RELOADS + 1);
  for (let k = 1; k <= RELOADS; k++) {
    await waitFor(() => publisher.published >= k * perReload, `${k * perReload} messages published`, 60_000);
    const arrivedBefore = out.count;
    const receipt = await flow.reload(r.topology.write(`V${k}:##body##`));
    cuts.push({ version: k, arrivedBefore, publishedAtReceipt: publisher.published });
    expect(receipt).toMatchObject({ outcome: 'applied', redelivered: 0 });
    expect(receipt.components.filter((c) => c.action !== 'kept').map((c) => `${c.action} ${c.name}`)).toEqual(['replaced pstr_eval']);
  }
  await waitFor(() => publisher.published >= RATE * DURATION_S, 'the last messages published', 60_000);
  const published = await r.finish();

  expect({ lost: out.lost(published).length, duplicated: out.duplicated().length }).toEqual({ lost: 0, duplicated: 0 });
  for (const cut of cuts) {
    const newBeforeReload = out.arrivals.slice(0, cut.arrivedBefore).filter((id) => version(out.versionOf(id)) >= cut.version).length;
    let oldAfterReceipt = 0;
    for (let id = cut.publishedAtReceipt; id < published; id++) if (version(out.versionOf(id)) < cut.version) oldAfterReceipt++;
    expect({ version: cut.version, newBeforeReload, oldAfterReceipt }).toEqual({ version: cut.version, newBeforeReload: 0, oldAfterReceipt: 0 });
  }
  expect(['rcvr_in', 'node_collect', 'pstr_out', 'pstr_failed'].map((name) => flow.component(name)!.ref)).toEqual(kept);
  expect(
    flow
      .status()
      .components.filter((c) => c.name === 'rcvr_in' || c.name === 'pstr_out')
      .map((c) => [c.name, c.reconnects, c.restarts]),
  ).toEqual([
    ['pstr_out', 0, 0],
    ['rcvr_in', 0, 0],
  ]);
});
