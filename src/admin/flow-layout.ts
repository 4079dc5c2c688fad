/**
 * Where the status page draws each component and link: a layered graph (receivers on the left, persisters on the
 * right) whose edges do not cross. The classic layered method: layers from the links (longest path from the
 * receivers; persisters that end the flow pulled to the last layer), a dummy point per layer for an edge that spans
 * several, then barycentre sweeps to order each layer so that as few edges cross as possible (none on a tree or on
 * the shipped examples), then vertical positions that keep that order. A MessageEvaluator bounces each message back
 * to the node that sent it: that path is marked `bounce` (drawn with arrows both ways), not drawn as an edge of its
 * own.
 *
 * `layoutFlow` is one self-contained function with no reference outside its body: the status page runs its source
 * text (Function.prototype.toString) in the browser, and the unit tests run it here.
 */

interface LayoutComponent {
  readonly name: string;
  readonly className: string;
  readonly role: string;
  /** Box height; default the options' boxHeight (a pool is taller: it lists its children). */
  readonly height?: number;
}

interface LayoutLink {
  readonly name: string;
  readonly producers: readonly string[];
  readonly consumerNames: readonly string[];
}

/** The parts of a flow status (or a topology) the layout needs. */
export interface LayoutGraph {
  readonly components: readonly LayoutComponent[];
  readonly links: readonly LayoutLink[];
}

export interface LayoutOptions {
  readonly boxWidth?: number;
  readonly boxHeight?: number;
  readonly gapX?: number;
  readonly gapY?: number;
  readonly margin?: number;
}

interface LayoutPoint {
  readonly x: number;
  readonly y: number;
}

