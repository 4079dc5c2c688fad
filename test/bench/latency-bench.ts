/**
 * Latency suite (`npm run bench -- --only latency`, docs/benchmarks.md): what each path adds per message, beside
 * the raw client library doing the same work, interleaved in one process. For each path its maximum rate is
 * measured first (a backlog drained by each side; the lower of the two is the path's maximum), then both sides
 * carry an open-loop load of 10 %, 50 % and 90 % of it (latency from each message's intended send time to its
 * arrival at the destination, on this process's clock) in short alternating blocks, so that drift and a
 * neighbour's noise hit both alike; a p99 ratio comes with its 95 % bootstrap interval over the block pairs
 * (latency-blocks.ts), and with the GC pauses and event-loop delay of each side (latency-pauses.ts). Paths:
 *  - RabbitMQ queue -> AmqpReceiver (XAMode 1) -> AmqpPersister -> RabbitMQ queue, vs amqplib consume, publish
 *    with confirm, ack on the confirm (the same at-least-once work);
 *  - the same with a CollectNode and a MessageEvaluator (bounce) in between, vs the same amqplib loop doing the same
 *    work per message with the same library calls (rawEvaluator). xroute: the CollectNode matches the message to its
 *    ruleset and writes RuleName by the ruleset's Template; the MessageEvaluator runs MessageEvaluatorEngine.evaluate
 *    (OriginalRC and ReturnCode; the ruleset's formatter writes the body from its template); the node routes the
 *    message by its return code (done: ReturnCode deleted); AmqpPersister publishes the body with the properties as
 *    headers. Raw: the delivery becomes a Message, RuleName is written by the same Template, an engine built from the
 *    same Ruleset evaluates it, and on ReturnCode 0 it is published the same way (otherwise nacked). Both publish the
 *    same message ("ORDER:" + body, header RuleName, delivery mode, priority). Only xroute's own work is left out of
 *    the raw loop: the AMQP mapping of the delivery's metadata, three links (XQueues) and the bounce between the
 *    node and the evaluator;
 *  - ActiveMQ queue -> JMSReceiver (XAMode 1) -> JMSPersister -> ActiveMQ queue, vs raw rhea (latency-activemq.ts);
 *  - a pooled StreamPersister request/reply (sequential round trips) vs a raw socket;
 *  - the in-process XQueue hop (a put, an actor taking and removing it) vs a setImmediate hand-off.
 * Rows give p50, p99, p99.9 and max for both sides, and the ratio of xroute's p99 to the raw client's. For the
 * broker paths the xroute runs also log when each message is added to, taken from and removed from each link
 * (hop-trace.ts): the timeline of the 50 % run, of all messages and of the slowest 1 % alone, is printed as rows;
 * every run's is in bench-results.json.
 */
import * as amqplib from 'amqplib';
import { Flow } from '../../src/runtime/flow';
import { buildTopology } from '../../src/config/topology';
import { defaultRegistry } from '../../actors';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';
import { ActorRuntime } from '../../src/runtime/actor';
import { startPool } from '../unit/pools/pool-support';
import { startTcpPeer } from '../unit/pools/peers';
import type { BenchRow } from './bench-types';
import { HopEvent, HopTrace } from './hop-trace';
import { ACTIVEMQ, jmsMoveTopology, rawRheaMover } from './latency-activemq';
import { ArrivalLog, bodyFor, runQueueNames, LatencySummary, openLoop, sequenceOf, summarise, until } from './latency';
import type { BrokerKit, MoverSide, RunQueues } from './latency-kit';
import { BlockedRatio, blockedP99Ratio } from './latency-blocks';
import { LoopDelay, PauseStats, PauseWatch } from './latency-pauses';
import { MessageEvaluatorEngine } from '../../src/evaluator';
import { Template } from '../../src/rules/template';
import net from 'node:net';

