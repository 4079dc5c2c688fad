/**
 * Test helpers for the JMS-over-AMQP-1.0 suites: publish with rhea to RabbitMQ's AMQP 1.0 (waiting for every
 * message to be accepted), inspect and delete RabbitMQ queues over AMQP 0-9-1, and drain an XQueue.
 */
import rhea = require('rhea');
import * as amqplib from 'amqplib';
import { XQueue, Taken } from '../../src/xqueue/xqueue';
import { Message } from '../../src/message/message';

interface PrivateNode {
  host: string;
  port: number;
  ctlSync(...args: string[]): string;
}
import { attachPrivateRabbitMQ } from './private-rabbitmq';

/**
 * The RabbitMQ with AMQP 1.0 these helpers talk to: a private node with the plugin, never the system broker (whose
 * plugins the tests do not change). The integration project's globalSetup starts one and names it in
 * XROUTE_AMQP10_NODE; a fault test that restarts its own node calls useAmqp10Node. RABBIT and RABBIT_URI are live
 * bindings: importers see the node set last.
 */
export const RABBIT = { host: '127.0.0.1', port: 0 };
export let RABBIT_URI = '';
let node: PrivateNode | undefined;

export function useAmqp10Node(privateNode: PrivateNode): void {
  node = privateNode;
  RABBIT.host = privateNode.host;
  RABBIT.port = privateNode.port;
  RABBIT_URI = `amqp://${RABBIT.host}:${RABBIT.port}`;
}

if (process.env.XROUTE_AMQP10_NODE) useAmqp10Node(attachPrivateRabbitMQ(process.env.XROUTE_AMQP10_NODE));

function currentNode(): PrivateNode {
  if (!node) throw new Error("no AMQP 1.0 test broker: run through jest's integration project (its globalSetup starts one) or call useAmqp10Node");
  return node;
}

export interface OutgoingAmqp {
  body?: unknown;
  application_properties?: Record<string, unknown>;
  subject?: string;
  durable?: boolean;
  [field: string]: unknown;
}

export interface TestBroker {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
}

/**
 * Sends every message to `address` (e.g. /exchange/amq.topic/orders, or topic://orders on ActiveMQ) and resolves
 * when all were accepted. The broker is the test RabbitMQ node unless given.
 */
export async function publishAmqp10(address: string, messages: readonly OutgoingAmqp[], given?: TestBroker): Promise<void> {
  const broker = given ?? (currentNode(), { ...RABBIT, username: 'guest', password: 'guest' });
  const container = rhea.create_container();
  const conn = container.connect({ host: broker.host, port: broker.port, username: broker.username, password: broker.password, reconnect: false });
  try {
    await new Promise<void>((resolve, reject) => {
      const sender = conn.open_sender({ target: { address } });
      let next = 0;
      let accepted = 0;
      const pump = () => {
        while (next < messages.length && sender.sendable()) sender.send(messages[next++] as never);
      };
      if (messages.length === 0) resolve();
      sender.on('sendable', pump);
      sender.on('accepted', () => {
        if (++accepted === messages.length) resolve();
      });
      sender.on('rejected', (ctx) => reject(new Error(`publish rejected: ${JSON.stringify(ctx.delivery.remote_state)}`)));
      sender.on('sender_error', (ctx) => reject(new Error(`sender error: ${String(ctx.sender.error)}`)));
      conn.on('connection_error', (ctx) => reject(new Error(`connection error: ${String(ctx.connection.error)}`)));
      conn.on('disconnected', (ctx) => reject(new Error(`disconnected: ${String(ctx.error)}`)));
    });
  } finally {
    await closeRheaConnection(conn);
    container.removeAllListeners();
  }
}

/** Closes a rhea connection, waiting up to a second for the broker's close. */
export function closeRheaConnection(conn: rhea.Connection): Promise<void> {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 1000);
    conn.once('connection_close', () => {
      clearTimeout(t);
      resolve();
    });
    conn.close();
  });
}

/**
 * Drops the server side of connections an in-process rhea peer accepted. rhea clears a connection's heartbeat
 * timers only when it sees the socket end; a destroyed server-side socket never reports that, and the
 * re-arming heartbeat would keep jest alive.
 */
export function abortPeerConnections(connections: readonly rhea.Connection[]): void {
  for (const c of connections) {
    const conn = c as unknown as { socket?: { destroy(): void }; _disconnected?(): void };
    conn.socket?.destroy();
    conn._disconnected?.();
  }
}

/** Runs `work` on a fresh AMQP 0-9-1 channel to the test RabbitMQ. */
export async function withRabbitChannel<T>(work: (ch: amqplib.Channel) => Promise<T>): Promise<T> {
  currentNode();
  const conn = await amqplib.connect(`amqp://guest:guest@${RABBIT.host}:${RABBIT.port}`);
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    return await work(ch);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Message count of a queue, or undefined when the queue does not exist. */
export async function queueInfo(name: string): Promise<{ messageCount: number; consumerCount: number } | undefined> {
  try {
    return await withRabbitChannel((ch) => ch.checkQueue(name));
  } catch {
    return undefined;
  }
}

export async function deleteQueue(name: string): Promise<void> {
  await withRabbitChannel(async (ch) => {
    await ch.deleteQueue(name);
  }).catch(() => undefined);
}

/** Names of the queues on the AMQP 1.0 test node (its own rabbitmqctl), for leak checks. */
export function listQueueNames(): string[] {
  const out = currentNode().ctlSync('list_queues', '-q', '--no-table-headers', 'name');
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

export interface Drain {
  readonly received: Message[];
  /** Stop taking (messages stay where they are). */
  detach(): void;
}

/**
 * Takes every message from `queue` and removes it (outcome done) after `holdMs` (0 = at once). `onTake` may
 * return false to leave the message taken and not removed (a consumer that never finishes).
 */
export function drain(queue: XQueue<Message>, options: { holdMs?: number; onTake?: (m: Message) => boolean } = {}): Drain {
  const received: Message[] = [];
  let attached = true;
  const timers = new Set<NodeJS.Timeout>();
  const handle = queue.attach('test-drain', () => setImmediate(pull));
  function pull(): void {
    if (!attached) return;
    for (let t: Taken<Message> | undefined = queue.take(handle); t; t = attached ? queue.take(handle) : undefined) {
      const taken = t;
      received.push(taken.item);
      if (options.onTake && !options.onTake(taken.item)) continue;
      if (options.holdMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (attached) queue.remove(taken);
        }, options.holdMs);
        timers.add(timer);
      } else queue.remove(taken);
    }
  }
  return {
    received,
    detach() {
      attached = false;
      for (const t of timers) clearTimeout(t);
      queue.detach(handle);
    },
  };
}
