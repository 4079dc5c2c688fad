/**
 * Test support for reloads on the real RabbitMQ (docs/operations.md#changing-a-running-flow): the evaluate-route
 * example (AmqpReceiver -> CollectNode -> MessageEvaluator -> AmqpPersister, XAMode 1) on unique queues, written to
 * a file that a test edits and reloads; a publisher at a steady rate; a counter of what reaches the output queue.
 */
import * as amqp from 'amqplib';
import { existsSync, mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { readJsonFile } from '../../../src/config/json-file';
import { loadTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { defaultRegistry } from '../../../actors';
import { waitFor } from '../../support/component-harness';
import { Admin, uniqueName } from './amqp-kit';
import { sleep, waitWhileProgressing } from '../../support/wait';

/** The example, from the sources (the tests) or from dist/ (the bench runs compiled). */
const EXAMPLE = ['../../..', '../../../..'].map((up) => path.resolve(__dirname, up, 'config/examples/evaluate-route.json')).find((f) => existsSync(f))!;

export interface ReloadQueues {
  readonly in: string;
  readonly out: string;
  readonly failed: string;
}

function reloadQueues(): ReloadQueues {
  return { in: uniqueName('reload.in'), out: uniqueName('reload.out'), failed: uniqueName('reload.failed') };
}

type Json = Record<string, Record<string, unknown>>;

/** The example on `queues`; every message is an order, whose body the evaluator's Template rewrites. */
export class ReloadTopologyFile {
  readonly file: string;

  constructor(readonly queues: ReloadQueues) {
    this.file = path.join(mkdtempSync(path.join(tmpdir(), 'xroute-reload-')), 'flow.json');
  }

  /** Writes the topology with `template` as the evaluator's body template, then `change` applied. */
  write(template: string, change: (json: Json) => void = () => undefined): string {
    const json = readJsonFile(EXAMPLE) as Json;
    json.rcvr_in.QueueName = this.queues.in;
    json.rcvr_in.IsDurable = 'false';
    json.pstr_out.QueueName = this.queues.out;
    json.pstr_out.IsDurable = 'false';
    json.pstr_failed.QueueName = this.queues.failed;
    json.pstr_failed.IsDurable = 'false';
    json.pstr_eval.Ruleset = { order: { JMSPropertyGroup: [{ kind: '^order$' }], FormatterArgument: [{ FieldName: 'body', Template: [template] }] } };
    change(json);
    writeFileSync(this.file, JSON.stringify(json, null, 2));
    return this.file;
  }
}

/** Publishes numbered orders (body = the number) at a steady rate until stopped. */
export class SteadyPublisher {
  published = 0;
  private running = true;
  private done: Promise<void> | undefined;

  constructor(
    private readonly admin: Admin,
    private readonly queue: string,
    private readonly perSecond: number,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    const started = Date.now();
    while (this.running) {
      const due = Math.floor(((Date.now() - started) * this.perSecond) / 1000);
      while (this.published < due && this.running) {
        const id = this.published++;
        if (!this.admin.ch.sendToQueue(this.queue, Buffer.from(String(id)), { headers: { kind: 'order' } }))
          await new Promise((r) => this.admin.ch.once('drain', r));
      }
      await sleep(10);
    }
    await this.admin.ch.waitForConfirms();
  }

  /** Stops publishing; resolves once the broker confirmed every message. */
  async stop(): Promise<number> {
    this.running = false;
    await this.done;
    return this.published;
  }
}

/** Reads the output queue: per id, every body it arrived with, in arrival order. */
export class OutputCounter {
  readonly bodies = new Map<number, string[]>();
  /** Ids in arrival order. */
  readonly arrivals: number[] = [];
  /** The AMQP priority each id arrived with (undefined: none). */
  readonly priorities = new Map<number, number | undefined>();
  private ch: amqp.Channel | undefined;

  static async open(admin: Admin, queue: string): Promise<OutputCounter> {
    const counter = new OutputCounter();
    await admin.ch.assertQueue(queue, { durable: false });
    counter.ch = await admin.conn.createChannel();
    await counter.ch.consume(queue, (m) => m && counter.record(m.content.toString(), m.properties.priority as number | undefined), { noAck: true });
    return counter;
  }

  private record(body: string, priority: number | undefined): void {
    const id = Number(body.slice(body.indexOf(':') + 1));
    this.priorities.set(id, priority);
    const list = this.bodies.get(id) ?? [];
    list.push(body);
    this.bodies.set(id, list);
    this.arrivals.push(id);
  }

  get count(): number {
    return this.arrivals.length;
  }

  lost(published: number): number[] {
    const out: number[] = [];
    for (let id = 0; id < published; id++) if (!this.bodies.has(id)) out.push(id);
    return out;
  }

  duplicated(): number[] {
    return [...this.bodies].filter(([, b]) => b.length > 1).map(([id]) => id);
  }

  /** The version prefix ("V3") an id arrived with. */
  versionOf(id: number): string | undefined {
    const body = this.bodies.get(id)?.[0];
    return body?.slice(0, body.indexOf(':'));
  }

  async close(): Promise<void> {
    await this.ch?.close().catch(() => undefined);
  }
}

/** A running flow of the example on unique queues, its output counted and a publisher ready to start. */
export class ReloadRig {
  private constructor(
    readonly admin: Admin,
    readonly topology: ReloadTopologyFile,
    readonly flow: Flow,
    readonly out: OutputCounter,
    readonly publisher: SteadyPublisher,
  ) {}

  /** Starts the flow with ruleset mark V0, once it is ready; the publisher is not started yet. */
  static async start(perSecond: number): Promise<ReloadRig> {
    const admin = await Admin.open();
    const queues = reloadQueues();
    for (const q of Object.values(queues)) await admin.queue(q);
    const topology = new ReloadTopologyFile(queues);
    const registry = defaultRegistry();
    const flow = Flow.start(loadTopology(topology.write('V0:##body##'), registry), { registry });
    await waitFor(() => flow.status().ready, 'the flow ready', 30_000);
    const out = await OutputCounter.open(admin, queues.out);
    return new ReloadRig(admin, topology, flow, out, new SteadyPublisher(admin, queues.in, perSecond));
  }

  /** Stops publishing and waits until every message published reached the output and the links are empty. */
  async finish(): Promise<number> {
    const published = await this.publisher.stop();
    await waitWhileProgressing(
      () => this.out.count,
      published,
      () => `all ${published} messages at the output (${this.out.count} so far)`,
    );
    await waitFor(() => this.flow.status().links.every((l) => l.size === 0), 'every link empty', 10_000);
    return published;
  }

  async cleanup(): Promise<void> {
    await this.publisher.stop().catch(() => undefined);
    await this.flow.stop({ drainMs: 5_000 });
    await this.out.close();
    await this.admin.cleanup();
  }
}
