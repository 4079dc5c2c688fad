/**
 * What tracing costs (issue 29; docs/operations.md#tracing): the per-message work of the flow
 * AmqpReceiver -> CollectNode -> MessageEvaluator -> CollectNode -> AmqpPersister run in process - the AMQP 0-9-1
 * mapping of a delivery, the evaluator's ruleset, the mapping for the publish - once with the tracing calls the
 * components make at each hop (subject) and once without them (baseline: the same work, no tracing code),
 * interleaved in rounds in this one process and timed in CPU time (each round subject, baseline, baseline, subject;
 * the ratio is the median of the rounds'). Three comparisons: tracing off (the calls return at their first line), on
 * at 1 % and on at 100 % sampling (parentbased_traceidratio, spans exported over OTLP/HTTP to a sink in this
 * process), after an A/A control (the same hops on both sides: the method's noise floor). No broker: its I/O would
 * only dilute the cost, so these ratios are the pessimistic bound of a real flow's.
 *
 * Then the real flow on RabbitMQ (AmqpReceiver -> link -> AmqpPersister, each delivery acked at its publish's
 * confirm; 1 KB messages with the same properties as the in-process ones), tracing on at 1 % and 100 % against tracing off, after an A/A control (off against off), in runs that
 * alternate which side goes first: throughput in wall clock and this process's CPU time per message, each the
 * median of the per-round ratios. Tracing off is one check per hop, which the in-process off row measures against
 * no tracing code; the flow's ratio against no tracing code is its on-vs-off ratio times that one.
 * Rows report throughput; ratio = subject throughput / baseline throughput.
 */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import type { ConsumeMessage } from 'amqplib';
import { MessageEvaluatorEngine } from '../../src/evaluator';
import { silentLogger } from '../../src/logging/logger';
import { messageFromAmqp, messageToAmqp } from '../../src/transports/amqp091-mapping';
import { RunningTracing, startTracing } from '../../src/tracing';
// The per-message hooks from their own module, as the components import them (src/tracing/index.ts says why).
import {
  ATTR_RETURN_CODE,
  ATTR_RULESET,
  tracingActive,
  tracesMessage,
  endStep,
  startStep,
  traceDelivery,
  tracePublish,
  tracePublished,
  traceRoute,
  traceSettled,
} from '../../src/tracing/message-trace';
import type { BenchRow } from './bench-types';
import { RunComparison, Step, compareRuns, median } from './interleaved';
import { BROKER, dropQueue, freshQueue } from './amqp-bench';
import { AMQP_RECEIVER } from '../../actors/receivers/amqp-receiver';
import { AMQP_PERSISTER } from '../../actors/persisters/amqp-persister';
import { ComponentConfig } from '../../src/runtime/component';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../support/component-harness';

const ROUNDS = 200;
const FLOW_WINDOW = 1000;
const FLOW = 'RabbitMQ flow AmqpReceiver (XAMode 1) -> AmqpPersister (confirms)';
const RECEIVER = { component: 'rcvr_in', system: 'rabbitmq', destination: 'in' } as const;
const PERSISTER = { component: 'pstr_out', system: 'rabbitmq', destination: 'out', routingKey: 'out' } as const;
const RULESET = { order: { JMSPropertyGroup: [{ kind: '^order$' }], FormatterArgument: [{ FieldName: 'body', Template: ['ORDER:##body##'] }] } };

/**
 * The application properties of every message, in process and on the broker. They matter to the flow's ratio: the
 * traceparent sent on is one more entry in a header table the message has anyway (about 0.3 µs in amqplib), where
 * a message with no properties would get a table for it alone (about 2.3 µs: amqplib's publish makes the headers
 * object the prototype of its own and enumerates the chain).
 */
const FLOW_HEADERS = { kind: 'order', RuleName: 'order' };

function delivery(i: number): ConsumeMessage {
  return {
    content: Buffer.from(`order ${i} for customer ${i % 97}`),
    fields: { deliveryTag: i, redelivered: false, exchange: '', routingKey: 'in', consumerTag: 'bench' },
    properties: { messageId: `m${i}`, headers: { ...FLOW_HEADERS }, deliveryMode: 2, timestamp: 1_700_000_000 + i },
  } as unknown as ConsumeMessage;
}

