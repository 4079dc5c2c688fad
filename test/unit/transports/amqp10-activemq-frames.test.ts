/**
 * What the ActiveMQ dialect puts on the wire, checked against an in-process AMQP 1.0 peer (rhea's
 * container.listen) that presents itself like ActiveMQ: no ActiveMQ with AMQP runs on these machines.
 */
import rhea = require('rhea');
import { AddressInfo, Server } from 'net';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { eventLoopTurns } from '../../support/wait';
import { VirtualClock } from '../../support/virtual-clock';
import { Clock } from '../../../src/runtime/clock';
import { XQueue, Taken } from '../../../src/xqueue/xqueue';
import { Message } from '../../../src/message/message';

interface Seen {
  containerId?: string;
  hostname?: string;
  user?: string;
  linkName?: string;
  source?: Record<string, unknown>;
  accepted: number;
  /** Deliveries the client gave back (released), by the broker's clock of the test. */
  released: number;
  sender?: rhea.Sender;
}

let server: rhea.Container;
let listener: Server;
let port: number;
let seen: Seen;
let harness: Harness | undefined;

jest.setTimeout(15_000);

beforeEach(async () => {
  seen = { accepted: 0, released: 0 };
  server = rhea.create_container({ id: 'fake-activemq' });
  server.sasl_server_mechanisms.enable_plain((user: string, password: string) => {
    seen.user = user;
    return user === 'app' && password === 'secret';
  });
  server.on('connection_open', (ctx) => {
    const open = ctx.connection.remote.open as { container_id?: string; hostname?: string };
    seen.containerId = open.container_id;
  });
  server.on('sender_open', (ctx) => {
    seen.linkName = ctx.sender.name;
    seen.source = (ctx.sender as unknown as { remote: { attach: { source: Record<string, unknown> } } }).remote.attach.source;
    seen.sender = ctx.sender;
    // echo the source back, as ActiveMQ does (a null source would mean "refused")
    ctx.sender.set_source(seen.source as never);
  });
  server.on('accepted', () => {
    seen.accepted++;
  });
  server.on('released', () => {
    seen.released++;
  });
  server.on('error', () => undefined);
  listener = server.listen({
    port: 0,
    host: '127.0.0.1',
    properties: { 'topic-prefix': 'topic://', 'queue-prefix': 'queue://', product: 'ActiveMQ' },
  } as never) as unknown as Server;
  await new Promise<void>((resolve) => listener.once('listening', () => resolve()));
  port = (listener.address() as AddressInfo).port;
});

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  server.removeAllListeners();
});

function startSubscriber(extra: Record<string, string>, output: XQueue<Message>, clock?: Clock): Harness {
  harness = runComponent(JMS_SUBSCRIBER, {
    config: { Name: 'frames', URI: `amqp://127.0.0.1:${port}`, Username: 'app', Password: 'secret', TopicName: 'orders.eu', Mode: 'daemon', ...extra },
    output,
    clock,
  });
  return harness;
}

function creditOf(sender: rhea.Sender): number {
  return (sender as unknown as { credit: number }).credit;
}

function selectorOf(source: Record<string, unknown> | undefined): { descriptor: unknown; value: unknown } | undefined {
  const filter = source?.filter as Record<string, { descriptor?: unknown; value?: unknown }> | undefined;
  const f = filter?.['jms-selector'];
  return f ? { descriptor: String(f.descriptor), value: f.value } : undefined;
}

it('opens with container id = ClientID and attaches the durable subscription as link SubscriptionID with a durable, never-expiring terminus and the selector filter', async () => {
  startSubscriber({ ClientID: 'client-1', SubscriptionID: 'sub-1', MessageSelector: "colour = 'red' AND qty > 2" }, new XQueue<Message>('out', 8));
  await waitFor(() => seen.source !== undefined, 'the attach');
  expect({
    user: seen.user,
    containerId: seen.containerId,
    linkName: seen.linkName,
    address: seen.source?.address,
    durable: seen.source?.durable,
    expiry: seen.source?.expiry_policy,
    selector: selectorOf(seen.source),
  }).toEqual({
    user: 'app',
    containerId: 'client-1',
    linkName: 'sub-1',
    address: 'topic://orders.eu',
    durable: 2,
    expiry: 'never',
    selector: { descriptor: String(0x468c00000004), value: "colour = 'red' AND qty > 2" },
  });
});

