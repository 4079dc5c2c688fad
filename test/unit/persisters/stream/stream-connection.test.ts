import net from 'node:net';
import { StatusReporter } from '../../../../src/runtime/component';
import { silentLogger } from '../../../../src/logging/logger';
import { StreamConnection, StreamConnectionEvents } from '../../../../actors/persisters/stream-connection';
import { ClockTimer, REAL_CLOCK } from '../../../../src/runtime/clock';
import { waitFor } from '../../../support/wait';
import { HeldTcpConnects, holdTcpConnects } from '../../../support/held-tcp-connects';

interface Server {
  port: number;
  /** Every byte each accepted connection sent, by connection. */
  received: string[];
  sockets: net.Socket[];
  close(): Promise<void>;
}

async function startServer(onConnect: (s: net.Socket) => void = () => undefined): Promise<Server> {
  const received: string[] = [];
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    const i = received.push('') - 1;
    sockets.push(socket);
    socket.on('data', (c) => (received[i] += c.toString('utf8')));
    socket.on('error', () => undefined);
    onConnect(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    sockets,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The part of an actor context the connection uses, on the real clock; afterEach clears what is left. */
const timers = new Set<ClockTimer>();
const ctx = {
  guard:
    <A extends unknown[]>(fn: (...args: A) => void | Promise<void>, self?: object) =>
    (...args: A) =>
      void fn.apply(self, args),
  setTimeout: (fn: () => void, ms: number) => {
    const t = REAL_CLOCK.set(fn, ms);
    timers.add(t);
    return t as never;
  },
  clearTimer: (h: unknown) => REAL_CLOCK.clear(h as ClockTimer),
};

let server: Server | undefined;
let conn: StreamConnection | undefined;
let held: HeldTcpConnects | undefined;

afterEach(async () => {
  held?.restore();
  held = undefined;
  conn?.stop();
  conn = undefined;
  for (const t of timers) REAL_CLOCK.clear(t);
  await server?.close();
  server = undefined;
});

function connection(port: number, events: Partial<StreamConnectionEvents> = {}, extra: { closeRequest?: string[]; watchEnd?: boolean } = {}): StreamConnection {
  conn = new StreamConnection({
    name: 'sp',
    host: '127.0.0.1',
    port,
    label: `tcp://127.0.0.1:${port}`,
    connectTimeoutMs: 1000,
    keepAlive: false,
    closeRequest: extra.closeRequest ?? [],
    backoff: { minMs: 20, maxMs: 50 },
    tolerance: 0,
    watchEnd: extra.watchEnd ?? false,
    logger: silentLogger,
    status: new StatusReporter(),
    ctx,
    events: { attached: () => undefined, data: () => undefined, peerEnd: () => undefined, detached: () => undefined, ...events },
  });
  return conn;
}

describe('StreamConnection', () => {
  it('reports each new connection as attached and hands over what the peer sends', async () => {
    server = await startServer((s) => s.write('hello'));
    const chunks: string[] = [];
    let attached = 0;
    connection(server.port, { attached: () => attached++, data: (c) => chunks.push(c.toString()) }).open();
    await waitFor(() => chunks.join('') === 'hello', 'the reply "hello"');
    expect(attached).toBe(1);
  });

  it('reconnects after the peer closes the connection, reporting it detached first', async () => {
    server = await startServer();
    const events: string[] = [];
    connection(server.port, { attached: () => events.push('attached'), detached: () => events.push('detached') }).open();
    await waitFor(() => server!.sockets.length === 1 && conn?.socket !== undefined, 'the connection');
    server.sockets[0].destroy();
    await waitFor(() => events.length === 3, 'three events');
    expect(events).toEqual(['attached', 'detached', 'attached']);
  });

  it('writes CloseRequest before closing a connection itself', async () => {
    server = await startServer();
    const c = connection(server.port, {}, { closeRequest: ['QUIT', 'BYE'] });
    c.open();
    await waitFor(() => c.socket !== undefined, 'the connection');
    c.close();
    await waitFor(() => server!.received[0] === 'QUIT\nBYE\n', 'QUIT and BYE at the server');
    expect(c.socket).toBeUndefined();
  });

  it('opens a new connection when the session is renewed', async () => {
    server = await startServer();
    const c = connection(server.port);
    c.open();
    await waitFor(() => c.socket !== undefined, 'the connection');
    c.renew();
    await waitFor(() => server!.sockets.length === 2 && c.socket !== undefined, 'the second connection');
    expect(server.sockets.length).toBe(2);
  });

  it('hands the events the socket it attached, and nothing read from it once it is dropped', async () => {
    server = await startServer();
    const chunks: string[] = [];
    const attachedTo: net.Socket[] = [];
    const c = connection(server.port, { attached: (socket) => attachedTo.push(socket), data: (chunk) => chunks.push(chunk.toString()) });
    c.open();
    await waitFor(() => c.socket !== undefined && server!.sockets.length === 1, 'the connection');
    const first = c.socket as net.Socket;
    c.drop(new Error('out of step'));
    // What the old socket still reads (here pushed as if from the wire) no longer reaches the events.
    first.emit('data', Buffer.from('late reply'));
    await waitFor(() => attachedTo.length === 2, 'the next connection');
    expect([attachedTo[0] === first, attachedTo[1] === c.socket, chunks]).toEqual([true, true, []]);
  });

  it('ignores a drop for a socket that is no longer the current one', async () => {
    server = await startServer();
    let detached = 0;
    const c = connection(server.port, { detached: () => detached++ });
    c.open();
    await waitFor(() => c.socket !== undefined, 'the connection');
    c.drop(new Error('stale'), new net.Socket());
    expect([detached, c.socket !== undefined]).toEqual([0, true]);
  });

  /** A connection to a server that counts the connections closed, its connect held (holdTcpConnects) and started. */
  async function connectingHeld() {
    let closed = 0;
    let attached = 0;
    server = await startServer((s) => s.on('close', () => closed++));
    const h = holdTcpConnects();
    held = h;
    const c = connection(server.port, { attached: () => attached++ });
    c.open();
    await waitFor(() => h.started === 1, 'the connection connecting');
    return { c, held: h, closed: () => closed, attached: () => attached };
  }

  it('closes a connection whose connect completes after it was stopped, without attaching it', async () => {
    const { c, held, closed, attached } = await connectingHeld();
    c.stop();
    held.release();
    await waitFor(() => server!.sockets.length === 1 && closed() === 1, 'the connection made after the stop to reach the server and be closed');
    expect([attached(), c.socket]).toEqual([0, undefined]);
  });

  it('closes a connection whose connect completes after the session was renewed, and attaches the new one', async () => {
    const { c, held, closed, attached } = await connectingHeld();
    c.renew();
    await waitFor(() => held.started === 2, 'the connect of the renewed session');
    held.release();
    await waitFor(() => server!.sockets.length === 2 && closed() === 1 && c.socket !== undefined, 'one connection closed, the other attached');
    expect(attached()).toBe(1);
  });

  it('reports the peer ending the stream when asked to', async () => {
    server = await startServer((s) => s.end('last words'));
    let ended = false;
    connection(server.port, { peerEnd: () => (ended = true) }, { watchEnd: true }).open();
    await waitFor(() => ended, 'the end event');
    expect(ended).toBe(true);
  });
});
