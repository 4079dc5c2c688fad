import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { STREAM_PERSISTER } from '../../../actors/persisters/stream-persister';
import { FAST_POLICY, send } from './pool-support';
import { TcpPeer, freePort, startTcpPeer } from './peers';

let peer: TcpPeer | undefined;
let harness: Harness | undefined;
let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-sp-'));
});

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await peer?.close();
  peer = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

function run(config: Record<string, string>, capacity = 8): XQueue<Message> {
  const input = new XQueue<Message>('in', capacity);
  harness = runComponent(STREAM_PERSISTER, { config: { Name: 'sp', ...config }, input, policy: FAST_POLICY });
  return input;
}

describe('StreamPersister', () => {
  it('sends each message and puts the reply up to EOTBytes into the body with RC 0', async () => {
    peer = await startTcpPeer();
    const q = run({ URI: peer.uri, Operation: 'request' });
    const m = await send(q, 'ping\n');
    expect(m.bodyText()).toBe('echo:ping');
    expect(m.getProperty('ReturnCode')).toBe('0');
  });

  it('renders the request from Template and stores the reply in DataField, stamping StringProperty', async () => {
    peer = await startTcpPeer();
    const input = new XQueue<Message>('in', 4);
    harness = runComponent(STREAM_PERSISTER, {
      config: { Name: 'sp', URI: peer.uri, Operation: 'request', Template: '##Id##:##body##\n', DataField: 'Answer', StringProperty: { Via: 'sp' } },
      input,
      policy: FAST_POLICY,
    });
    const m = await new Promise<Message>((resolve) => input.put(Message.text('x', { Id: '7' }), (msg) => resolve(msg)));
    expect(peer.received).toEqual(['7:x']);
    expect(m.getProperty('Answer')).toBe('echo:7:x');
    expect(m.bodyText()).toBe('x');
    expect(m.getProperty('Via')).toBe('sp');
  });

  it('cuts the reply at a multi-byte EOTBytes and trims Offhead/Offtail', async () => {
    peer = await startTcpPeer((l) => `[${l}]\r\n`);
    const q = run({ URI: peer.uri, Operation: 'request', EOTBytes: '0x0d0a', Offhead: '1', Offtail: '1' });
    expect((await send(q, 'abc\n')).bodyText()).toBe('abc');
  });

  it('keeps replies in order over many requests on one connection', async () => {
    peer = await startTcpPeer();
    const q = run({ URI: peer.uri, Operation: 'request' });
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => send(q, `m${i}\n`)));
    expect(replies.map((r) => r.bodyText())).toEqual(Array.from({ length: 50 }, (_, i) => `echo:m${i}`));
    expect(peer.connections).toBe(1);
  });

  it('gives a request that gets no reply RC 256 after Retry re-sends, reconnecting in between', async () => {
    peer = await startTcpPeer(() => undefined);
    const q = run({ URI: peer.uri, Operation: 'request', ReceiveTime: '50', Retry: '1', PauseTime: '10' });
    const m = await send(q, 'lost\n');
    expect(m.getProperty('ReturnCode')).toBe('256');
    expect(peer.received).toEqual(['lost', 'lost']);
    expect(peer.connections).toBeGreaterThanOrEqual(2);
  });

  it('does not take a late reply for the next request', async () => {
    let first = true;
    peer = await startTcpPeer((l, s) => {
      if (first) {
        first = false;
        setTimeout(() => s.writable && s.write(`late:${l}\n`), 120);
        return undefined;
      }
      return `echo:${l}\n`;
    });
    const q = run({ URI: peer.uri, Operation: 'request', ReceiveTime: '60', Retry: '0', PauseTime: '10' });
    expect((await send(q, 'slow\n')).getProperty('ReturnCode')).toBe('256');
    const next = await send(q, 'fast\n');
    expect(next.bodyText()).toBe('echo:fast');
  });

  it('removes an expired request with RC 256 without sending it', async () => {
    peer = await startTcpPeer();
    const q = run({ URI: peer.uri, Operation: 'request' });
    const m = await new Promise<Message>((resolve) => q.put(Message.text('old\n', {}, { JMSExpiration: Date.now() - 1 }), (msg) => resolve(msg)));
    expect(m.getProperty('ReturnCode')).toBe('256');
    expect(peer.received).toEqual([]);
  });

  it('reports RETRYING while the peer is down and delivers once it is up, re-sending the message in flight', async () => {
    const port = await freePort();
    const q = run({ URI: `tcp://127.0.0.1:${port}`, Operation: 'request', PauseTime: '20', StandbyTime: '40' });
    const reply = send(q, 'wait\n');
    await waitFor(() => harness!.status.status === 'RETRYING' && /ECONNREFUSED/.test(harness!.status.get().detail ?? ''), 'RETRYING with the reason');
    const net = await import('node:net');
    const server = net.createServer((s) => s.on('data', (d) => s.write(`up:${d.toString()}`)));
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      expect((await reply).bodyText()).toBe('up:wait');
      expect(harness!.status.status).toBe('RUNNING');
    } finally {
      await harness!.stop();
      harness = undefined;
      server.close();
    }
  });

  it('with operation write appends each message to a file', async () => {
    const file = path.join(tmp, 'out.txt');
    const q = run({ URI: `file://${file}`, Operation: 'write' });
    await send(q, 'a\n');
    await send(q, 'b\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('a\nb\n');
  });

  it('with operation write sends to a TCP peer without waiting for a reply', async () => {
    peer = await startTcpPeer(() => undefined);
    const q = run({ URI: peer.uri, Operation: 'write' });
    const m = await send(q, 'fire\n');
    expect(m.getProperty('ReturnCode')).toBe('0');
    await waitFor(() => peer!.received.length === 1, 'the line at the peer');
  });

  it('hibernates after MaxIdleTime (DISABLED, connection closed) and reconnects for the next message', async () => {
    peer = await startTcpPeer();
    const q = run({ URI: peer.uri, Operation: 'request', MaxIdleTime: '0.1' });
    await send(q, 'one\n');
    await waitFor(() => harness!.status.status === 'DISABLED', 'hibernation');
    await waitFor(() => peer!.sockets.size === 0, 'the connection closed');
    expect((await send(q, 'two\n')).bodyText()).toBe('echo:two');
    expect(peer.connections).toBe(2);
  });

  describe('with Parser', () => {
    const pluginDir = path.resolve(__dirname, '../../fixtures/pools/plugins');

    function runParsed(config: Record<string, unknown>): XQueue<Message> {
      const input = new XQueue<Message>('in', 8);
      // A generous ReceiveTime: on a loaded machine a reply may take longer than the 1 s default.
      harness = runComponent(STREAM_PERSISTER, { config: { Name: 'sp', Operation: 'request', ReceiveTime: '5000', ...config }, input, pluginDirs: [pluginDir], policy: FAST_POLICY });
      return input;
    }

    it('fills a postable event reply into properties and body through the EventParser', async () => {
      peer = await startTcpPeer(() => 'SITE=S&NAME=n&priority=ERR&summary=it failed&delimiter= ~ &content=code ~ 17\n');
      const q = runParsed({ URI: peer.uri, Parser: { ClassName: 'org.qbroker.event.EventParser' } });
      const m = await send(q, 'status?\n');
      expect(m.getProperty('ReturnCode')).toBe('0');
      expect(m.getProperty('site')).toBe('S');
      expect(m.getProperty('priority')).toBe('ERR');
      expect(m.getProperty('code')).toBe('17');
      expect(m.bodyText()).toBe('it failed');
    });

    it('tags the request with its cell id in RCField and takes the reply whose parsed tag matches', async () => {
      peer = await startTcpPeer((line) => {
        const [tag, body] = line.split(':');
        return `999|stray\n${tag}|got ${body}\n`;
      });
      const q = runParsed({ URI: peer.uri, Template: '##ReturnCode##:##body##\n', Parser: { ClassName: 'tagged-parser', ParserArgument: { field: 'Result' } } });
      const m = await send(q, 'x');
      expect(peer.received[0]).toMatch(/^\d+:x$/);
      expect(m.getProperty('Result')).toBe('got x');
      expect(m.getProperty('ReturnCode')).toBe('0');
      expect(harness!.status.get().counters.unmatchedReplies).toBe(1);
    });

    it('removes a request whose reply the parser refuses with RC -1 and the reason in ParseError', async () => {
      peer = await startTcpPeer((line) => (line === 'bad' ? '!broken\n' : `${line}|fine\n`));
      const q = runParsed({ URI: peer.uri, Parser: { ClassName: 'tagged-parser' } });
      const m = await send(q, 'bad\n');
      expect(m.getProperty('ReturnCode')).toBe('-1');
      expect(m.getProperty('ParseError')).toMatch(/refused reply !broken/);
      expect(q.size).toBe(0);
    });

    it('keeps serving requests after a reply the parser refused', async () => {
      peer = await startTcpPeer((line) => {
        const [tag, body] = line.split(':');
        return body === 'bad' ? '!broken\n' : `${tag}|fine\n`;
      });
      const q = runParsed({ URI: peer.uri, Template: '##ReturnCode##:##body##\n', Parser: { ClassName: 'tagged-parser' } });
      await send(q, 'bad');
      const next = await send(q, 'good');
      expect(next.getProperty('Answer')).toBe('fine');
    });

    it('reports a parser plugin outside PluginDir at validation, naming Parser/ClassName', () => {
      const issues = STREAM_PERSISTER.validate!({ URI: 'tcp://127.0.0.1:1', Operation: 'request', Parser: { ClassName: '../outside-parser' } }, tmp, { pluginDirs: [pluginDir] });
      expect(issues[0]).toMatchObject({ property: 'Parser/ClassName', message: expect.stringMatching(/not found in PluginDir/) });
    });
  });

  it('rejects operation request on a file URI at validation', () => {
    expect(STREAM_PERSISTER.validate!({ URI: 'file:///tmp/x', Operation: 'request' }, tmp)[0]).toMatchObject({ property: 'Operation', message: expect.stringMatching(/expected "write" for a file URI/) });
  });
});
