/** The test proxy that cuts a path silently: an echo server behind it shows what passes and what is dropped. */
import * as net from 'net';
import { TcpProxy } from '../../support/tcp-proxy';
import { waitFor } from '../../support/component-harness';

let echo: net.Server;
let echoPort: number;
let proxy: TcpProxy;

beforeAll(async () => {
  echo = net.createServer((s) => s.pipe(s));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
  echoPort = (echo.address() as net.AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

beforeEach(async () => {
  proxy = await TcpProxy.start({ host: '127.0.0.1', port: echoPort });
});

afterEach(async () => {
  await proxy.close();
});

/** A client of the proxy that records what comes back and whether it was closed. */
async function client() {
  const socket = net.connect(proxy.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const c = { socket, received: '', closed: false };
  socket.on('data', (d: Buffer) => (c.received += d.toString()));
  socket.on('close', () => (c.closed = true));
  socket.on('error', () => undefined);
  return c;
}

it('relays both ways while the path is up', async () => {
  const c = await client();
  c.socket.write('ping');
  await waitFor(() => c.received === 'ping', 'the echo');
  c.socket.destroy();
});

it('drops the bytes of an open connection during a cut, keeping its socket open', async () => {
  const c = await client();
  proxy.cut();
  c.socket.write('lost');
  await waitFor(() => proxy.droppedBytes === 4, 'the bytes dropped');
  expect({ received: c.received, closed: c.closed }).toEqual({ received: '', closed: false });
  c.socket.destroy();
});

it('drops the connections the cut broke when the path is back', async () => {
  const c = await client();
  proxy.cut();
  proxy.resume();
  await waitFor(() => c.closed, 'the severed connection closed');
});

it('holds a connection made during the cut and relays what it sent once the path is back', async () => {
  proxy.cut();
  const c = await client();
  c.socket.write('early');
  await waitFor(() => proxy.heldBytes === 5, 'the bytes held');
  expect(c.received).toBe('');
  proxy.resume();
  await waitFor(() => c.received === 'early', 'the held bytes echoed');
  c.socket.destroy();
});
