/**
 * The session incoming window of an AMQP 1.0 receiver with one delivery held unsettled
 * (docs/components/jms-queues.md "One held delivery never stops the receiver"): the buffer that replaces
 * rhea's session ring, and the same against real rhea on both ends (an in-process peer sending as fast as the
 * window lets it). The rhea tests fail when the private ring xroute replaces is renamed or gone, and when
 * rhea's own behaviour changes (then the workaround can go).
 */
import rhea = require('rhea');
import { readFileSync } from 'fs';
import { join } from 'path';
import { AddressInfo, Server } from 'net';
import { IncomingDeliveries } from '../../../src/transports/amqp10-incoming-deliveries';
import { Amqp10Connection, freeWindowOutOfOrder } from '../../../src/transports/amqp10-connection';
import { RheaInternalsError, IncomingWindowOverflowError } from '../../../src/transports/amqp10-errors';
import { waitFor } from '../../support/component-harness';
import { abortPeerConnections } from '../../support/amqp10-test-client';

jest.setTimeout(20_000);

interface Slot {
  id: number;
  settled: boolean;
}

const settled = (d: Slot) => d.settled;

describe('IncomingDeliveries (the session window)', () => {
  it('frees the slot of a delivery settled behind an unsettled one', () => {
    const b = new IncomingDeliveries<Slot>(8);
    const slots = [0, 1, 2, 3, 4, 5].map((id) => ({ id, settled: id !== 0 }));
    for (const s of slots) b.push(s);
    b.pop_if(settled); // 6 of 8: over half full, so the settled ones behind #0 are swept
    expect({ size: b.size, available: b.available(), head: b.get_head()?.id }).toEqual({ size: 1, available: 7, head: 0 });
  });

  it('removes the settled run at the head at once, as rhea does', () => {
    const b = new IncomingDeliveries<Slot>(100);
    for (let id = 0; id < 5; id++) b.push({ id, settled: id < 3 });
    expect(b.pop_if(settled)).toBe(3);
    expect(b.get_head()?.id).toBe(3);
  });

  it('keeps its window above half its capacity minus the unsettled ones while one delivery is held for 10,000 others', () => {
    const b = new IncomingDeliveries<Slot>(2048);
    const held = { id: 0, settled: false };
    b.push(held);
    let lowest = b.available();
    for (let id = 1; id <= 10_000; id++) {
      const d = { id, settled: false };
      b.push(d);
      d.settled = true;
      b.pop_if(settled);
      lowest = Math.min(lowest, b.available());
    }
    expect(lowest).toBe(1024);
    held.settled = true;
    b.pop_if(settled);
    expect(b.size).toBe(0);
  });

  it("finds an unsettled delivery by its id (for the peer's dispositions)", () => {
    const b = new IncomingDeliveries<Slot>(16);
    for (let id = 4_294_967_294; id < 4_294_967_298; id++) b.push({ id: id >>> 0, settled: false });
    expect(b.by_id(1)?.id).toBe(1);
    expect(b.by_id(7)).toBeUndefined();
  });

  it('refuses a delivery beyond its capacity', () => {
    const b = new IncomingDeliveries<Slot>(2);
    b.push({ id: 0, settled: false });
    b.push({ id: 1, settled: false });
    expect(() => b.push({ id: 2, settled: false })).toThrow(IncomingWindowOverflowError);
  });

  it('keeps its deliveries when resized', () => {
    const b = new IncomingDeliveries<Slot>(4);
    b.push({ id: 9, settled: false });
    const bigger = b.resized(4096);
    expect({ capacity: bigger.capacity, size: bigger.size, nine: bigger.by_id(9)?.id }).toEqual({ capacity: 4096, size: 1, nine: 9 });
  });
});

describe('rhea internals xroute relies on', () => {
  it('refuses, naming the field, a rhea whose receiver has no session ring of incoming deliveries', () => {
    const receiver = { session: { incoming: {} } } as unknown as rhea.Receiver;
    expect(() => freeWindowOutOfOrder(receiver, 10)).toThrow(RheaInternalsError);
    expect(() => freeWindowOutOfOrder(receiver, 10)).toThrow(/session\.incoming\.deliveries\.available\(\)/);
  });

  it('pins rhea to the minor version whose internals were checked', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const installed = (JSON.parse(readFileSync(require.resolve('rhea/package.json'), 'utf8')) as { version: string }).version;
    expect({ pinned: pkg.dependencies.rhea, installed: installed.split('.').slice(0, 2).join('.') }).toEqual({ pinned: '~3.0.5', installed: '3.0' });
  });
});

