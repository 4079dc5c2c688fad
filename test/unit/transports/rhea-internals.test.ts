/**
 * The private fields of rhea that xroute reads, all through src/transports/amqp10-connection.ts, checked on real
 * rhea at both ends of an in-process connection: these tests fail when the installed rhea renames or drops one
 * (package.json pins the minor version they were checked with; amqp10-incoming-window.test.ts checks the
 * session's incoming ring).
 */
import rhea = require('rhea');
import { AddressInfo, Server } from 'net';
import { deliveryRejection, sessionHasRoom } from '../../../src/transports/amqp10-connection';
import { waitFor } from '../../support/component-harness';
import { abortPeerConnections } from '../../support/amqp10-test-client';

jest.setTimeout(20_000);

let server: rhea.Container;
let listener: Server;
let port: number;
let peers: rhea.Connection[];
let client: rhea.Connection | undefined;

beforeEach(async () => {
  peers = [];
  server = rhea.create_container({ id: 'internals-peer' });
  server.sasl_server_mechanisms.enable_plain(() => true);
  server.on('connection_open', (ctx) => peers.push(ctx.connection));
  // The peer refuses every message, with a condition and a description.
  server.on('message', (ctx) => ctx.delivery?.reject({ condition: 'amqp:not-allowed', description: 'refused by the test peer' }));
  server.on('disconnected', () => undefined);
  server.on('error', () => undefined);
  listener = server.listen({ port: 0, host: '127.0.0.1' }) as unknown as Server;
  await new Promise<void>((resolve) => listener.once('listening', () => resolve()));
  port = (listener.address() as AddressInfo).port;
});

afterEach(async () => {
  client?.close();
  client = undefined;
  abortPeerConnections(peers);
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

/** A client connection (idle timeout on, as xroute opens them) and a sender, both open. */
async function openSender(): Promise<{ conn: rhea.Connection; sender: rhea.Sender }> {
  const container = rhea.create_container();
  container.on('error', () => undefined);
  // Closing in afterEach disconnects it: heard here, not warned on the console after the test is done.
  container.on('disconnected', () => undefined);
  const conn = container.connect({ host: '127.0.0.1', port, username: 'a', password: 'b', reconnect: false, idle_time_out: 10_000 });
  client = conn;
  const sender = conn.open_sender('q');
  await waitFor(() => sender.is_open() && sender.sendable(), 'the sender to open with credit');
  return { conn, sender };
}

describe("rhea's private fields xroute reads", () => {
  it("has the connection's abort_socket(), which Amqp10Connection.abort() calls", async () => {
    const { conn } = await openSender();
    expect(typeof (conn as unknown as { abort_socket?: unknown }).abort_socket).toBe('function');
  });

  it("arms the connection's heartbeat_in timer, which Amqp10Connection.abort() clears", async () => {
    const { conn } = await openSender();
    expect((conn as unknown as { heartbeat_in?: unknown }).heartbeat_in).toBeDefined();
  });

  it("has the session's bounded outgoing buffer, which sessionHasRoom reads", async () => {
    const { sender } = await openSender();
    const outgoing = (sender.session as unknown as { outgoing?: { available?: unknown } }).outgoing;
    expect({ available: typeof outgoing?.available, room: sessionHasRoom(sender) }).toEqual({ available: 'function', room: true });
  });

  it("keeps the broker's rejection in the delivery's remote_state, which deliveryRejection reads", async () => {
    const { sender } = await openSender();
    const rejected = new Promise<rhea.Delivery>((resolve) => sender.once('rejected', (ctx: rhea.EventContext) => resolve(ctx.delivery as rhea.Delivery)));
    sender.send({ body: 'refused' });
    expect(deliveryRejection(await rejected)).toMatchObject({ condition: 'amqp:not-allowed', description: 'refused by the test peer' });
  });
});