const HOST = process.env.XROUTE_RABBITMQ_HOST ?? '127.0.0.1';
const PORT = Number(process.env.XROUTE_RABBITMQ_PORT ?? 5672);
const URL = `amqp://guest:guest@${HOST}:${PORT}`;
/** Cells of the xroute link = prefetch of both sides = confirms in flight. */
const WINDOW = 256;
const LOADS = [0.1, 0.5, 0.9] as const;

export interface LatencyBenchOptions {
  /** Milliseconds of load per block (latency-blocks.ts): a side's block carries rate x blockMs messages. */
  blockMs: number;
  /** Pairs of blocks (one per side) at 50 % load, where the target is; 10 and 90 % get `pairs / 4`, at least 1. */
  pairs: number;
  /** Messages through the in-process XQueue hop and its setImmediate reference, at each rate. */
  hopMessages: number;
  /** Messages of the backlog that measures a path's maximum rate. */
  backlog: number;
  /** Sequential round trips for the request/reply rows. */
  roundTrips: number;
  /** Also the ActiveMQ path (JMSReceiver -> JMSPersister vs rhea; latency-activemq.ts). Default true. */
  activemq?: boolean;
}

/** Every connection of the bench, raw or not, with Nagle off, as xroute's own connections have it. */
async function connect(): Promise<amqplib.ChannelModel> {
  const conn = await amqplib.connect(URL, { noDelay: true });
  conn.on('error', () => undefined);
  return conn;
}

/** RabbitMQ through amqplib; the queues are deleted after each run. */
export const RABBITMQ: BrokerKit = {
  async withQueues(work) {
    const { inQueue, outQueue } = runQueueNames();
    const conn = await connect();
    try {
      const ch = await conn.createConfirmChannel();
      await ch.assertQueue(inQueue, { durable: false });
      await ch.assertQueue(outQueue, { durable: false });
      const loadCh = await conn.createChannel();
      try {
        return await work({
          inQueue,
          outQueue,
          async fill(n) {
            for (let i = 0; i < n; i++) if (!ch.sendToQueue(inQueue, Buffer.from(bodyFor(i)))) await new Promise((r) => ch.once('drain', r));
            await ch.waitForConfirms();
          },
          send: (seq) => loadCh.sendToQueue(inQueue, Buffer.from(bodyFor(seq))),
          async watch(log) {
            const watcher = await conn.createChannel();
            await watcher.consume(
              outQueue,
              (m) => {
                if (m !== null) log.arrive(sequenceOf(m.content.toString('utf8')));
              },
              { noAck: true },
            );
          },
        });
      } finally {
        await ch.deleteQueue(inQueue).catch(() => undefined);
        await ch.deleteQueue(outQueue).catch(() => undefined);
      }
    } finally {
      await conn.close().catch(() => undefined);
    }
  },
};

/** The path's rate on a backlog: `n` messages queued first, then the side started; first start to last arrival. */
async function maxRate(broker: BrokerKit, side: MoverSide, n: number): Promise<number> {
  return broker.withQueues(async (q) => {
    const { inQueue, outQueue } = q;
    await q.fill(n);
    const log = new ArrivalLog(n);
    await q.watch(log);
    const t0 = performance.now();
    const stop = await side.start(inQueue, outQueue);
    try {
      await until(
        () => log.arrivals === n,
        () => `${side.label}: ${log.arrivals}/${n} arrived`,
        300_000,
      );
      return n / ((performance.now() - t0) / 1000);
    } finally {
      await stop();
    }
  });
}

/** One side during an interleaved run: its queues, its log and where its blocks lie. */
interface SideRun {
  readonly side: MoverSide;
  readonly q: RunQueues;
  readonly log: ArrivalLog;
  readonly trace?: HopTrace;
  readonly loopDelay: LoopDelay;
  /** Measured blocks: sequence numbers [from, to), when the block ran and the process's CPU time in it (µs). */
  readonly blocks: { from: number; to: number; t0: number; t1: number; cpuUs: number }[];
}

