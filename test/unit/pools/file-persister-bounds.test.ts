import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { DEFAULT_MAX_SIZE, FILE_PERSISTER } from '../../../actors/persisters/file-persister';
import { FAST_POLICY } from './pool-support';

/** A server that answers 200 and then sends 64 KB chunks without end; counts the connections it lost. */
async function startEndlessServer(): Promise<{ url: string; closed: () => number; stop: () => Promise<void> }> {
  let closed = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = http.createServer((_req, res) => {
    res.writeHead(200);
    // Endless: another chunk each time the socket has room for it.
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    res.on('close', () => closed++);
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/endless`,
    closed: () => closed,
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

let harness: Harness | undefined;
let server: Awaited<ReturnType<typeof startEndlessServer>> | undefined;

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await server?.stop();
  server = undefined;
});

function run(config: Record<string, string>): XQueue<Message> {
  const input = new XQueue<Message>('in', 4);
  harness = runComponent(FILE_PERSISTER, { config: { Name: 'fp', ...config }, input, policy: FAST_POLICY });
  return input;
}

describe('FilePersister downloads are bounded', () => {
  it('fails the message (RC 1, no retry) once the response passes MaxSize, and drops the connection', async () => {
    server = await startEndlessServer();
    const q = run({ URI: server.url, MaxSize: String(1024 * 1024), Retry: '3', ReceiveTime: '10' });
    const started = Date.now();
    const m = await new Promise<Message>((resolve, reject) => q.put(Message.text(''), (done) => resolve(done)).catch(reject));
    expect(m.getProperty('ReturnCode')).toBe('1');
    expect(Date.now() - started).toBeLessThan(10_000);
    await waitFor(() => server!.closed() === 1, 'connection closed');
  });

  it('ends an exchange that goes on past SOTimeout, however steadily the server sends', async () => {
    server = await startEndlessServer();
    const q = run({ URI: server.url, SOTimeout: '1', MaxSize: String(1024 * 1024 * 1024), PauseTime: '100000', StandbyTime: '100000' });
    void q.put(Message.text(''));
    const started = Date.now();
    await waitFor(() => server!.closed() >= 1, 'the endless exchange ended', 10_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(() => harness!.status.status === 'RETRYING', 'RETRYING');
  });

  it('accepts responses of up to 64 MiB by default', () => {
    expect(DEFAULT_MAX_SIZE).toBe(64 * 1024 * 1024);
  });
});