describe('a receiver with one delivery held unsettled, against an in-process rhea peer', () => {
  const TOTAL = 5000;
  let server: rhea.Container;
  let listener: Server;
  let port: number;
  let peers: rhea.Connection[];

  beforeEach(async () => {
    peers = [];
    server = rhea.create_container({ id: 'window-peer' });
    server.sasl_server_mechanisms.enable_plain(() => true);
    server.on('connection_open', (ctx) => peers.push(ctx.connection));
    // The peer sends TOTAL messages as fast as the link credit and the session window let it.
    server.on('sender_open', (ctx) => {
      const sender = ctx.sender as rhea.Sender;
      sender.set_source((sender as unknown as { remote: { attach: { source: unknown } } }).remote.attach.source as never);
      let next = 0;
      const pump = () => {
        while (next < TOTAL && sender.sendable()) sender.send({ body: `m${next}`, message_id: next++ });
      };
      sender.on('sendable', pump);
      pump();
    });
    server.on('disconnected', () => undefined);
    server.on('error', () => undefined);
    // The peer is rhea too, whose sending ring would hold it back behind the held delivery the same way (a
    // broker has no such limit): its ring is made big enough for every message.
    listener = server.listen({ port: 0, host: '127.0.0.1', session_buffer_size: { outgoing: 2 * TOTAL } } as never) as unknown as Server;
    await new Promise<void>((resolve) => listener.once('listening', () => resolve()));
    port = (listener.address() as AddressInfo).port;
  });

  afterEach(async () => {
    abortPeerConnections(peers);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    server.removeAllListeners();
  });

  /** Accepts every delivery but the first, which stays unsettled until `release` is called. */
  function holdFirst(receiver: rhea.Receiver): { arrived: Set<number>; release(): void } {
    const arrived = new Set<number>();
    let first: rhea.Delivery | undefined;
    receiver.on('message', (ctx) => {
      arrived.add(Number(ctx.message?.message_id));
      if (first === undefined) first = ctx.delivery;
      else ctx.delivery?.accept();
    });
    return { arrived, release: () => first?.accept() };
  }

  it('rhea alone closes the session window after 2,048 deliveries behind the held one (amqp/rhea#452)', async () => {
    const conn = rhea.create_container().connect({ host: '127.0.0.1', port, username: 'a', password: 'b', reconnect: false });
    conn.on('disconnected', () => undefined);
    try {
      const receiver = conn.open_receiver({ source: 'q', autoaccept: false, credit_window: 100 });
      const { arrived } = holdFirst(receiver);
      await waitFor(
        () => arrived.size === 2048,
        () => `2,048 deliveries (have ${arrived.size})`,
      );
      const incoming = (receiver.session as unknown as { incoming: { window: number } }).incoming;
      expect({ arrived: arrived.size, window: incoming.window }).toEqual({ arrived: 2048, window: 0 });
    } finally {
      conn.close();
    }
  });

  it('gets every delivery behind the held one through Amqp10Connection, and frees the window when it is settled', async () => {
    const conn = await Amqp10Connection.open({ endpoint: { host: '127.0.0.1', port, tls: false, username: 'a', password: 'b' } });
    try {
      const receiver = await conn.openReceiver({ source: 'q', autoaccept: false, credit_window: 100 }, 300);
      const { arrived, release } = holdFirst(receiver);
      await waitFor(
        () => arrived.size === TOTAL,
        () => `${TOTAL} deliveries (have ${arrived.size})`,
      );
      const ring = (receiver.session as unknown as { incoming: { deliveries: IncomingDeliveries<{ id: number }> } }).incoming.deliveries;
      release();
      await waitFor(
        () => ring.size === 0,
        () => `an empty session buffer (${ring.size} left)`,
      );
      expect({ arrived: arrived.size, capacity: ring.capacity }).toEqual({ arrived: TOTAL, capacity: 2048 });
    } finally {
      await conn.close(500);
    }
  });
});
