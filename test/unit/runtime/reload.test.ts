/** flow.reload (docs/operations.md#changing-a-running-flow) with in-process components: plan, swap, refusal, rollback. */
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { buildTopology, Topology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { ReloadReceipt } from '../../../src/runtime/reload-receipt';
import { formatReceipt } from '../../../src/runtime/reload-receipt-text';
import { ledger, reloadRegistry, setProducing } from './fixtures/reload-components';
import { waitFor } from './helpers';
import { componentOf } from '../../support/flow-harness';
import { flowMetrics } from '../../../src/admin/metrics';
import { untilCollected } from '../../support/garbage';
import type { XQueue } from '../../../src/xqueue/xqueue';
import type { Message } from '../../../src/message/message';

const registry = reloadRegistry();
let dir: string;
let flow: Flow | undefined;

type Json = Record<string, unknown>;

/** rcvr -> in -> stamp -> out -> store, with `change` applied to the topology JSON. */
function topologyJson(change: (json: Json) => void = () => undefined): Json {
  const json: Json = {
    Name: 'reload',
    Receiver: ['rcvr'],
    Node: ['stamp'],
    Persister: ['store'],
    rcvr: { ClassName: 'receiver.CountingReceiver', LinkName: 'in', Tag: 'r1' },
    stamp: { ClassName: 'node.SuffixNode', LinkName: 'in', OutLink: ['out'], Suffix: 'v1', Capacity: '16' },
    store: { ClassName: 'persister.CollectingPersister', LinkName: 'out', Capacity: '16' },
  };
  change(json);
  return json;
}

function topology(change?: (json: Json) => void): Topology {
  return buildTopology(topologyJson(change), path.join(dir, 'flow.json'), registry);
}

/** The topology written to a file, as an operator edits it. */
function topologyFile(change?: (json: Json) => void): string {
  const file = path.join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(topologyJson(change)));
  return file;
}

function started(t: Topology = topology()): Flow {
  flow = Flow.start(t, { registry });
  return flow;
}

async function flowing(f: Flow, more = 200): Promise<void> {
  const from = ledger.order.length;
  await waitFor(() => ledger.order.length >= from + more, `${more} more messages through ${f.name}`);
}

function actions(receipt: ReloadReceipt): Record<string, string> {
  return Object.fromEntries(receipt.components.map((c) => [c.name, c.action]));
}

/** Stops producing, lets every message arrive, and checks that each arrived once. */
async function settledExactlyOnce(f: Flow, input = 'in'): Promise<void> {
  setProducing(false);
  await waitFor(() => ledger.arrived.size === ledger.produced && f.link(input).size === 0 && f.link('out').size === 0, 'every message delivered');
  expect({ lost: ledger.lost(), duplicated: ledger.duplicated() }).toEqual({ lost: [], duplicated: [] });
}

/** The values of the flow's prom-client metric `name` by component and outcome ("stampdone"), as /metrics serves them. */
async function metric(f: Flow, name: string): Promise<Record<string, number>> {
  return Object.fromEntries((await flowMetrics(f).getSingleMetric(name)!.get()).values.map((v) => [`${v.labels.component}${v.labels.outcome ?? ''}`, v.value]));
}

/** A weak reference to the flow's link `name` (the test itself holds no strong one). */
function weakLink(f: Flow, name: string): WeakRef<XQueue<Message>> {
  return new WeakRef(f.link(name));
}

/** Every figure of every component, as /status and /metrics read them. */
async function figures(f: Flow): Promise<Record<string, unknown>> {
  return {
    status: Object.fromEntries(f.status().components.map((c) => [c.name, c.messages])),
    totals: f.totals(),
    in: await metric(f, 'xroute_component_messages_in_total'),
    finished: await metric(f, 'xroute_component_messages_total'),
  };
}

/** The rcvr and stamp read and write `link` in place of "in". */
function onInput(link: string): (json: Json) => void {
  return (j) => {
    (j.rcvr as Json).LinkName = link;
    (j.stamp as Json).LinkName = link;
  };
}

/** How many queue records the totals of the flow's components hold. */
function recordsHeld(f: Flow): number {
  return f.componentViews().reduce((n, c) => n + c.status.totals.recordsHeld, 0);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'xroute-reload-'));
  ledger.reset();
  setProducing(true);
});

afterEach(async () => {
  await flow?.stop({ drainMs: 2_000 });
  flow = undefined;
});

