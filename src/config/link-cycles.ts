/**
 * Cycles in a topology's link graph: a node whose outlink leads, through other nodes, back to its own input.
 * No component makes such a loop safe today: every link is bounded, so a full loop waits on itself, and a
 * message that is forwarded round it never leaves. The loader refuses every cycle this finds.
 */

/** One step of a cycle: `component` writes `link`, which the next step's component reads. */
export interface CycleStep {
  readonly component: string;
  readonly link: string;
}

interface LinkLike {
  readonly name: string;
  readonly writers: readonly string[];
  readonly readers: readonly string[];
}

/**
 * One cycle per group of links that reach each other (a cycle inside another is not repeated), each starting at
 * the component that comes first in the topology's link order. Iterative, so that no topology can exhaust the stack.
 */
export function findCycles(links: ReadonlyMap<string, LinkLike>): CycleStep[][] {
  // component -> the links it writes; link -> the components that read it
  const writes = new Map<string, string[]>();
  for (const l of links.values()) for (const w of l.writers) writes.set(w, [...(writes.get(w) ?? []), l.name]);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: CycleStep[][] = [];
  const covered = new Set<string>();

  for (const start of links.keys()) {
    if (state.has(start)) continue;
    // path: the links on the current DFS path and, for each, the component that led out of it
    const path: { link: string; via?: string; next: Iterator<{ component: string; link: string }> }[] = [];
    const open = (link: string) => {
      state.set(link, 'open');
      path.push({ link, next: stepsFrom(link)[Symbol.iterator]() });
    };
    const stepsFrom = (link: string) =>
      (links.get(link)?.readers ?? []).flatMap((component) => (writes.get(component) ?? []).map((to) => ({ component, link: to })));
    open(start);
    while (path.length > 0) {
      const top = path[path.length - 1];
      const step = top.next.next();
      if (step.done) {
        state.set(top.link, 'done');
        path.pop();
        continue;
      }
      top.via = step.value.component;
      const to = step.value.link;
      if (state.get(to) === 'open') {
        const from = path.findIndex((p) => p.link === to);
        const loop = path.slice(from).map((p) => ({ component: p.via!, link: '' }));
        const linksOnLoop = path.slice(from).map((p) => p.link);
        const steps = loop.map((s, i) => ({ component: s.component, link: linksOnLoop[(i + 1) % linksOnLoop.length] }));
        if (!linksOnLoop.every((l) => covered.has(l))) {
          linksOnLoop.forEach((l) => covered.add(l));
          cycles.push(steps);
        }
      } else if (!state.has(to)) open(to);
    }
  }
  return cycles;
}