it('attaches a non-durable subscription with a non-durable terminus and no filter when there is no selector', async () => {
  startSubscriber({}, new XQueue<Message>('out', 8));
  await waitFor(() => seen.source !== undefined, 'the attach');
  expect({ durable: seen.source?.durable ?? 0, expiry: seen.source?.expiry_policy, filter: seen.source?.filter ?? undefined }).toEqual({
    durable: 0,
    expiry: 'link-detach',
    filter: undefined,
  });
});

it('substitutes ${CellID} in ClientID and SubscriptionID', async () => {
  startSubscriber({ ClientID: 'client-${CellID}', SubscriptionID: 'sub-${CellID}', CellID: '7' }, new XQueue<Message>('out', 8));
  await waitFor(() => seen.source !== undefined, 'the attach');
  expect({ containerId: seen.containerId, linkName: seen.linkName }).toEqual({ containerId: 'client-7', linkName: 'sub-7' });
});

it('grants credit for the free cells only and accepts a delivery only when the downstream removes it (XAMode 1)', async () => {
  const out = new XQueue<Message>('out', 3);
  startSubscriber({ SubscriptionID: 's', ClientID: 'c' }, out);
  await waitFor(() => seen.sender !== undefined && creditOf(seen.sender) === 3, 'credit 3 (the capacity)');
  const sender = seen.sender!;
  sender.send({ body: 'one', application_properties: { n: 1 } });
  const taken: Taken<Message>[] = [];
  const handle = out.attach('probe', () => undefined);
  await waitFor(() => out.depth === 1, 'the message in the XQueue');
  taken.push(out.take(handle)!);
  await eventLoopTurns(); // an accept sent on arrival would have reached the broker by now
  const acceptedBeforeRemove = seen.accepted;
  out.remove(taken[0]);
  await waitFor(() => seen.accepted === 1, 'the accept');
  await waitFor(() => creditOf(sender) === 3, 'the credit restored');
  out.detach(handle);
  expect({ acceptedBeforeRemove, body: taken[0].item.bodyText(), destination: taken[0].item.headers.JMSDestination }).toEqual({
    acceptedBeforeRemove: 0,
    body: 'one',
    destination: 'topic://orders.eu',
  });
});

it('holds a message the downstream failed for its RedeliveryDelay, doubling, before releasing it to the broker (virtual time)', async () => {
  const clock = new VirtualClock();
  const out = new XQueue<Message>('out', 3);
  startSubscriber({ SubscriptionID: 's', ClientID: 'c', FailedOutcome: 'release', RedeliveryDelay: '1000,60000' }, out, clock);
  await waitFor(() => seen.sender !== undefined && creditOf(seen.sender) === 3, 'credit 3 (the capacity)');
  const handle = out.attach('probe', () => undefined);
  const failOne = async (n: number): Promise<void> => {
    seen.sender!.send({ body: `m${n}` });
    await waitFor(() => out.depth === 1, `message ${n} in the XQueue`);
    out.remove(out.take(handle)!, 'failed');
  };
  const heldFor = async (ms: number, released: number): Promise<void> => {
    clock.advance(ms - 1);
    await eventLoopTurns();
    expect(seen.released).toBe(released - 1); // not a millisecond early
    clock.advance(1);
    await waitFor(() => seen.released === released, `release ${released}`);
  };
  await failOne(1);
  await heldFor(1000, 1);
  await failOne(2);
  await heldFor(2000, 2);
  out.detach(handle);
});

it('retries a refusal of its ClientID as already connected instead of giving up', async () => {
  let opens = 0;
  server.on('connection_open', (ctx) => {
    if (++opens === 1)
      ctx.connection.close({ condition: 'amqp:invalid-field', description: 'Broker: fake - Client: client-1 already connected from tcp://127.0.0.1' });
  });
  const h = startSubscriber({ ClientID: 'client-1', SubscriptionID: 'sub-1' }, new XQueue<Message>('out', 4));
  await waitFor(() => seen.linkName === 'sub-1' && h.status.status === 'RUNNING', 'the subscription on a later attempt');
  expect({ opens, status: h.status.status, containerId: seen.containerId }).toEqual({ opens: 2, status: 'RUNNING', containerId: 'client-1' });
});