describe('flow.reload applies a plan', () => {
  it('replaces a changed node: messages before the receipt carry the old Suffix, after it the new, each exactly once', async () => {
    const f = started();
    await flowing(f);
    const rcvr = f.component('rcvr')!.ref;
    const store = f.component('store')!.ref;
    const receipt = await f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v2')));
    const atReceipt = ledger.order.length;
    await flowing(f);
    expect(receipt.outcome).toBe('applied');
    expect(actions(receipt)).toEqual({ rcvr: 'kept', stamp: 'replaced', store: 'kept' });
    expect(receipt.components.find((c) => c.name === 'stamp')?.changed).toEqual(['Suffix']);
    expect(ledger.order.slice(atReceipt).every((a) => a.endsWith(':v2'))).toBe(true);
    const firstV2 = ledger.order.findIndex((a) => a.endsWith(':v2'));
    expect(ledger.order.slice(firstV2).every((a) => a.endsWith(':v2'))).toBe(true);
    expect([f.component('rcvr')!.ref, f.component('store')!.ref]).toEqual([rcvr, store]);
    await settledExactlyOnce(f);
  });

  it('keeps an unchanged component untouched: same actor, counters go on from where they were', async () => {
    const f = started();
    await flowing(f);
    const before = componentOf(f, 'store')!;
    const ref = f.component('store')!.ref;
    await f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v2')));
    const after = componentOf(f, 'store')!;
    expect(f.component('store')!.ref).toBe(ref);
    expect(after.since).toBe(before.since);
    expect(after.messages.in).toBeGreaterThanOrEqual(before.messages.in);
  });

  it('keeps the counters of a replaced component across its incarnations', async () => {
    const f = started();
    await flowing(f);
    const before = componentOf(f, 'stamp')!.messages.done;
    await f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v2')));
    await flowing(f);
    expect(componentOf(f, 'stamp')!.messages.done).toBeGreaterThan(before);
  });

  it('replaces a changed receiver after it drained: what it handed downstream is finished, none lost or duplicated', async () => {
    const f = started();
    await flowing(f);
    const receipt = await f.reload(topology((j) => ((j.rcvr as Json).Tag = 'r2')));
    await flowing(f);
    expect(actions(receipt)).toEqual({ rcvr: 'replaced', stamp: 'kept', store: 'kept' });
    expect(receipt.components.find((c) => c.name === 'rcvr')?.drained?.returned).toBe(0);
    expect(ledger.receiverStarts).toEqual(['r1', 'r2']);
    await settledExactlyOnce(f);
  });

  it('adds and removes components, consumers before producers, and removes a link once it is empty', async () => {
    const f = started();
    await flowing(f);
    const receipt = await f.reload(
      topology((j) => {
        j.Node = ['stamp2'];
        delete j.stamp;
        j.stamp2 = { ClassName: 'node.SuffixNode', LinkName: 'in', OutLink: ['out2'], Suffix: 'w', Capacity: '16' };
        j.Persister = ['store2'];
        delete j.store;
        j.store2 = { ClassName: 'persister.CollectingPersister', LinkName: 'out2' };
      }),
    );
    await flowing(f);
    expect(receipt.outcome).toBe('applied');
    expect(actions(receipt)).toEqual({ rcvr: 'kept', stamp2: 'added', store2: 'added', stamp: 'removed', store: 'removed' });
    expect(receipt.links.map((l) => [l.name, l.action])).toEqual([
      ['in', 'kept'],
      ['out2', 'added'],
      ['out', 'removed'],
    ]);
    expect(f.linkNames().sort()).toEqual(['in', 'out2']);
    expect(
      f
        .status()
        .components.map((c) => c.name)
        .sort(),
    ).toEqual(['rcvr', 'stamp2', 'store2']);
    setProducing(false);
    await waitFor(() => ledger.arrived.size === ledger.produced, 'every message delivered');
    expect({ lost: ledger.lost(), duplicated: ledger.duplicated() }).toEqual({ lost: [], duplicated: [] });
  });

  it('resizes a link in place: the same queue, the new capacity, nothing it held lost', async () => {
    const f = started();
    await flowing(f);
    const q = f.link('in');
    const receipt = await f.reload(topology((j) => ((j.stamp as Json).Capacity = '64')));
    expect(receipt.links.find((l) => l.name === 'in')).toMatchObject({ action: 'resized', capacity: { from: 16, to: 64 } });
    expect(f.link('in')).toBe(q);
    expect(q.capacity).toBe(64);
    await flowing(f);
    await settledExactlyOnce(f);
  });

  it('says unchanged, and touches nothing, when the topology is the same', async () => {
    const f = started();
    const refs = ['rcvr', 'stamp', 'store'].map((n) => f.component(n)!.ref);
    const receipt = await f.reload(topology());
    expect(receipt.outcome).toBe('unchanged');
    expect(['rcvr', 'stamp', 'store'].map((n) => f.component(n)!.ref)).toEqual(refs);
  });

  it('replaces a component whose referenced file changed though its configuration did not', async () => {
    const template = path.join(dir, 'suffix.txt');
    writeFileSync(template, 'one');
    const f = started(topology((j) => ((j.stamp as Json).TemplateFile = template)));
    await flowing(f, 20);
    writeFileSync(template, 'two');
    const receipt = await f.reload(
      topology((j) => ((j.stamp as Json).TemplateFile = template)),
      { dryRun: true },
    );
    expect(receipt.components.find((c) => c.name === 'stamp')).toMatchObject({ action: 'replaced', changed: ['TemplateFile content'] });
  });
});

