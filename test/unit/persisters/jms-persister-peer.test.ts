/**
 * JMSPersister / JMSPublisher settlement rules, checked against an in-process AMQP 1.0 peer (rhea's
 * container.listen) presenting itself like ActiveMQ, which settles each delivery only when the test says so.
 */
import rhea = require('rhea');
import { AddressInfo, Server } from 'net';
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { JMS_PUBLISHER } from '../../../actors/persisters/jms-publisher';
import { AnyComponentDefinition } from '../../../src/runtime/component';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { eventLoopTurns } from '../../support/wait';
import { Outcome, XQueue } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';
import { abortPeerConnections } from '../../support/amqp10-test-client';

interface Arrived {
  body: unknown;
  id: unknown;
  delivery: rhea.Delivery;
}

let server: rhea.Container;
let listener: Server;
let port: number;
let arrived: Arrived[];
let target: Record<string, unknown> | undefined;
let connections: rhea.Connection[];
let harness: Harness | undefined;

jest.setTimeout(15_000);

beforeEach(async () => {
  arrived = [];
  connections = [];
  target = undefined;
  server = rhea.create_container({ id: 'fake-activemq' });
  server.sasl_server_mechanisms.enable_plain(() => true);
  server.on('connection_open', (ctx) => connections.push(ctx.connection));
  server.on('receiver_open', (ctx) => {
    target = (ctx.receiver as unknown as { remote: { attach: { target: Record<string, unknown> } } }).remote.attach.target;
    ctx.receiver.set_target(target as never);
  });
  server.on('message', (ctx) => {
    arrived.push({ body: ctx.message?.body, id: ctx.message?.message_id, delivery: ctx.delivery as rhea.Delivery });
  });
  server.on('disconnected', () => undefined);
  server.on('error', () => undefined);
  listener = server.listen({
    port: 0,
    host: '127.0.0.1',
    autoaccept: false,
    properties: { 'topic-prefix': 'topic://', 'queue-prefix': 'queue://', product: 'ActiveMQ' },
  } as never) as unknown as Server;
  await new Promise<void>((resolve) => listener.once('listening', () => resolve()));
  port = (listener.address() as AddressInfo).port;
});

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  abortPeerConnections(connections);
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  server.removeAllListeners();
});

function start(def: AnyComponentDefinition, extra: Record<string, string>): XQueue<Message> {
  const input = new XQueue<Message>('in', 16);
  harness = runComponent(def, {
    config: { Name: 'peer', URI: `amqp://127.0.0.1:${port}`, Username: 'app', Password: 'secret', ReconnectBackoff: '50,200', ...extra },
    input,
  });
  return input;
}

function put(input: XQueue<Message>, msg: Message, outcomes: Outcome[]): void {
  void input.put(msg, (_m, outcome) => outcomes.push(outcome));
}

