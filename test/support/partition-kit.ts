/**
 * A silent partition between a receiver and its broker, measured from outside as an operator sees it: a flow
 * (the receiver under test -> a counting sink) with its admin endpoint, a TcpProxy between the receiver and
 * the broker, and messages published straight to the broker all along. The path is cut without FIN or RST
 * for `cutMs`; the kit measures how long /readyz stays 200 after the cut, the outage the reconnect log line
 * reports, and counts what arrived (docs/operations.md#liveness-of-broker-connections).
 */
import { buildTopology } from '../../src/config/topology';
import { Flow } from '../../src/runtime/flow';
import { AnyComponentDefinition, ComponentRegistry, StatusReporter } from '../../src/runtime/component';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../src/admin/admin-server';
import { LogEntry, memoryLogger } from '../../src/logging/logger';
import { defaultRegistry } from '../../actors';
import { waitFor } from './component-harness';
import { TcpProxy } from './tcp-proxy';
import { sleep } from './wait';

export interface PartitionScenario {
  /** The receiver's configuration (its URI through the proxy); it writes to the link "in". */
  readonly receiver: Record<string, unknown>;
  readonly proxy: TcpProxy;
  /** Publishes message number `i` straight to the broker, not through the proxy. */
  readonly publish: (i: number) => Promise<void>;
  /** The body of message number `i` (default String(i)): the same queue may serve several runs. */
  readonly bodyOf?: (i: number) => string;
  readonly cutMs: number;
  /** Pause between two publishes (default 20 ms: about 50 messages a second). */
  readonly publishEveryMs?: number;
}

export interface PartitionReport {
  /** From the cut to the first /readyz 503. */
  readonly detectionMs: number;
  /** Why /readyz said 503 (the receiver's status detail). */
  readonly notReadyBody: string;
  /** The cut's real length, and the outage the receiver logged when it was back. */
  readonly cutMs: number;
  readonly outageMs: number | undefined;
  readonly sent: number;
  readonly distinct: number;
  readonly duplicates: number;
  readonly lost: number;
  readonly logs: readonly LogEntry[];
}

/** A persister that counts each message body it is given and removes it as done. */
function countingSink(seen: Map<string, number>): AnyComponentDefinition {
  return {
    className: 'persister.CountingSink',
    role: 'persister',
    operations: ['store'],
    description: 'test persister that counts message bodies',
    schema: { properties: {} },
    create: (env) => ({
      start(ctx) {
        env.status.set('RUNNING');
        ctx.consume(env.input!, (taken, q) => {
          const body = taken.item.bodyText() ?? '';
          seen.set(body, (seen.get(body) ?? 0) + 1);
          q.remove(taken);
        });
      },
    }),
  };
}

export async function runPartition(s: PartitionScenario): Promise<PartitionReport> {
  const seen = new Map<string, number>();
  const logs: LogEntry[] = [];
  const registry = new ComponentRegistry([...defaultRegistry().all(), countingSink(seen)]);
  const topology = buildTopology(
    {
      Name: 'partition',
      Receiver: ['rcvr'],
      Persister: ['sink'],
      rcvr: { ...s.receiver, Name: 'rcvr', LinkName: 'in' },
      sink: { ClassName: 'persister.CountingSink', LinkName: 'in' },
    },
    '/t/partition.json',
    registry,
  );
  const flow = Flow.start(topology, { registry, logger: memoryLogger(logs) });
  let admin: AdminServer | undefined;
  let sent = 0;
  let feeding = true;
  let feeder: Promise<void> = Promise.resolve();
  try {
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'));
    const url = admin.url;
    const readyz = async () => {
      const res = await fetch(`${url}/readyz`);
      return { code: res.status, body: await res.text() };
    };
    const waitReady = async (code: number, what: string, timeoutMs: number): Promise<{ at: number; body: string }> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await readyz();
        if (r.code === code) return { at: Date.now(), body: r.body };
        if (Date.now() > deadline) throw new Error(`/readyz not ${code} within ${timeoutMs} ms ${what}: ${r.body}`);
        await sleep(50);
      }
    };
    await waitReady(200, 'after the start', 20_000);
    feeder = (async () => {
      while (feeding) {
        await s.publish(sent);
        sent++;
        await sleep(s.publishEveryMs ?? 20);
      }
    })();
    await waitFor(() => seen.size >= 100, 'the first 100 messages through the proxy', 20_000);

    const cutAt = s.proxy.cut();
    const notReady = await waitReady(503, 'after the cut', s.cutMs);
    await sleep(Math.max(0, cutAt + s.cutMs - Date.now()));
    const cutMs = s.proxy.resume();
    await waitReady(200, 'after the cut ended', 30_000);
    await sleep(2_000); // messages flow again before the feeding stops
    feeding = false;
    await feeder;
    const bodies = Array.from({ length: sent }, (_, i) => (s.bodyOf ?? String)(i));
    const missing = () => bodies.filter((body) => !seen.has(body)).length;
    await waitFor(
      () => missing() === 0,
      () => `all ${sent} messages (${missing()} missing)`,
      30_000,
    ).catch(() => undefined);
    const lost = missing();
    const deliveries = bodies.reduce((n, body) => n + (seen.get(body) ?? 0), 0);
    const back = logs.find((e) => e.message === 'reconnected' && e.meta.component === 'rcvr');
    return {
      detectionMs: notReady.at - cutAt,
      notReadyBody: notReady.body,
      cutMs,
      outageMs: back?.meta.outageMs as number | undefined,
      sent,
      distinct: sent - lost,
      duplicates: deliveries - (sent - lost),
      lost,
      logs,
    };
  } finally {
    feeding = false;
    await feeder.catch(() => undefined);
    s.proxy.resume();
    await admin?.close();
    await flow.stop({ drainMs: 1000 });
  }
}

/** One line for the test output: what an operator would read off the run. */
export function describeRun(what: string, r: PartitionReport): string {
  return `${what}: /readyz 503 ${r.detectionMs} ms after the cut; cut ${r.cutMs} ms, outage logged ${r.outageMs} ms; ${r.sent} sent, ${r.distinct} distinct received, ${r.lost} lost, ${r.duplicates} duplicates`;
}

/**
 * Watches a running component for `forMs` on a quiet source: the statuses it went through after it was first
 * RUNNING, and its reconnects. A connection whose broker only heartbeats must stay RUNNING.
 */
export async function quietWatch(status: StatusReporter, forMs: number): Promise<{ statuses: string[]; reconnects: number }> {
  await waitFor(() => status.status === 'RUNNING', 'the component RUNNING', 20_000);
  const statuses: string[] = [status.status];
  const off = status.onChange((s) => statuses.push(s.status));
  await sleep(forMs);
  off();
  return { statuses, reconnects: status.totals.reconnects };
}