describe('flow.reload hands work over', () => {
  it('gives what the old incarnation handed over to the new one, with the messages it held still taken', async () => {
    const f = started(topology((j) => ((j.stamp as Json).ClassName = 'node.HandingNode')));
    await waitFor(() => f.link('in').inFlight >= 8, 'the handing node holds messages');
    setProducing(false);
    const receipt = await f.reload(topology((j) => Object.assign(j.stamp as Json, { ClassName: 'node.HandingNode', Suffix: 'next' })));
    expect(receipt.outcome).toBe('applied');
    const handed = (ledger.handedOver[0] as { held: unknown[] }).held.length;
    expect(handed).toBeGreaterThanOrEqual(8);
    await waitFor(() => ledger.order.length >= handed, 'the handed-over messages finished by the new incarnation');
    expect(ledger.order.slice(0, handed).every((a) => a.endsWith(':next'))).toBe(true);
    expect(ledger.duplicated()).toEqual([]);
    expect(f.link('in').stats().totalPutback).toBe(0);
  });

  it('counts each message once in every component, as /status and /metrics read them, across the hand-over', async () => {
    const f = started(topology((j) => ((j.stamp as Json).ClassName = 'node.HandingNode')));
    await waitFor(() => f.link('in').inFlight >= 8, 'the handing node holds messages');
    setProducing(false);
    await f.reload(topology((j) => Object.assign(j.stamp as Json, { ClassName: 'node.HandingNode', Suffix: 'next' })));
    const handed = (ledger.handedOver[0] as { held: unknown[] }).held.length;
    await waitFor(() => ledger.order.length >= handed && f.link('out').size === 0, 'the handed-over messages stored');
    const finished = ledger.order.length;
    const messages = (name: string) => componentOf(f, name)!.messages;
    expect({ rcvr: messages('rcvr'), stamp: messages('stamp'), store: messages('store') }).toEqual({
      rcvr: { in: ledger.produced, done: finished, failed: 0 },
      stamp: { in: ledger.produced, done: finished, failed: 0 },
      store: { in: finished, done: finished, failed: 0 },
    });
    expect(componentOf(f, 'stamp')!.inFlight).toBe(f.link('in').inFlight);
    expect(await metric(f, 'xroute_component_messages_in_total')).toEqual({ rcvr: ledger.produced, stamp: ledger.produced, store: finished });
    expect(await metric(f, 'xroute_component_messages_total')).toMatchObject({ stampdone: finished, stampfailed: 0, storedone: finished });
  });
});

describe('flow.reload drains a removed component as at a stop', () => {
  it('drains a removed receiver with a stop request, not one for a replacement', async () => {
    const f = started(
      topology((j) => Object.assign(j, { Receiver: ['rcvr', 'extra'], extra: { ClassName: 'receiver.CountingReceiver', LinkName: 'in', Tag: 'extra' } })),
    );
    await flowing(f);
    const receipt = await f.reload(topology());
    expect(actions(receipt)).toEqual({ rcvr: 'kept', extra: 'removed', stamp: 'kept', store: 'kept' });
    expect(ledger.drains).toEqual([{ tag: 'extra', forReplace: false }]);
    await settledExactlyOnce(f);
  });

  it('hands nothing over from a removed node: what it held goes back to its link and is finished once by the node added in its place', async () => {
    const f = started(
      topology((j) => {
        delete j.stamp;
        Object.assign(j, { Node: ['hold'], hold: { ClassName: 'node.HandingNode', LinkName: 'in', OutLink: ['out'], Suffix: 'held', Capacity: '16' } });
      }),
    );
    await waitFor(() => f.link('in').inFlight >= 8, 'the handing node holds messages');
    const receipt = await f.reload(topology(), { drainMs: 300 });
    expect(actions(receipt)).toEqual({ rcvr: 'kept', stamp: 'added', hold: 'removed', store: 'kept' });
    expect(ledger.handedOver).toEqual([]);
    expect(receipt.components.find((c) => c.name === 'hold')?.drained?.returned).toBeGreaterThanOrEqual(8);
    await settledExactlyOnce(f);
    expect(ledger.order.filter((a) => !a.endsWith(':v1'))).toEqual([]);
  });
});