/** The work of the five hops; with `traced`, the tracing calls the components make, at the same places. */
function hops(engine: MessageEvaluatorEngine, traced: boolean): Step<ConsumeMessage> {
  return (d) => {
    const msg = messageFromAmqp(d, { text: true, queue: 'in' });
    // As the components do: the arguments of a tracing call are built only while tracing is on.
    if (traced && tracingActive()) traceDelivery(msg, d.properties.headers, RECEIVER);
    if (traced && tracesMessage(msg)) traceRoute(msg, 'node_collect', 'route evaluate', { [ATTR_RULESET]: 'evaluate', 'xroute.outlink': 'evaluate' });
    const step = traced && tracesMessage(msg) ? startStep(msg, 'pstr_eval', 'evaluate order') : undefined;
    void engine.evaluate(msg);
    if (step !== undefined)
      endStep(msg, step, { [ATTR_RULESET]: msg.properties.get('RuleName') ?? '', [ATTR_RETURN_CODE]: msg.properties.get('ReturnCode') ?? '' });
    if (traced && tracesMessage(msg)) traceRoute(msg, 'node_collect', 'route evaluate', { [ATTR_RULESET]: 'evaluate', 'xroute.outlink': 'out' });
    const { options } = messageToAmqp(msg);
    if (traced && tracingActive()) tracePublish(msg, PERSISTER, (options.headers ??= {}));
    // The persister's confirm and the receiver's settle call these without a check of their own (AmqpPersister.finish,
    // AmqpReceiver.onDone): they return at their first line while tracing is off.
    if (traced) {
      tracePublished(msg);
      traceSettled(msg, 'done');
    }
  };
}

/** An OTLP/HTTP endpoint that accepts everything (the exporter's work is part of what is measured). */
async function sink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Starts tracing through the environment, as `xroute run` does (the SDK reads the sampler from process.env). */
async function traceAt(url: string, ratio: string): Promise<RunningTracing> {
  Object.assign(process.env, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
  const running = await startTracing(process.env, silentLogger);
  if (running === undefined) throw new Error('tracing did not start');
  return running;
}

/** CPU nanoseconds (user + system) of `step` over `items`: less disturbed by the other processes of a loaded machine than wall time. */
function cpuNs(step: Step<ConsumeMessage>, items: readonly ConsumeMessage[]): number {
  const before = process.cpuUsage();
  for (const item of items) void step(item);
  const used = process.cpuUsage(before);
  return (used.user + used.system) * 1000;
}

/**
 * Interleaved as compareInterleaved, but on CPU time and in A-B-B-A order within each round, so that neither side
 * profits from going first or second (an A/A run of compareInterleaved on this machine gave 0.88, not 1).
 */
function compareCpu(
  subject: Step<ConsumeMessage>,
  baseline: Step<ConsumeMessage>,
  perRound: number,
): { subjectNs: number; baselineNs: number; timeRatio: number } {
  const items = (offset: number) => Array.from({ length: perRound }, (_, i) => delivery(offset + i));
  cpuNs(subject, items(0));
  cpuNs(baseline, items(0));
  let s = 0;
  let b = 0;
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [a1, b1, b2, a2] = [cpuNs(subject, items(round)), cpuNs(baseline, items(round)), cpuNs(baseline, items(round)), cpuNs(subject, items(round))];
    s += a1 + a2;
    b += b1 + b2;
    ratios.push((a1 + a2) / (b1 + b2));
  }
  // The median of the per-round ratios: the process's CPU time includes its GC threads, whose work lands in
  // whichever short run it happens to overlap, and a busy neighbour slows whichever run it overlaps; both skew
  // single rounds, which the median leaves out.
  const n = 2 * ROUNDS * perRound;
  return { subjectNs: s / n, baselineNs: b / n, timeRatio: median(ratios) };
}

/** What one flow run measured: messages per second (wall clock) and CPU nanoseconds of this process per message. */
interface FlowRun {
  rate: number;
  cpuNs: number;
}

/**
 * One run of the real flow on RabbitMQ, with tracing at `ratio` or off: a fresh queue of `n` messages ->
 * AmqpReceiver (XAMode 1, prefetch 1000) -> link -> AmqpPersister (confirms, MaxInFlight 1000) -> another queue; a
 * delivery is acked when its publish is confirmed. Timed from the receiver's start (the persister is connected
 * already) to the last ack, in wall clock and in this process's CPU time (user + system).
 */
