/**
 * SharedReadSocket (actors/stream/shared-read-socket.ts): a TCP socket whose reads land in one buffer the process
 * shares and are handed to onBytes, lent, in place of 'data' events.
 */
import net from 'node:net';
import { SharedReadSocket } from '../../../../actors/stream/shared-read-socket';
import { waitFor } from '../../../support/wait';

let server: net.Server | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that writes `greeting` to each connection and then ends it if `end`. */
async function serve(greeting: (n: number) => string, end = false): Promise<number> {
  let n = 0;
  server = net.createServer((s) => {
    sockets.push(s);
    if (end) s.end(greeting(n++));
    else s.write(greeting(n++));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function connect(port: number, onBytes?: (chunk: Buffer) => void): Promise<SharedReadSocket> {
  const s = new SharedReadSocket();
  s.onBytes = onBytes;
  sockets.push(s);
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.connect({ host: '127.0.0.1', port }, () => resolve(s));
  });
}

describe('SharedReadSocket', () => {
  it('hands the bytes of each read to onBytes', async () => {
    const port = await serve(() => 'hello');
    let text = '';
    await connect(port, (chunk) => (text += chunk.toString('utf8')));
    await waitFor(() => text === 'hello', 'the bytes read');
  });

  it('lends every socket the same buffer: each read is a view of it', async () => {
    const port = await serve((n) => `reply ${n}`);
    const views: Buffer[] = [];
    const texts: string[] = [];
    const keep = (chunk: Buffer): void => {
      views.push(chunk);
      texts.push(chunk.toString('utf8'));
    };
    await connect(port, keep);
    await waitFor(() => views.length === 1, 'the first read');
    await connect(port, keep);
    await waitFor(() => views.length === 2, 'the second read');
    expect([views[0].buffer === views[1].buffer, views[0].byteOffset, views[1].byteOffset]).toEqual([true, 0, 0]);
    expect(texts).toEqual(['reply 0', 'reply 1']);
  });

  it('drops what it reads while onBytes is unset, and still reports end and close', async () => {
    const port = await serve(() => 'unread', true);
    const s = await connect(port);
    let ended = false;
    let closed = false;
    s.on('end', () => (ended = true));
    s.on('close', () => (closed = true));
    await waitFor(() => ended && closed, 'end and close');
    expect(s.bytesRead).toBe('unread'.length);
  });
});