interface InterleavedResult {
  readonly xroute: LatencySummary;
  readonly raw: LatencySummary;
  /** xroute's pooled p99 over raw's, with its spread over the block pairs (latency-blocks.ts). */
  readonly p99: BlockedRatio;
  /** xroute's timeline (per event, the time since the intended send), of all its measured messages... */
  readonly hops: HopEvent[];
  /** ...and of its messages at or above its p99: which hop their time went to. */
  readonly slowHops: HopEvent[];
  /** The raw client's timeline (its delivery and confirm), of all and of its slowest 1 %. */
  readonly rawHops: HopEvent[];
  readonly rawSlowHops: HopEvent[];
  readonly pauses: { readonly xroute: PauseStats; readonly raw: PauseStats };
}

/**
 * Both sides at `rate`, open loop, in alternating blocks of `blockMs` (latency-blocks.ts): each side is started
 * once on its own queues; after a warm-up block each, `pairs` pairs of blocks run in the order xroute raw, raw
 * xroute, ...; a block ends when all its messages arrived, so the two loads never overlap.
 */
async function interleavedRun(broker: BrokerKit, ours: MoverSide, raw: MoverSide, rate: number, pairs: number, blockMs: number): Promise<InterleavedResult> {
  const perBlock = Math.max(20, Math.round((rate * blockMs) / 1000));
  const warm = Math.max(10, Math.round(perBlock / 3));
  const size = warm + pairs * perBlock;
  const watch = new PauseWatch();
  try {
    return await broker.withQueues((qo) =>
      broker.withQueues(async (qr) => {
        const mk = (side: MoverSide, q: RunQueues, trace?: HopTrace): SideRun => ({
          side,
          q,
          log: new ArrivalLog(size),
          trace,
          loopDelay: watch.side(),
          blocks: [],
        });
        const x = mk(ours, qo, new HopTrace(size));
        const r = mk(raw, qr, new HopTrace(size));
        const stops: (() => Promise<void>)[] = [];
        try {
          for (const s of [x, r]) {
            await s.q.watch(s.log);
            stops.push(await s.side.start(s.q.inQueue, s.q.outQueue, s.trace));
          }
          const block = async (s: SideRun, from: number, count: number, measured: boolean) => {
            const cpu0 = process.cpuUsage();
            const t0 = performance.now();
            s.loopDelay.begin();
            await openLoop(rate, count, (i, at) => {
              s.log.sent(from + i, at);
              s.q.send(from + i);
            });
            await until(
              () => s.log.arrivals === from + count,
              () => `${s.side.label}: ${s.log.arrivals}/${from + count} arrived`,
              300_000,
            );
            s.loopDelay.end();
            if (!measured) return;
            const cpu = process.cpuUsage(cpu0);
            s.blocks.push({ from, to: from + count, t0, t1: performance.now(), cpuUs: cpu.user + cpu.system });
          };
          for (const s of [x, r]) await block(s, 0, warm, false);
          for (let b = 0; b < pairs; b++) for (const s of b % 2 === 0 ? [x, r] : [r, x]) await block(s, warm + b * perBlock, perBlock, true);
          for (const s of [x, r]) if (s.log.duplicated > 0) throw new Error(`${s.side.label}: ${s.log.duplicated} duplicates`);
        } finally {
          for (const stop of stops) await stop();
        }
        watch.stop();
        const blocksOf = (s: SideRun) => s.blocks.map((b) => s.log.latencies(b.from, b.to));
        const xs = summarise(x.log.latencies(warm));
        const rs = summarise(r.log.latencies(warm));
        const slowOf = (s: SideRun, p99: number) => {
          const seqs: number[] = [];
          for (let i = warm; i < size; i++) if (s.log.arrivedAt(i) - s.log.intendedAt(i) >= p99) seqs.push(i);
          return seqs;
        };
        const xSlow = slowOf(x, xs.p99);
        const rSlow = slowOf(r, rs.p99);
        const flights = (s: SideRun, seqs: readonly number[]) => seqs.map((i) => ({ from: s.log.intendedAt(i), to: s.log.arrivedAt(i) }));
        const timelines = (s: SideRun, slow: readonly number[]) => {
          const arrival = { 'arrived at the destination queue': (i: number) => s.log.arrivedAt(i) };
          const intended = (i: number) => s.log.intendedAt(i);
          const slowSet = new Set(slow);
          const all = s.trace?.timeline(intended, warm, arrival) ?? [];
          const slowest = s.trace?.timeline(intended, warm, arrival, (i) => slowSet.has(i)) ?? [];
          return { all: all.length > 1 ? all : [], slowest: slowest.length > 1 ? slowest : [] };
        };
        const xt = timelines(x, xSlow);
        const rt = timelines(r, rSlow);
        return {
          xroute: xs,
          raw: rs,
          p99: blockedP99Ratio(blocksOf(x), blocksOf(r)),
          hops: xt.all,
          slowHops: xt.slowest,
          rawHops: rt.all,
          rawSlowHops: rt.slowest,
          pauses: {
            xroute: watch.stats(x.blocks, x.loopDelay, flights(x, xSlow)),
            raw: watch.stats(r.blocks, r.loopDelay, flights(r, rSlow)),
          },
        };
      }),
    );
  } finally {
    watch.stop();
  }
}