interface LayoutBox {
  /** "c:NAME" for a component, "l:NAME" for a link. */
  readonly id: string;
  readonly kind: 'component' | 'link';
  readonly name: string;
  readonly layer: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LayoutEdge {
  /** Box ids: a producer to its link, or a link to its consumer. */
  readonly from: string;
  readonly to: string;
  readonly link: string;
  /** "in": a producer writes the link; "out": a consumer reads it. */
  readonly direction: 'in' | 'out';
  /** On the way to a MessageEvaluator, which bounces every message back along it. */
  readonly bounce: boolean;
  /** From the right side of `from` to the left side of `to`, through one point per layer crossed. */
  readonly points: readonly LayoutPoint[];
}

export interface FlowLayout {
  readonly boxes: readonly LayoutBox[];
  readonly edges: readonly LayoutEdge[];
  readonly width: number;
  readonly height: number;
}

export function layoutFlow(graph: LayoutGraph, options: LayoutOptions = {}): FlowLayout {
  const W = options.boxWidth ?? 190;
  const H = options.boxHeight ?? 64;
  const GAPX = options.gapX ?? 70;
  const GAPY = options.gapY ?? 24;
  const MARGIN = options.margin ?? 10;
  const SWEEPS = 12;

  interface V {
    id: string;
    kind: 'component' | 'link' | 'dummy';
    name: string;
    height: number;
    layer: number;
    order: number;
    y: number;
    preds: V[];
    succs: V[];
  }
  const vertices = new Map<string, V>();
  const vertex = (id: string, kind: V['kind'], name: string, height: number): V => {
    const v: V = { id, kind, name, height, layer: 0, order: 0, y: 0, preds: [], succs: [] };
    vertices.set(id, v);
    return v;
  };
  const bouncers = new Set<string>();
  for (const c of graph.components) {
    vertex('c:' + c.name, 'component', c.name, c.height ?? H);
    if (/MessageEvaluator$/.test(c.className)) bouncers.add(c.name);
  }
  const roleOf = new Map(graph.components.map((c) => [c.name, c.role]));
  interface E {
    from: V;
    to: V;
    link: string;
    direction: 'in' | 'out';
    bounce: boolean;
  }
  const edges: E[] = [];
  const connect = (from: V | undefined, to: V | undefined, link: string, direction: 'in' | 'out', bounce: boolean) => {
    if (from === undefined || to === undefined) return;
    edges.push({ from, to, link, direction, bounce });
    from.succs.push(to);
    to.preds.push(from);
  };
  for (const l of graph.links) {
    const lv = vertex('l:' + l.name, 'link', l.name, H);
    const bounce = l.consumerNames.some((c) => bouncers.has(c));
    for (const p of l.producers) connect(vertices.get('c:' + p), lv, l.name, 'in', bounce);
    for (const c of l.consumerNames) connect(lv, vertices.get('c:' + c), l.name, 'out', bounce);
  }

  // Layers: the longest path from a vertex without predecessors (topologies have no cycles: the loader refuses them;
  // the round bound keeps a surprise from looping).
  const all = [...vertices.values()];
  for (let round = 0, changed = true; changed && round <= all.length; round++) {
    changed = false;
    for (const e of edges) {
      if (e.to.layer < e.from.layer + 1) {
        e.to.layer = e.from.layer + 1;
        changed = true;
      }
    }
  }
  // Persisters that end the flow line up in the last layer, their links just before them.
  const last = all.reduce((m, v) => Math.max(m, v.layer), 0);
  const endsFlow = (v: V) => v.kind === 'component' && roleOf.get(v.name) === 'persister' && !bouncers.has(v.name) && v.succs.length === 0;
  for (const v of all) if (endsFlow(v)) v.layer = last % 2 === 0 ? last : last + 1;
  for (const v of all) {
    if (v.kind === 'link' && v.succs.length > 0 && v.succs.every(endsFlow)) v.layer = Math.min(...v.succs.map((s) => s.layer)) - 1;
  }

  // An edge across several layers passes through one dummy vertex per layer in between.
  interface Chain {
    edge: E;
    path: V[];
  }
  const chains: Chain[] = [];
  for (const e of edges) {
    const path: V[] = [e.from];
    for (let layer = e.from.layer + 1; layer < e.to.layer; layer++) {
      const d = vertex(`d:${e.from.id}>${e.to.id}@${layer}`, 'dummy', '', 0);
      d.layer = layer;
      path.push(d);
    }
    path.push(e.to);
    chains.push({ edge: e, path });
  }
  const segments: [V, V][] = [];
  for (const c of chains) for (let i = 0; i + 1 < c.path.length; i++) segments.push([c.path[i], c.path[i + 1]]);
  const layers: V[][] = [];
  for (const v of vertices.values()) (layers[v.layer] = layers[v.layer] ?? []).push(v);
  for (let i = 0; i < layers.length; i++) layers[i] = layers[i] ?? [];
  const up = new Map<V, V[]>();
  const down = new Map<V, V[]>();
  for (const v of vertices.values()) {
    up.set(v, []);
    down.set(v, []);
  }
  for (const [a, b] of segments) {
    down.get(a)!.push(b);
    up.get(b)!.push(a);
  }
  const renumber = (layer: V[]) => layer.forEach((v, i) => (v.order = i));
  layers.forEach(renumber);

  const crossings = (): number => {
    let n = 0;
    const byLayer: [V, V][][] = layers.map(() => []);
    for (const s of segments) byLayer[s[0].layer].push(s);
    for (const list of byLayer) {
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const [a1, b1] = list[i];
          const [a2, b2] = list[j];
          if ((a1.order - a2.order) * (b1.order - b2.order) < 0) n++;
        }
      }
    }
    return n;
  };
  const sortBy = (layer: V[], neighbours: Map<V, V[]>) => {
    const key = new Map<V, number>();
    for (const v of layer) {
      const ns = neighbours.get(v)!;
      key.set(v, ns.length === 0 ? v.order : ns.reduce((s, n) => s + n.order, 0) / ns.length);
    }
    // stable: ties keep their current order
    layer.sort((a, b) => key.get(a)! - key.get(b)! || a.order - b.order);
    renumber(layer);
  };
  let best = layers.map((l) => [...l]);
  let bestCrossings = crossings();
  for (let sweep = 0; sweep < SWEEPS && bestCrossings > 0; sweep++) {
    if (sweep % 2 === 0) for (let i = 1; i < layers.length; i++) sortBy(layers[i], up);
    else for (let i = layers.length - 2; i >= 0; i--) sortBy(layers[i], down);
    const n = crossings();
    if (n < bestCrossings) {
      bestCrossings = n;
      best = layers.map((l) => [...l]);
    }
  }
  best.forEach((layer, i) => {
    layers[i] = layer;
    renumber(layer);
  });

  // Vertical positions: each vertex near the middle of its neighbours, in its layer's order, boxes never overlapping.
  const centre = (v: V) => v.y + v.height / 2;
  const stack = (layer: V[], wanted: (v: V) => number) => {
    let next = -Infinity;
    for (const v of layer) {
      v.y = Math.max(wanted(v) - v.height / 2, next);
      next = v.y + v.height + (v.kind === 'dummy' ? GAPY / 2 : GAPY);
    }
  };
  for (const layer of layers) stack(layer, () => 0);
  for (let pass = 0; pass < 4; pass++) {
    const order = pass % 2 === 0 ? layers.map((_, i) => i) : layers.map((_, i) => layers.length - 1 - i);
    for (const i of order) {
      const neighbours = pass % 2 === 0 ? up : down;
      stack(layers[i], (v) => {
        const ns = neighbours.get(v)!;
        return ns.length === 0 ? centre(v) : ns.reduce((s, n) => s + centre(n), 0) / ns.length;
      });
    }
  }
  const top = Math.min(...[...vertices.values()].map((v) => v.y));
  for (const v of vertices.values()) v.y = v.y - top + MARGIN;

  const xOf = (layer: number) => MARGIN + layer * (W + GAPX);
  const boxes: LayoutBox[] = [];
  for (const layer of layers) {
    for (const v of layer) {
      if (v.kind !== 'dummy') boxes.push({ id: v.id, kind: v.kind, name: v.name, layer: v.layer, x: xOf(v.layer), y: v.y, width: W, height: v.height });
    }
  }
  const outEdges: LayoutEdge[] = chains.map(({ edge, path }) => {
    const points: LayoutPoint[] = [{ x: xOf(edge.from.layer) + W, y: centre(edge.from) }];
    for (const d of path.slice(1, -1)) points.push({ x: xOf(d.layer), y: d.y }, { x: xOf(d.layer) + W, y: d.y });
    points.push({ x: xOf(edge.to.layer), y: centre(edge.to) });
    return { from: edge.from.id, to: edge.to.id, link: edge.link, direction: edge.direction, bounce: edge.bounce, points };
  });
  const width = layers.length === 0 ? 2 * MARGIN : xOf(layers.length - 1) + W + MARGIN;
  const height = Math.max(2 * MARGIN, ...[...vertices.values()].map((v) => v.y + v.height + MARGIN));
  return { boxes, edges: outEdges, width, height };
}

