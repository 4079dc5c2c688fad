/**
 * The flow metrics of docs/operations.md "Flow": what is moving and what is stuck, per component and link.
 * Rates are left to Prometheus (rate() over the *_total counters); everything is read when scraped.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { Flow, FlowStatus } from '../runtime/flow';

export function registerFlowMetrics(registry: Registry, flow: Flow): void {
  // One status per scrape, not one per metric: the gauges below all read the same snapshot.
  let cached: { at: number; status: FlowStatus } | undefined;
  const status = (): FlowStatus => {
    const now = Date.now();
    if (cached === undefined || now - cached.at > 100) cached = { at: now, status: flow.status() };
    return cached.status;
  };
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, s: FlowStatus) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        fill(this, status());
      },
    });

  new Counter({
    name: 'xroute_component_messages_in_total',
    help: 'Messages a component took from its input link (a receiver: added to its output link); rate() gives its input rate',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of flow.componentViews()) this.inc({ component: c.name }, c.status.totals.in);
    },
  });
  new Counter({
    name: 'xroute_link_messages_total',
    help: 'Messages through a link: added (in) and removed done or failed (out)',
    labelNames: ['link', 'direction'],
    registers: [registry],
    collect() {
      this.reset();
      for (const l of status().links) {
        this.inc({ link: l.name, direction: 'in' }, l.totalAdded);
        this.inc({ link: l.name, direction: 'out' }, l.totalRemoved + l.totalFailed);
      }
    },
  });
  gauge('xroute_component_inflight', 'Messages a component took (a receiver: added) and has not finished', ['component'], (g, s) => {
    for (const c of s.components) g.set({ component: c.name }, c.inFlight);
  });
  gauge(
    'xroute_component_last_message_timestamp_seconds',
    'When the component last took, added or finished a message (within a second)',
    ['component'],
    (g, s) => {
      for (const c of s.components) if (c.lastMessageAt !== undefined) g.set({ component: c.name }, c.lastMessageAt / 1000);
    },
  );
  gauge('xroute_component_next_retry_timestamp_seconds', 'When a component that is not running tries again (reconnect, restart)', ['component'], (g, s) => {
    for (const c of s.components) if (c.nextRetryAt !== undefined) g.set({ component: c.name }, c.nextRetryAt / 1000);
  });
  gauge('xroute_component_health', '0 ok, 1 amber (feeds a stuck link), 2 red (not running)', ['component'], (g, s) => {
    for (const c of s.components) g.set({ component: c.name }, HEALTH_VALUE[c.health]);
  });
  gauge('xroute_link_oldest_age_seconds', 'Age of the oldest message in a link (waiting or in flight); 0 when empty', ['link'], (g, s) => {
    for (const l of s.links) g.set({ link: l.name }, l.oldestAgeMs / 1000);
  });
  gauge('xroute_link_inflight', 'Messages of a link taken by a consumer and not yet finished', ['link'], (g, s) => {
    for (const l of s.links) g.set({ link: l.name }, l.inFlight);
  });
  gauge('xroute_link_stuck', '1 while a link is stuck (reason full | consumer-not-running), else 0', ['link', 'reason'], (g, s) => {
    for (const l of s.links) {
      g.set({ link: l.name, reason: 'full' }, l.stuck === 'full' ? 1 : 0);
      g.set({ link: l.name, reason: 'consumer-not-running' }, l.stuck === 'consumer-not-running' ? 1 : 0);
    }
  });
}

const HEALTH_VALUE = { ok: 0, amber: 1, red: 2 } as const;