describe('flow.reload refuses what it cannot apply and changes nothing', () => {
  it('refuses to remove a component whose running incarnation refuses it (Behaviour.refuseRemove), naming file and component', async () => {
    const f = started(
      topology((j) =>
        Object.assign(j, {
          Node: ['stamp', 'locked'],
          locked: { ClassName: 'node.SuffixNode', LinkName: 'in', OutLink: ['out'], Suffix: 'v1', Locked: 'true' },
        }),
      ),
    );
    const ref = f.component('locked')!.ref;
    const file = topologyFile();
    const receipt = await f.reload(file);
    expect(receipt).toMatchObject({ outcome: 'refused' });
    expect(receipt.error).toContain(`${file}: locked: cannot be removed now: Locked: it cannot be removed`);
    expect(f.component('locked')!.ref).toBe(ref);
    await flowing(f);
  });

  it('refuses a topology file with an invalid value, naming file, component and property', async () => {
    const f = started();
    const refs = ['rcvr', 'stamp', 'store'].map((n) => f.component(n)!.ref);
    const file = topologyFile((j) => ((j.stamp as Json).Pattern = '(unclosed'));
    const receipt = await f.reload(file);
    expect(receipt.outcome).toBe('refused');
    expect(receipt.error).toContain(`${file}: stamp: Pattern:`);
    expect(['rcvr', 'stamp', 'store'].map((n) => f.component(n)!.ref)).toEqual(refs);
    await flowing(f);
  });

  it('refuses an unknown ClassName and a link cycle as validate does', async () => {
    const f = started();
    const unknown = await f.reload(topologyFile((j) => ((j.stamp as Json).ClassName = 'node.NoSuchNode')));
    expect(unknown.error).toMatch(/stamp: ClassName: unknown class "node.NoSuchNode"/);
    const cycle = await f.reload(topologyFile((j) => ((j.stamp as Json).OutLink = ['out', 'in'])));
    expect(cycle.error).toMatch(/links form a cycle/);
    expect(f.topology.components.find((c) => c.name === 'stamp')?.config.Suffix).toBe('v1');
  });

  it('refuses a replacement the running incarnation refuses (Behaviour.refuseReplace)', async () => {
    const f = started(topology((j) => ((j.stamp as Json).Locked = 'true')));
    const receipt = await f.reload(topology((j) => Object.assign(j.stamp as Json, { Locked: 'true', Suffix: 'v2' })));
    expect(receipt.outcome).toBe('refused');
    expect(receipt.error).toContain('stamp: cannot be replaced now: Locked: its Suffix cannot change');
  });

  it('refuses, never rejects, when asking the running incarnation throws', async () => {
    const f = started(topology((j) => ((j.stamp as Json).Locked = 'throw')));
    const receipt = await f.reload(topology((j) => Object.assign(j.stamp as Json, { Locked: 'throw', Suffix: 'v2' })));
    expect(receipt).toMatchObject({ outcome: 'refused' });
    expect(receipt.error).toContain('stamp: cannot be replaced now: asking it failed: cannot tell');
  });

  it('refuses while the flow stops', async () => {
    const f = started();
    const stopping = f.stop({ drainMs: 1_000 });
    const receipt = await f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v2')));
    await stopping;
    expect(receipt).toMatchObject({ outcome: 'refused', error: 'the flow is stopping' });
  });
});

describe('flow.reload rolls back', () => {
  it('puts the previous definition back when a new incarnation is not running within readyTimeoutMs', async () => {
    const f = started();
    await flowing(f);
    const receipt = await f.reload(
      topology((j) => Object.assign(j.stamp as Json, { Hang: 'true', Suffix: 'v2' })),
      { readyTimeoutMs: 300 },
    );
    expect(receipt.outcome).toBe('rolled-back');
    expect(receipt.error).toMatch(/not ready within 300 ms: stamp is READY/);
    await flowing(f);
    expect(ledger.order.slice(-50).every((a) => a.endsWith(':v1'))).toBe(true);
    expect(f.topology.components.find((c) => c.name === 'stamp')?.config.Suffix).toBe('v1');
    await settledExactlyOnce(f);
  });
});