/** Pairs of edges that cross (segments that intersect away from a shared end point): what the layout avoids. */
export function edgeCrossings(layout: FlowLayout): [LayoutEdge, LayoutEdge][] {
  const segmentsOf = (e: LayoutEdge) => e.points.slice(1).map((p, i) => [e.points[i], p] as const);
  const cross = (o: number) => Math.sign(Math.round(o * 1e6));
  const orient = (a: LayoutPoint, b: LayoutPoint, c: LayoutPoint) => cross((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
  const same = (a: LayoutPoint, b: LayoutPoint) => Math.abs(a.x - b.x) < 1e-6 && Math.abs(a.y - b.y) < 1e-6;
  const intersects = (p1: LayoutPoint, p2: LayoutPoint, q1: LayoutPoint, q2: LayoutPoint) => {
    if (same(p1, q1) || same(p1, q2) || same(p2, q1) || same(p2, q2)) return false;
    return (
      orient(p1, p2, q1) * orient(p1, p2, q2) <= 0 && orient(q1, q2, p1) * orient(q1, q2, p2) <= 0 && !(orient(p1, p2, q1) === 0 && orient(p1, p2, q2) === 0)
    );
  };
  const out: [LayoutEdge, LayoutEdge][] = [];
  for (let i = 0; i < layout.edges.length; i++) {
    for (let j = i + 1; j < layout.edges.length; j++) {
      const a = layout.edges[i];
      const b = layout.edges[j];
      if (segmentsOf(a).some(([p1, p2]) => segmentsOf(b).some(([q1, q2]) => intersects(p1, p2, q1, q2)))) out.push([a, b]);
    }
  }
  return out;
}
