import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { FILE_PERSISTER } from '../../../actors/persisters/file-persister';
import { FAST_POLICY, send, startPool, RunningPool } from './pool-support';
import { HttpPeer, startHttpPeer } from './peers';
import { freePort } from '../../support/free-port';

let http: HttpPeer | undefined;
let harness: Harness | undefined;
let pool: RunningPool | undefined;
let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-fp-'));
});

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await pool?.stop();
  pool = undefined;
  await http?.close();
  http = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

function run(config: Record<string, string>): XQueue<Message> {
  const input = new XQueue<Message>('in', 8);
  harness = runComponent(FILE_PERSISTER, { config: { Name: 'fp', ...config }, input, baseDir: tmp, policy: FAST_POLICY });
  return input;
}

function sendMsg(q: XQueue<Message>, msg: Message): Promise<Message> {
  return new Promise((resolve, reject) => q.put(msg, (m) => resolve(m)).catch(reject));
}

describe('FilePersister', () => {
  it('downloads the URI over http into the body with RC 0', async () => {
    http = await startHttpPeer({ '/a.txt': 'content A' });
    const q = run({ URI: `${http.base}/a.txt` });
    const m = await send(q, '');
    expect(m.bodyText()).toBe('content A');
    expect(m.getProperty('ReturnCode')).toBe('0');
  });

  it('downloads the path a message names in FieldName, resolved against the URI', async () => {
    http = await startHttpPeer({ '/docs/b.txt': 'content B' });
    const q = run({ URI: `${http.base}/docs/`, FieldName: 'Path' });
    expect((await sendMsg(q, Message.text('', { Path: 'b.txt' }))).bodyText()).toBe('content B');
  });

  it('stores a download in the local file the message names (StoreField), creating directories', async () => {
    http = await startHttpPeer({ '/c.txt': 'content C' });
    const q = run({ URI: `${http.base}/c.txt`, StoreField: 'Local' });
    const m = await sendMsg(q, Message.text('keep', { Local: 'sub/dir/c.txt' }));
    expect(fs.readFileSync(path.join(tmp, 'sub/dir/c.txt'), 'utf8')).toBe('content C');
    expect(m.bodyText()).toBe('keep');
  });

  it('answers RC 1 for a missing remote file (HTTP 404) without retrying', async () => {
    http = await startHttpPeer({});
    const q = run({ URI: `${http.base}/missing`, Retry: '3', ReceiveTime: '10' });
    expect((await send(q, '')).getProperty('ReturnCode')).toBe('1');
    expect(http.requests).toHaveLength(1);
  });

  it('retries a server error Retry times ReceiveTime apart, then reports RETRYING and keeps the message', async () => {
    http = await startHttpPeer({});
    const q = run({ URI: `${http.base}/fail-500`, Retry: '2', ReceiveTime: '10', PauseTime: '1000' });
    q.offer(Message.text(''));
    await waitFor(() => harness!.status.status === 'RETRYING', 'RETRYING');
    expect(http.requests).toHaveLength(3);
    expect(harness!.status.get().detail).toMatch(/HTTP 500/);
    expect(q.stats().size).toBe(1);
  });

  it('keeps retrying an unreachable server and delivers once it answers', async () => {
    const port = await freePort();
    const q = run({ URI: `http://127.0.0.1:${port}/late.txt`, PauseTime: '20', StandbyTime: '40' });
    const got = send(q, '');
    await waitFor(() => harness!.status.status === 'RETRYING', 'RETRYING');
    const nodeHttp = await import('node:http');
    const server = nodeHttp.createServer((_req, res) => res.end('finally'));
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      expect((await got).bodyText()).toBe('finally');
      expect(harness!.status.status).toBe('RUNNING');
    } finally {
      await harness!.stop();
      harness = undefined;
      server.closeAllConnections();
      server.close();
    }
  });

  it('posts the message with operation store and loads the answer', async () => {
    http = await startHttpPeer({});
    const q = run({ URI: `${http.base}/servlet`, Operation: 'store', Template: 'v=##body##' });
    const m = await send(q, 'x');
    expect(http.requests[0]).toMatchObject({ method: 'POST', url: '/servlet', body: 'v=x' });
    expect(m.bodyText()).toBe('stored:v=x');
  });

  it('downloads a local file named by the URI or by the message FileName', async () => {
    fs.writeFileSync(path.join(tmp, 'one.txt'), 'ONE');
    fs.writeFileSync(path.join(tmp, 'two.txt'), 'TWO');
    const q = run({ URI: `file://${path.join(tmp, 'one.txt')}` });
    expect((await send(q, '')).bodyText()).toBe('ONE');
    expect((await sendMsg(q, Message.text('', { FileName: path.join(tmp, 'two.txt') }))).bodyText()).toBe('TWO');
    expect((await sendMsg(q, Message.text('', { FileName: path.join(tmp, 'none.txt') }))).getProperty('ReturnCode')).toBe('1');
  });

  it('stores a message into a local file with operation store', async () => {
    const q = run({ URI: `file://${path.join(tmp, 'out/x.txt')}`, Operation: 'store' });
    await send(q, 'written');
    expect(fs.readFileSync(path.join(tmp, 'out/x.txt'), 'utf8')).toBe('written');
  });

  it('is handed out by PersisterPool for an http URI with Operation=download', async () => {
    http = await startHttpPeer({ '/p.txt': 'pooled' });
    pool = startPool('persister', {});
    const handle = await pool.client.request({ URI: `${http.base}/p.txt?Operation=download` });
    expect(handle.className).toBe('persister.FilePersister');
    expect((await send(handle.transmit, '')).bodyText()).toBe('pooled');
  });
});
