/**
 * What tracing costs (issue 29; docs/operations.md#tracing): the per-message work of the flow
 * AmqpReceiver -> CollectNode -> MessageEvaluator -> CollectNode -> AmqpPersister run in process - the AMQP 0-9-1
 * mapping of a delivery, the evaluator's ruleset, the mapping for the publish - once with the tracing calls the
 * components make at each hop (subject) and once without them (baseline: the same work, no tracing code),
 * interleaved in rounds in this one process. Three comparisons: tracing off (the calls return at their first
 * line), on at 1 % and on at 100 % sampling (parentbased_traceidratio, spans exported over OTLP/HTTP to a sink in
 * this process). No broker: its I/O would only dilute the cost, so these ratios are the pessimistic bound of a
 * real flow's. Rows report throughput; ratio = subject throughput / baseline throughput.
 */
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import type { ConsumeMessage } from 'amqplib';
import { MessageEvaluatorEngine } from '../../src/evaluator';
import { silentLogger } from '../../src/logging/logger';
import { messageFromAmqp, messageToAmqp } from '../../src/transports/amqp091-mapping';
import { ATTR_RETURN_CODE, ATTR_RULESET, RunningTracing, endStep, startStep, startTracing, traceDelivery, tracePublish, tracePublished, traceRoute, traceSettled, withTraceHeaders } from '../../src/tracing';
import type { BenchRow } from './bench-types';
import { Step, compareInterleaved } from './interleaved';

const ROUNDS = 20;
const RECEIVER = { component: 'rcvr_in', system: 'rabbitmq', destination: 'in' } as const;
const PERSISTER = { component: 'pstr_out', system: 'rabbitmq', destination: 'out', routingKey: 'out' } as const;
const RULESET = { order: { JMSPropertyGroup: [{ kind: '^order$' }], FormatterArgument: [{ FieldName: 'body', Template: ['ORDER:##body##'] }] } };

function delivery(i: number): ConsumeMessage {
  return {
    content: Buffer.from(`order ${i} for customer ${i % 97}`),
    fields: { deliveryTag: i, redelivered: false, exchange: '', routingKey: 'in', consumerTag: 'bench' },
    properties: { messageId: `m${i}`, headers: { kind: 'order', RuleName: 'order' }, deliveryMode: 2, timestamp: 1_700_000_000 + i },
  } as unknown as ConsumeMessage;
}

/** The work of the five hops; with `traced`, the tracing calls the components make, at the same places. */
function hops(engine: MessageEvaluatorEngine, traced: boolean): Step<ConsumeMessage> {
  return (d) => {
    const msg = messageFromAmqp(d, { text: true, queue: 'in' });
    if (traced) {
      traceDelivery(msg, d.properties.headers, RECEIVER);
      traceRoute(msg, 'node_collect', 'route evaluate', { [ATTR_RULESET]: 'evaluate', 'xroute.outlink': 'evaluate' });
    }
    const step = traced ? startStep(msg, 'pstr_eval', 'evaluate order') : undefined;
    void engine.evaluate(msg);
    if (traced) {
      endStep(msg, step, { [ATTR_RULESET]: msg.properties.get('RuleName') ?? '', [ATTR_RETURN_CODE]: msg.properties.get('ReturnCode') ?? '' });
      traceRoute(msg, 'node_collect', 'route evaluate', { [ATTR_RULESET]: 'evaluate', 'xroute.outlink': 'out' });
    }
    const { options } = messageToAmqp(msg);
    if (traced) {
      const context = tracePublish(msg, PERSISTER);
      if (context !== undefined) options.headers = withTraceHeaders(options.headers ?? {}, context);
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

export async function benchTracing(opts: { messages: number }): Promise<BenchRow[]> {
  const engine = new MessageEvaluatorEngine({ Name: 'bench', Ruleset: RULESET }, { baseDir: __dirname, pluginDirs: [] });
  const endpoint = await sink();
  const saved = { ...process.env };
  const perRound = Math.max(1, Math.floor(opts.messages / ROUNDS));
  const compare = () => compareInterleaved({ subject: hops(engine, true), baseline: hops(engine, false), make: delivery, rounds: ROUNDS, perRound });
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
