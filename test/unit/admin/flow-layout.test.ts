import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import { runInNewContext } from 'vm';
import { isTopologyJson, loadTopology, Topology } from '../../../src/config/topology';
import { edgeCrossings, FlowLayout, layoutFlow, LayoutGraph } from '../../../src/admin/flow-layout';
import { defaultRegistry } from '../../../actors';

const ROOT = path.resolve(__dirname, '../../..');

/** Every topology the repository ships: config/, config/examples/ and examples/NAME/. */
function shippedTopologies(): { file: string; topology: Topology }[] {
  const dirs = [
    'config',
    'config/examples',
    ...readdirSync(path.join(ROOT, 'examples'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `examples/${d.name}`),
  ];
  const out: { file: string; topology: Topology }[] = [];
  for (const dir of dirs) {
    for (const name of readdirSync(path.join(ROOT, dir)).filter((n) => n.endsWith('.json'))) {
      const file = path.join(ROOT, dir, name);
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (isTopologyJson(json)) out.push({ file: path.relative(ROOT, file), topology: loadTopology(file, defaultRegistry()) });
    }
  }
  return out;
}

function graphOf(t: Topology): LayoutGraph {
  return {
    components: t.components.map((c) => ({ name: c.name, className: c.definition.className, role: c.role })),
    links: [...t.links.values()].map((l) => ({ name: l.name, producers: l.writers, consumerNames: l.readers })),
  };
}

const box = (layout: FlowLayout, id: string) => layout.boxes.find((b) => b.id === id)!;

describe('flow layout', () => {
  const shipped = shippedTopologies();

  it('finds the shipped topologies to lay out', () => {
    expect(shipped.map((s) => s.file)).toEqual(
      expect.arrayContaining(['config/demo.json', 'config/examples/evaluate-route.json', 'examples/jobnode-workers/flow.json']),
    );
  });

  it.each(shippedTopologies().map((s) => [s.file, s.topology] as const))('draws %s without crossing edges', (_file, topology) => {
    const layout = layoutFlow(graphOf(topology));
    expect(edgeCrossings(layout).map(([a, b]) => `${a.from}->${a.to} x ${b.from}->${b.to}`)).toEqual([]);
    expect(layout.boxes.length).toBe(topology.components.length + topology.links.size);
  });

  it('orders a layer so that edges a naive order would cross do not cross', () => {
    // receivers a, b in this order write links that nodes read in the opposite order
    const graph: LayoutGraph = {
      components: [
        { name: 'a', className: 'R', role: 'receiver' },
        { name: 'b', className: 'R', role: 'receiver' },
        { name: 'nb', className: 'N', role: 'node' },
        { name: 'na', className: 'N', role: 'node' },
        { name: 'pb', className: 'P', role: 'persister' },
        { name: 'pa', className: 'P', role: 'persister' },
      ],
      links: [
        { name: 'lb', producers: ['b'], consumerNames: ['nb'] },
        { name: 'la', producers: ['a'], consumerNames: ['na'] },
        { name: 'ob', producers: ['nb'], consumerNames: ['pb'] },
        { name: 'oa', producers: ['na'], consumerNames: ['pa'] },
      ],
    };
    expect(edgeCrossings(layoutFlow(graph))).toEqual([]);
  });

  it('routes an edge that spans layers through the layers between without crossing', () => {
    // r feeds a persister directly and a node chain; the persister is pulled to the last layer
    const graph: LayoutGraph = {
      components: [
        { name: 'r', className: 'R', role: 'receiver' },
        { name: 'n', className: 'N', role: 'node' },
        { name: 'p1', className: 'P', role: 'persister' },
        { name: 'p2', className: 'P', role: 'persister' },
      ],
      links: [
        { name: 'in', producers: ['r'], consumerNames: ['n'] },
        { name: 'direct', producers: ['n'], consumerNames: ['p1'] },
        { name: 'other', producers: ['n'], consumerNames: ['p2'] },
      ],
    };
    const layout = layoutFlow(graph);
    expect(edgeCrossings(layout)).toEqual([]);
    expect([box(layout, 'c:p1').layer, box(layout, 'c:p2').layer]).toEqual([4, 4]);
  });

  it('puts receivers first, nodes in between and persisters that end the flow last', () => {
    const t = shipped.find((s) => s.file === 'config/examples/evaluate-route.json')!.topology;
    const layout = layoutFlow(graphOf(t));
    const layerOf = (role: string) =>
      new Set(t.components.filter((c) => c.role === role && !/MessageEvaluator/.test(c.definition.className)).map((c) => box(layout, `c:${c.name}`).layer));
    const last = Math.max(...layout.boxes.map((b) => b.layer));
    expect({ receivers: [...layerOf('receiver')], persisters: [...layerOf('persister')] }).toEqual({ receivers: [0], persisters: [last] });
  });

  it('marks the path to a MessageEvaluator as its bounce back to the node, not as an edge of its own', () => {
    const t = shipped.find((s) => s.file === 'config/examples/evaluate-route.json')!.topology;
    const evaluator = t.components.find((c) => /MessageEvaluator/.test(c.definition.className))!;
    const layout = layoutFlow(graphOf(t));
    const bounces = layout.edges.filter((e) => e.bounce);
    expect(bounces.length).toBe(2);
    expect(bounces.map((e) => e.to)).toContain(`c:${evaluator.name}`);
    expect(layout.edges.filter((e) => e.from === `c:${evaluator.name}`)).toEqual([]);
  });

  it('places no two boxes of a layer on top of each other', () => {
    for (const { topology } of shipped) {
      const layout = layoutFlow(graphOf(topology));
      for (const a of layout.boxes) {
        for (const b of layout.boxes) {
          if (a !== b && a.layer === b.layer) expect([a.id, b.id, a.y + a.height <= b.y || b.y + b.height <= a.y]).toEqual([a.id, b.id, true]);
        }
      }
    }
  });

  it('runs as the source text the status page embeds (no reference outside the function)', () => {
    const t = shipped.find((s) => s.file === 'config/examples/evaluate-route.json')!.topology;
    // a fresh context: the source alone, no module scope
    const rebuilt = runInNewContext(`(${layoutFlow.toString()})`) as typeof layoutFlow;
    expect(JSON.parse(JSON.stringify(rebuilt(graphOf(t))))).toEqual(layoutFlow(graphOf(t)));
  });
});
