/**
 * Prometheus metrics of a running flow, through prom-client (its default process and Node metrics
 * included). Every xroute figure is read from the components' totals and the links' stats when the
 * endpoint is scraped, so the message path pays nothing but the plain increments it already makes.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { Flow } from '../runtime/flow';
import { registerFlowMetrics } from './flow-metrics';
import { traceCounts } from '../tracing/trace-stats';

export function flowMetrics(flow: Flow): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const status = () => flow.status();

  new Gauge({
    name: 'xroute_link_depth',
    help: 'Messages in a link: waiting to be taken plus taken and not yet finished',
    labelNames: ['link'],
    registers: [registry],
    collect() {
      this.reset();
      for (const l of status().links) this.set({ link: l.name }, l.size);
    },
  });
  new Gauge({
    name: 'xroute_link_capacity',
    help: 'Cells of a link (its Capacity)',
    labelNames: ['link'],
    registers: [registry],
    collect() {
      this.reset();
      for (const l of status().links) this.set({ link: l.name }, l.capacity);
    },
  });
  new Counter({
    name: 'xroute_component_messages_total',
    help: 'Messages a component finished, by outcome (done | failed)',
    labelNames: ['component', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of flow.componentViews()) {
        this.inc({ component: c.name, outcome: 'done' }, c.status.totals.done);
        this.inc({ component: c.name, outcome: 'failed' }, c.status.totals.failed);
      }
    },
  });
  new Counter({
    name: 'xroute_component_restarts_total',
    help: 'Restarts of a component, by its own policy and by the flow supervisor',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of status().components) this.inc({ component: c.name }, c.restarts);
    },
  });
  new Counter({
    name: 'xroute_component_reconnects_total',
    help: 'Reconnections of a component to its broker after a lost connection',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of flow.componentViews()) this.inc({ component: c.name }, c.status.totals.reconnects);
    },
  });
  new Gauge({
    name: 'xroute_component_up',
    help: '1 when the component is running, 0 otherwise',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of status().components) this.set({ component: c.name }, c.ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'xroute_receiver_unsettled_deliveries',
    help: 'Deliveries an AMQP 1.0 receiver holds unsettled at its broker until downstream is done (XAMode 1)',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of status().components) if (c.unsettled) this.set({ component: c.name }, c.unsettled.deliveries);
    },
  });
  new Gauge({
    name: 'xroute_receiver_oldest_unsettled_age_seconds',
    help: 'Age of the oldest delivery an AMQP 1.0 receiver holds unsettled (0 when none)',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of status().components) if (c.unsettled) this.set({ component: c.name }, c.unsettled.oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'xroute_parked_messages',
    help: 'Messages a receiver parked (gave up on after MaxAttempts) that are still in its parking queue',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of flow.componentViews()) {
        const parked = c.status.parked();
        if (parked !== undefined) this.set({ component: c.name }, parked);
      }
    },
  });
  new Gauge({
    name: 'xroute_pool_children',
    help: 'Children of a pool, by class',
    labelNames: ['pool', 'class'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of status().components) {
        if (!c.children) continue;
        const byClass = new Map<string, number>();
        for (const child of c.children) byClass.set(child.className, (byClass.get(child.className) ?? 0) + 1);
        for (const [cls, n] of byClass) this.set({ pool: c.name, class: cls }, n);
      }
    },
  });
  new Counter({
    name: 'xroute_evaluator_results_total',
    help: 'Messages a MessageEvaluator evaluated, by ruleset and return code',
    labelNames: ['component', 'ruleset', 'rc'],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of flow.componentViews()) {
        for (const [ruleset, byRc] of c.status.totals.results) {
          for (const [rc, n] of byRc) this.inc({ component: c.name, ruleset, rc }, n);
        }
      }
    },
  });
  registerFlowMetrics(registry, flow);
  registerTraceMetrics(registry);
  return registry;
}

/** Tracing's losses and exports (docs/operations.md#tracing); all 0 while tracing is off. */
function registerTraceMetrics(registry: Registry): void {
  new Counter({
    name: 'xroute_trace_spans_dropped_total',
    help: 'Spans lost because the export queue was full or their export failed (collector slow or unreachable)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(traceCounts.dropped);
    },
  });
  new Counter({
    name: 'xroute_trace_spans_exported_total',
    help: 'Spans the OTLP collector accepted',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(traceCounts.exported);
    },
  });
  new Counter({
    name: 'xroute_trace_malformed_contexts_total',
    help: 'Incoming traceparent values that were not valid W3C trace context (ignored: the message started a new trace)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(traceCounts.malformed);
    },
  });
}
