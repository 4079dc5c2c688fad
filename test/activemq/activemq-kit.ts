/**
 * Running JMS components against a real ActiveMQ (or Artemis) over AMQP 1.0 in tests: the broker's login, start a
 * component on it, publish and inspect with raw rhea, and close a durable subscription the way a JMS client's
 * unsubscribe does.
 */
import rhea = require('rhea');
import { randomUUID } from 'crypto';
import { Harness, waitFor } from '../support/component-harness';
import { ComponentKit } from '../support/component-kit';
import { closeRheaConnection, OutgoingAmqp, publishAmqp10, TestBroker } from '../support/amqp10-test-client';
import { activemqUrl, hostPort } from '../support/activemq-broker';

/** ActiveMQ accepts any SASL PLAIN login when it has no authentication plugin; a user's broker takes these from the environment. */
export function brokerAt(url: string): TestBroker & { url: string } {
  const { host, port } = hostPort(url);
  return { url, host, port, username: process.env.ACTIVEMQ_USER ?? 'xroute', password: process.env.ACTIVEMQ_PASSWORD ?? 'xroute' };
}

/** The broker at ACTIVEMQ_URL. */
export const ACTIVEMQ = brokerAt(activemqUrl());

/** What every component on `broker` is configured with: its URI, the login, and a short reconnect backoff. */
function brokerLogin(broker: TestBroker & { url: string }): Record<string, string> {
  return { URI: broker.url, Username: broker.username, Password: broker.password, ReconnectBackoff: '100,1000' };
}

export function unique(prefix: string): string {
  return `${prefix}.${randomUUID().slice(0, 8)}`;
}

export async function publish(broker: TestBroker, address: string, messages: readonly OutgoingAmqp[]): Promise<void> {
  await publishAmqp10(address, messages, broker);
}

/**
 * A flow that moves messages from one ActiveMQ queue to another: a JMSReceiver (XAMode 1) into a JMSPersister, so
 * a message is accepted on the input only once the output accepted it. The receiver stamps the StringProperty
 * `Instance` on each message; `credit` is the link Capacity (the receiver's credit window).
 */
export function jmsMoveTopology(inQueue: string, outQueue: string, instance: string, credit: number): Record<string, unknown> {
  const login = brokerLogin(ACTIVEMQ);
  return {
    Name: 'jms-move',
    Description: 'Moves messages from one ActiveMQ queue to another; a message is accepted on the input only once the output accepted it (XAMode 1)',
    Capacity: String(credit),
    XAMode: '1',
    Receiver: ['rcvr_in'],
    Persister: ['pstr_out'],
    rcvr_in: {
      ClassName: 'org.qbroker.receiver.JMSReceiver',
      ...login,
      Operation: 'get',
      QueueName: inQueue,
      LinkName: 'moving',
      Mode: 'daemon',
      XAMode: '1',
      StringProperty: { Instance: instance },
    },
    pstr_out: {
      ClassName: 'org.qbroker.persister.JMSPersister',
      ...login,
      Operation: 'put',
      QueueName: outQueue,
      LinkName: 'moving',
      MaxInFlight: String(credit),
    },
  };
}

/** Components started on one broker, stopped (and their drains detached) by cleanup(). */
export class Kit extends ComponentKit {
  constructor(broker: TestBroker & { url: string } = ACTIVEMQ) {
    super(() => brokerLogin(broker));
  }
}

/** Resolves once the component logged `event` (`count` times). */
export async function logged(h: Harness, event: string, count = 1, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    () => h.logs.filter((l) => l.message === event).length >= count,
    `${h.env.name} ${event} x${count} (status ${JSON.stringify(h.status.get())})`,
    timeoutMs,
  );
}

/**
 * Closes the durable subscription `linkName` of `clientId` as a JMS client's session.unsubscribe() does: attach by
 * name with no source (the broker returns the stored one), then close (detach closed=true). Resolves with the
 * broker's answer: 'removed', or the error condition when there was no such subscription.
 */
export async function unsubscribe(broker: TestBroker, clientId: string, linkName: string): Promise<string> {
  const conn = rhea
    .create_container({ id: clientId })
    .connect({ host: broker.host, port: broker.port, username: broker.username, password: broker.password, reconnect: false });
  try {
    return await new Promise<string>((resolve, reject) => {
      const receiver = conn.open_receiver({ name: linkName, source: null as never, autoaccept: false, credit_window: 0 });
      receiver.on('receiver_open', () => {
        const source = (receiver as unknown as { remote: { attach?: { source?: unknown } } }).remote.attach?.source;
        const value = source && typeof source === 'object' && 'value' in source ? (source as { value: unknown }).value : source;
        if (value === null || value === undefined) return; // refused: receiver_error follows
        receiver.close();
      });
      receiver.on('receiver_close', () => resolve('removed'));
      receiver.on('receiver_error', (ctx) => resolve(String((ctx.receiver?.error as { condition?: string } | undefined)?.condition ?? 'error')));
      conn.on('connection_error', (ctx) => reject(new Error(`connection error: ${String(ctx.connection.error)}`)));
      conn.on('disconnected', (ctx) => reject(new Error(`disconnected: ${String(ctx.error)}`)));
    });
  } finally {
    await closeRheaConnection(conn);
  }
}

/** Counts for a fault test's note: sent, selected, distinct received, lost, duplicated. */
export interface FaultCounts {
  sent: number;
  selected: number;
  received: number;
  lost: number;
  duplicated: number;
}

/** Tallies deliveries by id against the ids that should arrive. */
export class Tally {
  private readonly seen = new Map<string, number>();
  deliveries = 0;

  add(id: string): void {
    this.deliveries++;
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
  }

  get distinct(): number {
    return this.seen.size;
  }

  counts(sent: number, expected: readonly string[]): FaultCounts {
    const lost = expected.filter((id) => !this.seen.has(id)).length;
    return { sent, selected: expected.length, received: this.seen.size, lost, duplicated: this.deliveries - this.seen.size };
  }

  /** Ids received that were not expected (e.g. unselected messages). */
  unexpected(expected: readonly string[]): string[] {
    const want = new Set(expected);
    return [...this.seen.keys()].filter((id) => !want.has(id));
  }
}

/** Prints the counts on one line, for the test log and the notes. */
export function report(test: string, counts: FaultCounts, extra: Record<string, unknown> = {}): void {
  console.log(`activemq fault ${test}: ${JSON.stringify({ ...counts, ...extra })}`);
}
