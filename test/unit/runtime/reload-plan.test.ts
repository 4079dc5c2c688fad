/** The plan of a reload: per component on its normalised configuration and referenced files, per link on its capacity. */
import * as path from 'path';
import { buildTopology, Topology } from '../../../src/config/topology';
import { fingerprintTopology, planReload } from '../../../src/runtime/reload-plan';
import { reloadRegistry } from './fixtures/reload-components';

type Json = Record<string, unknown>;

function topology(change: (json: Json) => void = () => undefined): Topology {
  const json: Json = {
    Name: 'plan',
    Receiver: ['rcvr'],
    Node: ['stamp'],
    Persister: ['store'],
    rcvr: { ClassName: 'receiver.CountingReceiver', LinkName: 'in', Tag: 'a' },
    stamp: { ClassName: 'node.SuffixNode', LinkName: 'in', OutLink: ['out'], Suffix: 'v1', Pattern: 'x' },
    store: { ClassName: 'persister.CollectingPersister', LinkName: 'out' },
  };
  change(json);
  return buildTopology(json, path.join(__dirname, 'plan.json'), reloadRegistry());
}

function plan(before: Topology, after: Topology) {
  return planReload({ topology: before, fingerprints: fingerprintTopology(before), held: () => 3 }, after, fingerprintTopology(after));
}

describe('planReload', () => {
  it('keeps a component whose configuration differs only in key order', () => {
    const reordered = topology((j) => (j.stamp = { Pattern: 'x', Suffix: 'v1', OutLink: ['out'], LinkName: 'in', ClassName: 'node.SuffixNode' }));
    expect(plan(topology(), reordered).components.every((c) => c.action === 'kept')).toBe(true);
  });

  it('names the properties that differ (sorted), never their values', () => {
    const p = plan(
      topology(),
      topology((j) => Object.assign(j.stamp as Json, { Suffix: 'secret-v2', Pattern: 'y' })),
    );
    const stamp = p.components.find((c) => c.name === 'stamp');
    expect(stamp).toEqual({ name: 'stamp', className: 'node.SuffixNode', action: 'replaced', changed: ['Pattern', 'Suffix'] });
    expect(JSON.stringify(p)).not.toContain('secret-v2');
  });

  it('plans a link whose capacity changes as resized, with what it holds', () => {
    const p = plan(
      topology(),
      topology((j) => ((j.store as Json).Capacity = '32')),
    );
    expect(p.links.find((l) => l.name === 'out')).toEqual({ name: 'out', action: 'resized', capacity: { from: 256, to: 32 }, held: 3 });
    expect(p.components.find((c) => c.name === 'store')?.changed).toEqual(['Capacity']);
  });

  it('lists added components and links after the kept ones, removed ones last', () => {
    const p = plan(
      topology(),
      topology((j) => {
        j.Persister = ['store2'];
        delete j.store;
        (j.stamp as Json).OutLink = ['out2'];
        j.store2 = { ClassName: 'persister.CollectingPersister', LinkName: 'out2' };
      }),
    );
    expect(p.components.map((c) => `${c.action} ${c.name}`)).toEqual(['added store2', 'replaced stamp', 'kept rcvr', 'removed store']);
    expect(p.links.map((l) => `${l.action} ${l.name}`)).toEqual(['kept in', 'added out2', 'removed out']);
  });
});