/**
 * What AmqpPersister publishes for a delivery that carried no JMS headers: the message model's defaults,
 * JMSDeliveryMode 2 (persistent) and JMSPriority 4. The raw loop publishes the same, so the broker does the same
 * work for both sides.
 */
const SAME_AS_XROUTE: amqplib.Options.Publish = { deliveryMode: 2, priority: 4 };

/**
 * One delivery's work in a raw loop: what to publish (body and options) on the confirm channel, or undefined to
 * reject it.
 */
type RawWork = (m: amqplib.ConsumeMessage) => { body: Buffer; options: amqplib.Options.Publish } | undefined;

/**
 * Raw amqplib: consume (prefetch WINDOW), publish what `work` makes with confirm, ack the delivery on the confirm.
 * With a trace, the delivery and the confirm of each message are logged, like xroute's link events. The consume
 * and the confirm channel share one connection, or with `connections` 2 each has its own, as xroute's receiver
 * and persister have.
 */
function rawLoop(label: string, work: RawWork, connections: 1 | 2 = 1): MoverSide {
  return {
    label,
    async start(inQueue, outQueue, trace) {
      const conn = await connect();
      const outConn = connections === 2 ? await connect() : conn;
      const inCh = await conn.createChannel();
      const outCh = await outConn.createConfirmChannel();
      await inCh.prefetch(WINDOW);
      await inCh.consume(inQueue, (m) => {
        if (m === null) return;
        const seq = trace ? sequenceOf(m.content.toString('utf8')) : -1;
        trace?.markSeq('raw: delivered', seq);
        const out = work(m);
        if (out === undefined) return inCh.nack(m, false, false);
        outCh.sendToQueue(outQueue, out.body, out.options, (err) => {
          trace?.markSeq('raw: confirmed', seq);
          if (err) inCh.nack(m);
          else inCh.ack(m);
        });
      });
      return async () => {
        await conn.close().catch(() => undefined);
        if (outConn !== conn) await outConn.close().catch(() => undefined);
      };
    },
  };
}

/** Raw amqplib moving each delivery as it is, on one connection (or two: one per channel). */
export function rawMover(connections: 1 | 2 = 1): MoverSide {
  const label = connections === 1 ? 'raw amqplib' : 'raw amqplib, two connections';
  return rawLoop(label, (m) => ({ body: m.content, options: SAME_AS_XROUTE }), connections);
}

/** The evaluate path's rulesets, shared by xroute's topology and the raw loop. */
const EVALUATE_RULE = { FieldName: 'RuleName', Template: 'order' };
const EVALUATE_RULESET = { order: { FormatterArgument: [{ FieldName: 'body', Template: ['ORDER:##body##'] }] } };

/**
 * Raw amqplib doing the evaluate path's work (the header comment): each delivery evaluated as a Message by the same
 * engine and published with its properties as headers when its ReturnCode is 0.
 */