async function relayRun(n: number, url: string, ratio: string | undefined): Promise<FlowRun> {
  const [from, to] = await Promise.all([freshQueue(n, FLOW_HEADERS), freshQueue(0)]);
  const running = ratio === undefined ? undefined : await traceAt(url, ratio);
  const link = new XQueue<Message>('root', FLOW_WINDOW);
  const persister = runComponent(AMQP_PERSISTER, {
    config: { Name: PERSISTER.component, URI: BROKER, RoutingKey: to, MaxInFlight: String(FLOW_WINDOW) } as ComponentConfig,
    input: link,
  });
  let receiver: Harness | undefined;
  try {
    await waitFor(() => persister.status.get().status === 'RUNNING', 'persister connected', 30_000);
    const start = performance.now();
    const cpu = process.cpuUsage();
    receiver = runComponent(AMQP_RECEIVER, {
      config: { Name: RECEIVER.component, URI: BROKER, QueueName: from, XAMode: '1' } as ComponentConfig,
      output: link,
    });
    const r = receiver;
    await waitFor(() => (r.status.get().counters.acked ?? 0) >= n, 'all messages relayed and acked', 300_000);
    const used = process.cpuUsage(cpu);
    return { rate: n / ((performance.now() - start) / 1000), cpuNs: ((used.user + used.system) * 1000) / n };
  } finally {
    await receiver?.stop();
    await persister.stop();
    await running?.shutdown();
    await Promise.all([dropQueue(from), dropQueue(to)]);
  }
}

/** The rows of one flow comparison: throughput (wall clock) and CPU per message, each the median over the rounds. */
function flowRows(label: string, c: RunComparison<keyof FlowRun>, target: string): BenchRow[] {
  return [
    {
      name: `${FLOW}: ${label}, throughput`,
      unit: 'msg/s',
      value: Math.round(c.rate.subject),
      baseline: Math.round(c.rate.baseline),
      ratio: Number(c.rate.ratio.toFixed(3)),
      target,
    },
    {
      // Inverted, so that it reads as the throughput row does: the throughput one CPU would give, subject / baseline.
      name: `${FLOW}: ${label}, CPU time per message (ratio: baseline / subject)`,
      unit: 'µs',
      value: Number((c.cpuNs.subject / 1000).toFixed(2)),
      baseline: Number((c.cpuNs.baseline / 1000).toFixed(2)),
      ratio: Number((1 / c.cpuNs.ratio).toFixed(3)),
      target,
    },
  ];
}

export async function benchTracing(opts: { messages: number; flowMessages: number; flowRounds: number }): Promise<BenchRow[]> {
  const engine = new MessageEvaluatorEngine({ Name: 'bench', Ruleset: RULESET }, { baseDir: __dirname, pluginDirs: [] });
  const endpoint = await sink();
  const saved = { ...process.env };
  const perRound = Math.max(1, Math.floor(opts.messages / ROUNDS));
  const compare = () => compareCpu(hops(engine, true), hops(engine, false), perRound);
  const row = (name: string, r: Awaited<ReturnType<typeof compare>>, target: string): BenchRow => ({
    name,
    unit: 'msg/s',
    value: Math.round(1e9 / r.subjectNs),
    baseline: Math.round(1e9 / r.baselineNs),
    ratio: Number((1 / r.timeRatio).toFixed(3)),
    target,
  });
  const rows: BenchRow[] = [];
  try {
    // The noise floor of the method on this machine: the same hops, without tracing calls, on both sides.
    rows.push(row('A/A control: the in-process hops without tracing code on both sides', compareCpu(hops(engine, false), hops(engine, false), perRound), ''));
    rows.push(row('tracing off vs no tracing code: in-process hops of receiver, node, evaluator, persister', await compare(), 'ratio >= 0.99'));
    for (const [label, ratio, target] of [
      ['1 %', '0.01', 'ratio >= 0.97'],
      ['100 %', '1', ''],
    ] as const) {
      const running = await traceAt(endpoint.url, ratio);
      try {
        rows.push(row(`tracing on, ${label} sampled, vs no tracing code: the same hops`, await compare(), target));
      } finally {
        await running.shutdown();
      }
    }
    // The real flow: its noise floor (off against off), then on at 1 % and 100 % against off, in alternating runs.
    const off = () => relayRun(opts.flowMessages, endpoint.url, undefined);
    rows.push(...flowRows('A/A control, tracing off on both sides', await compareRuns(opts.flowRounds, off, off), ''));
    for (const [label, ratio, target] of [
      ['1 %', '0.01', 'ratio >= 0.97'],
      ['100 %', '1', ''],
    ] as const) {
      const on = () => relayRun(opts.flowMessages, endpoint.url, ratio);
      rows.push(...flowRows(`tracing on, ${label} sampled, vs off`, await compareRuns(opts.flowRounds, on, off), target));
    }
  } finally {
    for (const k of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await endpoint.close();
    await engine.close();
  }
  return rows.map((r) => (r.target === '' ? { ...r, target: undefined } : r));
}