describe('JMSPersister settlement against an AMQP 1.0 peer', () => {
  it('keeps a message in its input XQueue until the broker accepted it', async () => {
    const input = start(JMS_PERSISTER, { QueueName: 'orders' });
    const outcomes: Outcome[] = [];
    put(input, Message.text('hold me'), outcomes);
    await waitFor(() => arrived.length === 1, 'the delivery at the peer');
    await eventLoopTurns(); // a removal on sending would have happened by now
    const whileUnsettled = { size: input.size, outcomes: [...outcomes] };
    arrived[0].delivery.accept();
    await waitFor(() => outcomes.length === 1, 'the removal');
    expect({ whileUnsettled, after: { size: input.size, outcomes }, target: { address: target?.address, capabilities: target?.capabilities } }).toEqual({
      whileUnsettled: { size: 1, outcomes: [] },
      after: { size: 0, outcomes: ['done'] },
      target: { address: 'queue://orders', capabilities: ['queue'] },
    });
  });

  it('sends a rejected message again SendRetries times, then removes it as failed', async () => {
    server.on('message', (ctx) => (ctx.delivery as rhea.Delivery).reject({ condition: 'amqp:resource-limit-exceeded', description: 'full' }));
    const input = start(JMS_PERSISTER, { QueueName: 'orders', SendRetries: '2', RetryDelay: '20' });
    const outcomes: Outcome[] = [];
    put(input, Message.text('refused'), outcomes);
    await waitFor(() => outcomes.length === 1, 'the outcome');
    expect({ attempts: arrived.length, outcomes, rejected: harness!.status.get().counters.rejected }).toEqual({
      attempts: 3,
      outcomes: ['failed'],
      rejected: 3,
    });
  });

  it('sends a released message again and removes it once accepted', async () => {
    server.on('message', (ctx) => {
      const d = ctx.delivery as rhea.Delivery;
      if (arrived.length === 1) d.release();
      else d.accept();
    });
    const input = start(JMS_PERSISTER, { QueueName: 'orders', RetryDelay: '20' });
    const outcomes: Outcome[] = [];
    put(input, Message.text('again'), outcomes);
    await waitFor(() => outcomes.length === 1, 'the outcome');
    expect({ attempts: arrived.length, outcomes }).toEqual({ attempts: 2, outcomes: ['done'] });
  });

  it('sends again, after reconnecting, every message left unsettled when the connection died', async () => {
    const input = start(JMS_PERSISTER, { QueueName: 'orders' });
    const outcomes: Outcome[] = [];
    for (const b of ['a', 'b', 'c']) put(input, Message.text(b), outcomes);
    await waitFor(() => arrived.length === 3, 'three unsettled deliveries');
    (connections[0] as unknown as { socket: { destroy(): void } }).socket.destroy();
    await waitFor(() => arrived.length === 6, 'the three sent again');
    for (const a of arrived.slice(3)) a.delivery.accept();
    await waitFor(() => outcomes.length === 3, 'three removals');
    expect({ again: arrived.slice(3).map((a) => a.body), outcomes, resent: harness!.status.get().counters.resent, size: input.size }).toEqual({
      again: ['a', 'b', 'c'],
      outcomes: ['done', 'done', 'done'],
      resent: 3,
      size: 0,
    });
  });

  it('right after a reconnection, skips a message with the id of the message the broker accepted last', async () => {
    server.on('message', (ctx) => (ctx.delivery as rhea.Delivery).accept());
    const input = start(JMS_PERSISTER, { QueueName: 'orders' });
    const outcomes: Outcome[] = [];
    put(input, Message.text('first', {}, { JMSMessageID: 'ID:same' }), outcomes);
    await waitFor(() => outcomes.length === 1, 'the first accepted');
    (connections[0] as unknown as { socket: { destroy(): void } }).socket.destroy();
    await waitFor(() => connections.length === 2 && harness!.status.status === 'RUNNING', 'the reconnection');
    put(input, Message.text('first again', {}, { JMSMessageID: 'ID:same' }), outcomes);
    put(input, Message.text('next', {}, { JMSMessageID: 'ID:next' }), outcomes);
    await waitFor(() => outcomes.length === 3, 'all three removed');
    expect({ sent: arrived.map((a) => a.body), outcomes, skipped: harness!.status.get().counters.duplicateSkipped }).toEqual({
      sent: ['first', 'next'],
      outcomes: ['done', 'done', 'done'],
      skipped: 1,
    });
  });
});

describe('JMSPublisher against an AMQP 1.0 peer', () => {
  it('publishes to the topic address with the topic capability and ClientID as container id', async () => {
    let containerId: string | undefined;
    server.on('connection_open', (ctx) => (containerId = (ctx.connection.remote.open as { container_id?: string }).container_id));
    server.on('message', (ctx) => (ctx.delivery as rhea.Delivery).accept());
    const input = start(JMS_PUBLISHER, { TopicName: 'prices.eu', ClientID: 'pub-${CellID}', CellID: '4' });
    const outcomes: Outcome[] = [];
    put(input, Message.text('tick'), outcomes);
    await waitFor(() => outcomes.length === 1, 'the outcome');
    expect({ address: target?.address, capabilities: target?.capabilities, containerId, outcomes }).toEqual({
      address: 'topic://prices.eu',
      capabilities: ['topic'],
      containerId: 'pub-4',
      outcomes: ['done'],
    });
  });
});