export function rawEvaluator(): MoverSide {
  const engine = new MessageEvaluatorEngine({ Ruleset: EVALUATE_RULESET }, { baseDir: process.cwd(), pluginDirs: [] });
  const ruleName = new Template(EVALUATE_RULE.Template);
  return rawLoop('raw amqplib + MessageEvaluatorEngine', (m) => {
    const headers = m.properties.headers ?? {};
    const msg = Message.text(m.content.toString('utf8'), Object.fromEntries(Object.keys(headers).map((k) => [k, String(headers[k])])));
    msg.setProperty(EVALUATE_RULE.FieldName, ruleName.format(msg));
    engine.evaluate(msg); // synchronous: the ruleset is a formatter
    if (msg.getProperty(engine.rcField) !== '0') return undefined;
    msg.deleteProperty(engine.rcField);
    const { JMSDeliveryMode: deliveryMode, JMSPriority: priority } = msg.headers;
    return { body: Buffer.from(msg.bodyText() ?? '', 'utf8'), options: { headers: Object.fromEntries(msg.properties), deliveryMode, priority } };
  });
}

/** xroute: a flow built from `topology(inQueue, outQueue)`, started and waited for until every component runs. */
export function xrouteMover(topology: (inQueue: string, outQueue: string) => Record<string, unknown>): MoverSide {
  return {
    label: 'xroute',
    async start(inQueue, outQueue, trace) {
      const registry = defaultRegistry();
      const flow = Flow.start(buildTopology(topology(inQueue, outQueue), 'latency-bench.json', registry), { registry });
      if (trace) for (const link of flow.linkNames()) trace.watch(flow.link(link));
      await until(
        () => flow.status().components.every((c) => c.status === 'RUNNING'),
        () => JSON.stringify(flow.status().components.map((c) => [c.name, c.status])),
        30_000,
      );
      return () => flow.stop();
    },
  };
}

const amqpEndpoint = { URI: URL, Username: 'guest', Password: 'guest' };

export function moveTopology(inQueue: string, outQueue: string): Record<string, unknown> {
  return {
    Name: 'latency-move',
    Capacity: String(WINDOW),
    XAMode: '1',
    Receiver: ['rcvr_in'],
    Persister: ['pstr_out'],
    rcvr_in: {
      ClassName: 'org.qbroker.receiver.RMQReceiver',
      ...amqpEndpoint,
      Operation: 'get',
      QueueName: inQueue,
      IsPassive: 'true',
      LinkName: 'move',
      XAMode: '1',
    },
    pstr_out: {
      ClassName: 'org.qbroker.persister.RMQPersister',
      ...amqpEndpoint,
      Operation: 'pub',
      QueueName: outQueue,
      IsPassive: 'true',
      LinkName: 'move',
      MaxInFlight: String(WINDOW),
    },
  };
}