describe('flow.reload and a removed link', () => {
  it('rolls back when a removed link still holds messages at the drain deadline, and keeps the link', async () => {
    const f = started(topology((j) => ((j.stamp as Json).ClassName = 'node.HandingNode')));
    await waitFor(() => f.link('in').inFlight >= 8, 'the handing node holds messages');
    const receiver = f.component('rcvr')!.ref;
    const receipt = await f.reload(
      topology((j) => {
        (j.rcvr as Json).LinkName = 'in2';
        (j.stamp as Json).LinkName = 'in2';
      }),
      { drainMs: 300 },
    );
    expect(receipt.outcome).toBe('rolled-back');
    expect(receipt.error).toMatch(/stamp: its link "in" still holds \d+ messages at the drain deadline, and the new topology has no such link/);
    expect(f.linkNames().sort()).toEqual(['in', 'out']);
    expect(f.component('rcvr')!.ref).not.toBe(receiver);
    await waitFor(() => f.status().components.every((c) => c.status === 'RUNNING'), 'the previous definitions running again');
    expect(f.topology.components.find((c) => c.name === 'rcvr')?.linkName).toBe('in');
  });
});

describe('flow.reload and the counts of a removed link', () => {
  it('keeps every figure of a surviving producer of a removed link, and lets the removed link go', async () => {
    const f = started();
    await flowing(f);
    await settledExactlyOnce(f);
    const before = await figures(f);
    const removed = weakLink(f, 'in');
    const receipt = await f.reload(topology(onInput('in2')));
    expect(receipt.outcome).toBe('applied');
    expect(receipt.links.find((l) => l.name === 'in')?.action).toBe('removed');
    expect(await figures(f)).toEqual(before);
    await untilCollected(removed, 'the removed link');
  });

  it('holds no more queue records after many reloads that each remove the link its receiver wrote to', async () => {
    const f = started();
    const held: number[] = [];
    for (let round = 1; round <= 5; round++) {
      setProducing(true);
      await flowing(f, 50);
      await settledExactlyOnce(f, round === 1 ? 'in' : `in${round - 1}`);
      expect((await f.reload(topology(onInput(`in${round}`)))).outcome).toBe('applied');
      held.push(recordsHeld(f));
    }
    expect(held).toEqual(held.map(() => held[0]));
  });
});

describe('flow.reload dry run, receipts and order', () => {
  it('returns the plan of a dry run and changes nothing', async () => {
    const f = started();
    const ref = f.component('stamp')!.ref;
    const receipt = await f.reload(
      topology((j) => ((j.stamp as Json).Suffix = 'v2')),
      { dryRun: true },
    );
    expect(receipt).toMatchObject({ dryRun: true, outcome: 'applied', swapMs: 0 });
    expect(actions(receipt).stamp).toBe('replaced');
    expect(f.component('stamp')!.ref).toBe(ref);
    expect(formatReceipt(receipt)).toMatch(/^dry run of flow reload: would apply/);
  });

  it('runs reloads one at a time and tells every listener each receipt', async () => {
    const f = started();
    const seen: string[] = [];
    f.onReload((r) => seen.push(`${r.outcome} ${r.components.find((c) => c.name === 'stamp')?.action}`));
    const [a, b] = await Promise.all([
      f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v2'))),
      f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v3'))),
    ]);
    expect([a.outcome, b.outcome]).toEqual(['applied', 'applied']);
    expect(seen).toEqual(['applied replaced', 'applied replaced']);
    await flowing(f);
    expect(ledger.order.slice(-10).every((x) => x.endsWith(':v3'))).toBe(true);
  });

  it('formats a receipt as one line per change', async () => {
    const f = started();
    const receipt = await f.reload(topology((j) => ((j.stamp as Json).Suffix = 'v2')));
    const text = formatReceipt(receipt);
    expect(text.split('\n')[0]).toMatch(/^reload of flow reload: applied in \d+ ms, 0 redelivered \(api, [0-9a-f-]+\)$/);
    expect(text).toMatch(/ {2}replaced stamp \(node.SuffixNode\); changed: Suffix; drained: \d+ finished, 0 given back; swap \d+ ms/);
    expect(text).toContain('  kept     store, rcvr');
  });
});
