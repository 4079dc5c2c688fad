/**
 * Which links are stuck, and what that does upstream (docs/operations.md "Flow"). A link is stuck when it is full
 * (no free cell) or holds messages while no consumer of it is running. A stuck link is red; every component that
 * writes into it, the links those components read and so on upstream are amber: they hold messages that cannot
 * finish until the stuck link moves. A component that is not running is red itself.
 */

export type Health = 'ok' | 'amber' | 'red';
export type StuckReason = 'full' | 'consumer-not-running';

export interface LinkFacts {
  readonly name: string;
  readonly free: number;
  readonly size: number;
  /** The components that write into the link, and those that read it. */
  readonly producers: readonly string[];
  readonly consumers: readonly string[];
}

export interface FlowHealth {
  readonly links: ReadonlyMap<string, { health: Health; stuck?: StuckReason; blockedBy?: string }>;
  readonly components: ReadonlyMap<string, { health: Health; blockedBy?: string }>;
}

export function stuckReason(link: LinkFacts, running: (component: string) => boolean): StuckReason | undefined {
  // The cause first: a full link behind a consumer that is down is stuck because of that consumer.
  if (link.size > 0 && !link.consumers.some(running)) return 'consumer-not-running';
  if (link.free === 0) return 'full';
  return undefined;
}

export function flowHealth(links: readonly LinkFacts[], components: readonly string[], running: (component: string) => boolean): FlowHealth {
  const linkHealth = new Map<string, { health: Health; stuck?: StuckReason; blockedBy?: string }>();
  const compHealth = new Map<string, { health: Health; blockedBy?: string }>();
  for (const c of components) compHealth.set(c, { health: running(c) ? 'ok' : 'red' });
  for (const l of links) linkHealth.set(l.name, { health: 'ok' });
  const readsOf = new Map<string, LinkFacts[]>();
  for (const l of links) for (const c of l.consumers) readsOf.set(c, [...(readsOf.get(c) ?? []), l]);
  const amber = (stuckLink: string, from: LinkFacts, seen: Set<string>) => {
    for (const producer of from.producers) {
      if (seen.has(producer)) continue;
      seen.add(producer);
      const ch = compHealth.get(producer);
      if (ch !== undefined && ch.health === 'ok') compHealth.set(producer, { health: 'amber', blockedBy: stuckLink });
      for (const upstream of readsOf.get(producer) ?? []) {
        const lh = linkHealth.get(upstream.name);
        if (lh !== undefined && lh.health === 'ok') linkHealth.set(upstream.name, { health: 'amber', blockedBy: stuckLink });
        amber(stuckLink, upstream, seen);
      }
    }
  };
  for (const l of links) {
    const stuck = stuckReason(l, running);
    if (stuck === undefined) continue;
    linkHealth.set(l.name, { health: 'red', stuck });
    amber(l.name, l, new Set());
  }
  return { links: linkHealth, components: compHealth };
}