export function evaluateTopology(inQueue: string, outQueue: string): Record<string, unknown> {
  return {
    Name: 'latency-evaluate',
    Capacity: String(WINDOW),
    XAMode: '1',
    Receiver: ['rcvr_in'],
    Node: ['node_collect'],
    Persister: ['pstr_eval', 'pstr_out'],
    rcvr_in: {
      ClassName: 'org.qbroker.receiver.RMQReceiver',
      ...amqpEndpoint,
      Operation: 'get',
      QueueName: inQueue,
      IsPassive: 'true',
      LinkName: 'incoming',
      XAMode: '1',
    },
    node_collect: {
      ClassName: 'org.qbroker.node.CollectNode',
      LinkName: 'incoming',
      Operation: 'collect',
      RCField: 'ReturnCode',
      OutLink: ['out', 'out', 'out', 'evaluate'],
      Ruleset: [{ Name: 'evaluate', PreferredOutLink: 'evaluate', ...EVALUATE_RULE }],
    },
    pstr_eval: {
      ClassName: 'org.qbroker.persister.MessageEvaluator',
      LinkName: 'evaluate',
      Operation: 'evaluate',
      Ruleset: EVALUATE_RULESET,
    },
    pstr_out: {
      ClassName: 'org.qbroker.persister.RMQPersister',
      ...amqpEndpoint,
      Operation: 'pub',
      QueueName: outQueue,
      IsPassive: 'true',
      LinkName: 'out',
      MaxInFlight: String(WINDOW),
    },
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** `key` names what is measured without this run's figures (the rate of a load depends on the run). */
function latencyRow(name: string, ours: LatencySummary, raw: LatencySummary, target?: string, key = name, p99?: BlockedRatio): BenchRow {
  const spread = p99 ? `; p99 ratio 95 % ${round3(p99.lo)}-${round3(p99.hi)}, pairs ${round3(p99.pairMin)}-${round3(p99.pairMax)} over ${p99.pairs}` : '';
  return {
    key,
    name: `${name}: p50 ${round3(ours.p50)} / p99.9 ${round3(ours.p999)} / max ${round3(ours.max)} ms (raw ${round3(raw.p50)} / ${round3(raw.p999)} / ${round3(raw.max)}${spread})`,
    unit: 'ms p99',
    value: round3(ours.p99),
    baseline: round3(raw.p99),
    ratio: round3(p99?.ratio ?? ours.p99 / raw.p99),
    target,
  };
}

/** One broker path: its maximum rate, then each load on both sides in alternating order. */
export async function brokerPath(
  broker: BrokerKit,
  name: string,
  ours: MoverSide,
  raw: MoverSide,
  opts: LatencyBenchOptions,
  rows: BenchRow[],
  details: LatencyDetail[],
): Promise<void> {
  const oursMax = await maxRate(broker, ours, opts.backlog);
  const rawMax = await maxRate(broker, raw, opts.backlog);
  const max = Math.min(oursMax, rawMax);
  rows.push({
    key: `${name}: maximum rate`,
    name: `${name}: maximum rate (backlog of ${opts.backlog})`,
    unit: 'msg/s',
    value: Math.round(oursMax),
    baseline: Math.round(rawMax),
    ratio: round3(oursMax / rawMax),
  });
  for (const load of LOADS) {
    const rate = Math.max(10, Math.round(max * load));
    const run = await interleavedRun(broker, ours, raw, rate, load === 0.5 ? opts.pairs : Math.max(1, Math.round(opts.pairs / 4)), opts.blockMs);
    details.push({ path: name, load, rate, ...run });
    const at = `${name} at ${load * 100} %`;
    rows.push(latencyRow(`${at} (${rate} msg/s)`, run.xroute, run.raw, load === 0.5 ? 'p99 <= 1.2x raw' : undefined, at, run.p99));
    if (load !== 0.5) continue;
    rows.push(...spreadRows(at, run.p99));
    rows.push(...hopRows(at, run.hops));
    rows.push(...hopRows(`${at}, slowest 1 %`, run.slowHops));
    rows.push(...hopRows(`${at}, raw client`, run.rawHops));
    rows.push(...hopRows(`${at}, raw client, slowest 1 %`, run.rawSlowHops));
    rows.push(...pauseRows(at, run.pauses));
  }
}

/** The spread of a blocked p99 ratio as rows: the ends of its 95 % bootstrap interval (their medians over runs are rows too). */
function spreadRows(prefix: string, p99: BlockedRatio): BenchRow[] {
  const of = `${prefix}: p99 ratio over ${p99.pairs} block pairs`;
  return [
    { key: `${prefix}: p99 ratio, 95 % interval, low`, name: `${of}, 95 % bootstrap interval, low`, unit: 'ratio', value: round3(p99.lo) },
    { key: `${prefix}: p99 ratio, 95 % interval, high`, name: `${of}, 95 % bootstrap interval, high`, unit: 'ratio', value: round3(p99.hi) },
  ];
}

/** GC and event-loop stalls during each side's blocks, and how many of its slowest messages a GC pause caught. */
function pauseRows(prefix: string, p: { xroute: PauseStats; raw: PauseStats }): BenchRow[] {
  const row = (what: string, unit: string, pick: (s: PauseStats) => number): BenchRow => {
    const value = round3(pick(p.xroute));
    const baseline = round3(pick(p.raw));
    return { key: `${prefix}: ${what}`, name: `${prefix}: ${what}`, unit, value, baseline, ratio: baseline > 0 ? round3(value / baseline) : undefined };
  };
  return [
    row('GC pauses during the blocks', 'count', (s) => s.gcPauses),
    row('GC pause time during the blocks', 'ms', (s) => s.gcTotalMs),
    row('longest GC pause', 'ms', (s) => s.gcMaxMs),
    row('event-loop delay p99', 'ms', (s) => s.loopDelayP99Ms),
    row('event-loop delay max', 'ms', (s) => s.loopDelayMaxMs),
    row('process CPU time per message', 'µs', (s) => s.cpuPerMessageUs),
    row("share of the slowest 1 %'s latency spent in GC pauses", 'share', (s) => s.slowInPause),
  ];
}

/** The timeline as rows: each event's p50 since the intended send, what it adds to the one before, and its p99. */
export function hopRows(prefix: string, hops: readonly HopEvent[]): BenchRow[] {
  return hops.map((h, i) => ({
    key: `${prefix}: ${h.event}`,
    name: `${prefix}, hop ${i + 1}: ${h.event} (+${round3(h.p50 - (i > 0 ? hops[i - 1].p50 : 0))} ms; p99 ${round3(h.p99)} ms)`,
    unit: 'ms p50 since publish',
    value: round3(h.p50),
  }));
}

/** The in-process hop: XQueue put -> actor takes and removes it, vs a setImmediate hand-off, open loop. */
async function queueHop(rate: number, n: number): Promise<{ xroute: LatencySummary; raw: LatencySummary }> {
  const runtime = new ActorRuntime('latency');
  const link = new XQueue<Message>('hop', WINDOW);
  const ours = new ArrivalLog(n);
  runtime.spawn<never>('consumer', () => ({
    start(ctx) {
      ctx.consume(link, (taken, q) => {
        ours.arrive(sequenceOf(taken.item.bodyText() ?? ''));
        q.remove(taken);
      });
    },
  }));
  try {
    await openLoop(rate, n, (seq, at) => {
      ours.sent(seq, at);
      const m = Message.text(bodyFor(seq, 16));
      if (link.offer(m) < 0) void link.put(m);
    });
    await until(
      () => ours.arrivals === n,
      () => `hop: ${ours.arrivals}/${n}`,
      60_000,
    );
  } finally {
    await runtime.stop();
  }
  const raw = new ArrivalLog(n);
  await openLoop(rate, n, (seq, at) => {
    raw.sent(seq, at);
    const m = Message.text(bodyFor(seq, 16));
    setImmediate(() => raw.arrive(sequenceOf(m.bodyText() ?? '')));
  });
  await until(
    () => raw.arrivals === n,
    () => `hand-off: ${raw.arrivals}/${n}`,
    60_000,
  );
  const skip = Math.min(500, Math.floor(n / 10));
  return { xroute: summarise(ours.latencies(skip)), raw: summarise(raw.latencies(skip)) };
}

/** Sequential request/reply round trips through one pooled StreamPersister, and through one raw socket. */
export async function requestReply(n: number): Promise<{ xroute: LatencySummary; raw: LatencySummary }> {
  const peer = await startTcpPeer();
  try {
    const pool = startPool('persister', { MaxNumberPersister: '1', DefaultPoolSize: '1' }, [], 16);
    const ours: number[] = [];
    try {
      const handle = await pool.client.request({ URI: `${peer.uri}?Operation=request` });
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const reply = await new Promise<Message>((resolve, reject) => handle.transmit.put(Message.text(`m${i}\n`), (m) => resolve(m)).catch(reject));
        ours.push(performance.now() - t0);
        if (reply.bodyText() !== `echo:m${i}`) throw new Error(`wrong reply ${reply.bodyText()}`);
      }
    } finally {
      await pool.stop();
    }
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: '127.0.0.1', port: peer.port }, () => resolve(s));
      s.setNoDelay(true);
      s.once('error', reject);
    });
    const raw: number[] = [];
    try {
      let buf = '';
      let waiting: ((line: string) => void) | undefined;
      socket.on('data', (chunk) => {
        buf += chunk.toString('utf8');
        const nl = buf.indexOf('\n');
        if (nl >= 0 && waiting) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const w = waiting;
          waiting = undefined;
          w(line);
        }
      });
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const line = await new Promise<string>((resolve) => {
          waiting = resolve;
          socket.write(`m${i}\n`);
        });
        raw.push(performance.now() - t0);
        if (line !== `echo:m${i}`) throw new Error(`wrong reply ${line}`);
      }
    } finally {
      socket.destroy();
    }
    const skip = Math.min(200, Math.floor(n / 10));
    return { xroute: summarise(ours.slice(skip)), raw: summarise(raw.slice(skip)) };
  } finally {
    await peer.close();
  }
}

/** What bench-results.json keeps of each open-loop run, beside the rows (for the plot in docs/benchmarks.md). */
export interface LatencyDetail {
  readonly path: string;
  readonly load: number;
  readonly rate: number;
  readonly xroute: LatencySummary;
  readonly raw: LatencySummary;
  /** Broker paths: the p99 ratio's spread over its block pairs, and the stalls of each side. */
  readonly p99?: BlockedRatio;
  readonly pauses?: { readonly xroute: PauseStats; readonly raw: PauseStats };
  /** xroute's timeline (broker paths): per event, p50 and p99 of the time since the intended send... */
  readonly hops?: readonly HopEvent[];
  /** ...and of its slowest 1 % alone; the same of the raw client (its delivery and confirm). */
  readonly slowHops?: readonly HopEvent[];
  readonly rawHops?: readonly HopEvent[];
  readonly rawSlowHops?: readonly HopEvent[];
}

export const latencyDetails: LatencyDetail[] = [];

export async function benchLatency(opts: LatencyBenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  latencyDetails.length = 0;
  await brokerPath(RABBITMQ, 'RabbitMQ -> AmqpReceiver -> AmqpPersister -> RabbitMQ', xrouteMover(moveTopology), rawMover(), opts, rows, latencyDetails);
  await brokerPath(
    RABBITMQ,
    'RabbitMQ -> AmqpReceiver -> CollectNode + MessageEvaluator -> AmqpPersister -> RabbitMQ',
    xrouteMover(evaluateTopology),
    rawEvaluator(),
    opts,
    rows,
    latencyDetails,
  );
  if (opts.activemq ?? true) {
    await brokerPath(
      ACTIVEMQ,
      'ActiveMQ -> JMSReceiver -> JMSPersister -> ActiveMQ',
      xrouteMover(jmsMoveTopology(WINDOW)),
      rawRheaMover(WINDOW),
      opts,
      rows,
      latencyDetails,
    );
  }
  const rr = await requestReply(opts.roundTrips);
  rows.push(latencyRow('request/reply through 1 pooled StreamPersister, sequential', rr.xroute, rr.raw));
  rows.push({
    name: 'request/reply through 1 pooled StreamPersister, sequential: round trips/s',
    unit: 'per s',
    value: Math.round(1000 / rr.xroute.p50),
    baseline: Math.round(1000 / rr.raw.p50),
    ratio: round3(rr.raw.p50 / rr.xroute.p50),
    target: '>= 0.9x raw socket',
  });
  for (const rate of [1_000, 10_000, 50_000]) {
    const hop = await queueHop(rate, opts.hopMessages);
    latencyDetails.push({ path: 'XQueue hop', load: NaN, rate, xroute: hop.xroute, raw: hop.raw });
    rows.push(latencyRow(`XQueue hop (put -> actor remove) vs setImmediate hand-off at ${rate} msg/s`, hop.xroute, hop.raw));
  }
  return rows;
}
