import fs from 'node:fs';
import { validateComponentConfig } from '../../../src/config/validate-component';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { eventLoopTurns } from '../../support/wait';
import { STREAM_PERSISTER } from '../../../actors/persisters/stream-persister';
import { FAST_POLICY, send } from './pool-support';
import { TcpPeer, startTcpPeer } from './peers';
import { freePort } from '../../support/free-port';
import { formatCollectible, parseCollectible } from '../../../actors/persisters/event-text';

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

function run(config: Record<string, unknown>, capacity = 8): XQueue<Message> {
  const input = new XQueue<Message>('in', capacity);
  harness = runComponent(STREAM_PERSISTER, { config: { Name: 'sp', ...config } as Record<string, string>, input, policy: FAST_POLICY });
  return input;
}

/** Puts `texts` at once; resolves with the messages once each came back, counting every completion. */
async function sendAll(q: XQueue<Message>, texts: string[], completions: Map<string, number> = new Map()): Promise<Message[]> {
  return Promise.all(
    texts.map(
      (t) =>
        new Promise<Message>((resolve, reject) => {
          q.put(Message.text(t), (m) => {
            completions.set(t, (completions.get(t) ?? 0) + 1);
            resolve(m);
          }).catch(reject);
        }),
    ),
  );
}

const counter = (name: string) => harness!.status.get().counters[name] ?? 0;

describe('StreamPersister', () => {
  it('sends each message and puts the reply up to EOTBytes into the body with RC 0', async () => {
    peer = await startTcpPeer();
    const q = run({ URI: peer.uri, Operation: 'request' });
    const m = await send(q, 'ping\n');
    expect(m.bodyText()).toBe('echo:ping');
    expect(m.getProperty('ReturnCode')).toBe('0');
  });

  it('puts together a reply that arrives over several reads, each read into the buffer the next one overwrites', async () => {
    peer = await startTcpPeer((l, s) => {
      // Three writes, each read alone: the persister's reads share one buffer (SharedReadSocket), so each overwrites
      // the bytes of the read before.
      const reply = `echo:${l}:${'x'.repeat(40)}\n`;
      s.write(reply.slice(0, 7));
      void eventLoopTurns()
        .then(() => s.writable && s.write(reply.slice(7, 30)))
        .then(() => eventLoopTurns())
        .then(() => s.writable && s.write(reply.slice(30)));
      return undefined;
    });
    const q = run({ URI: peer.uri, Operation: 'request' });
    const replies: (string | undefined)[] = [];
    for (const line of ['a', 'bb', 'ccc']) replies.push((await send(q, `${line}\n`)).bodyText());
    expect(replies).toEqual(['a', 'bb', 'ccc'].map((l) => `echo:${l}:${'x'.repeat(40)}`));
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
    let slow: { line: string; socket: net.Socket } | undefined;
    peer = await startTcpPeer((l, s) => {
      if (slow === undefined) {
        slow = { line: l, socket: s };
        return undefined;
      }
      // The persister gave up on the first request (else this one would not have come): its reply comes late, now.
      if (slow.socket.writable) slow.socket.write(`late:${slow.line}\n`);
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
      harness = runComponent(STREAM_PERSISTER, {
        config: { Name: 'sp', Operation: 'request', ReceiveTime: '5000', ...config },
        input,
        pluginDirs: [pluginDir],
        policy: FAST_POLICY,
      });
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

    it('reads a collectible event line when there is no ParserArgument, as the original EventParser does', async () => {
      const line = formatCollectible(
        new Map([
          ['site', 'S'],
          ['name', 'disk'],
          ['priority', 'WARNING'],
          ['text', 'nearly "full"'],
          ['used', '91%'],
        ]),
      ).trimEnd();
      peer = await startTcpPeer(() => `${line}\n`);
      const q = runParsed({ URI: peer.uri, Parser: { ClassName: 'org.qbroker.event.EventParser' } });
      const m = await send(q, 'status?\n');
      expect([
        m.getProperty('ReturnCode'),
        m.getProperty('site'),
        m.getProperty('name'),
        m.getProperty('priority'),
        m.getProperty('used'),
        m.bodyText(),
      ]).toEqual(['0', 'S', 'disk', 'WARNING', '91%', 'nearly "full"']);
    });

    it('takes the postable text from the first group of a Perl5 ParserArgument', async () => {
      peer = await startTcpPeer(() => 'LOG 12: SITE=S&priority=NOTICE&summary=ok\n');
      const q = runParsed({ URI: peer.uri, Parser: { ClassName: 'org.qbroker.event.EventParser', ParserArgument: '^LOG \\d+: (.+)$' } });
      const m = await send(q, 'status?\n');
      expect([m.getProperty('ReturnCode'), m.getProperty('site'), m.getProperty('priority'), m.bodyText()]).toEqual(['0', 'S', 'NOTICE', 'ok']);
    });

    it('tags the request with its cell id in RCField and takes the reply whose parsed tag matches', async () => {
      peer = await startTcpPeer((line) => {
        const [tag, body] = line.split(':');
        return `999|stray\n${tag}|got ${body}\n`;
      });
      const q = runParsed({
        URI: peer.uri,
        Template: '##ReturnCode##:##body##\n',
        Parser: { ClassName: 'tagged-parser', ParserArgument: { field: 'Result' } },
      });
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
      const issues = validateComponentConfig(
        STREAM_PERSISTER,
        { URI: 'tcp://127.0.0.1:1', Operation: 'request', Parser: { ClassName: '../outside-parser' } },
        tmp,
        { pluginDirs: [pluginDir] },
      );
      expect(issues[0]).toMatchObject({ property: 'Parser/ClassName', message: expect.stringMatching(/not found in PluginDir/) });
    });
  });

  it('rejects operation request on a file URI at validation', () => {
    expect(validateComponentConfig(STREAM_PERSISTER, { URI: 'file:///tmp/x', Operation: 'request' }, tmp)[0]).toMatchObject({
      property: 'Operation',
      message: expect.stringMatching(/expected "write" for a file URI/),
    });
  });
});

describe('StreamPersister multiplexed mode (no Pattern)', () => {
  const lines = (n: number, prefix = 'm') => Array.from({ length: n }, (_, i) => `${prefix}${i}\n`);

  it('pipelines: 100 requests are all written before the server answers any, and each gets its own reply in order', async () => {
    let answered = false;
    peer = await startTcpPeer((_l, s) => {
      if (!answered && peer!.received.length === 100) {
        answered = true;
        s.write(peer!.received.map((l) => `echo:${l}\n`).join(''));
      }
      return undefined;
    });
    const q = run({ URI: peer.uri, Operation: 'request', ReceiveTime: '5000' }, 128);
    const completions = new Map<string, number>();
    const replies = await sendAll(q, lines(100), completions);
    expect(answered).toBe(true);
    expect(replies.map((r) => r.bodyText())).toEqual(lines(100).map((l) => `echo:${l.trim()}`));
    expect([...completions.values()].every((n) => n === 1)).toBe(true);
    expect(peer.connections).toBe(1);
  });

  it('matches replies FIFO: the n-th reply answers the n-th pending request whatever it says', async () => {
    let n = 0;
    peer = await startTcpPeer(() => `reply${n++}\n`);
    const q = run({ URI: peer.uri, Operation: 'request' }, 16);
    const replies = await sendAll(q, lines(10, 'q'));
    expect(replies.map((r) => r.bodyText())).toEqual(Array.from({ length: 10 }, (_, i) => `reply${i}`));
  });

  it('with Parser, the parsed RCField tag selects the pending request when replies come back out of order', async () => {
    const pluginDir = path.resolve(__dirname, '../../fixtures/pools/plugins');
    peer = await startTcpPeer((_l, s) => {
      if (peer!.received.length === 6) {
        const replies = [...peer!.received].reverse().map((l) => {
          const [tag, body] = l.split(':');
          return `${tag}|got ${body}\n`;
        });
        s.write(replies.join(''));
      }
      return undefined;
    });
    const input = new XQueue<Message>('in', 8);
    harness = runComponent(STREAM_PERSISTER, {
      config: {
        Name: 'sp',
        URI: peer.uri,
        Operation: 'request',
        ReceiveTime: '5000',
        Template: '##ReturnCode##:##body##\n',
        Parser: { ClassName: 'tagged-parser' },
      },
      input,
      pluginDirs: [pluginDir],
      policy: FAST_POLICY,
    });
    const replies = await sendAll(input, ['a', 'b', 'c', 'd', 'e', 'f']);
    expect(replies.map((r) => r.getProperty('Answer'))).toEqual(['got a', 'got b', 'got c', 'got d', 'got e', 'got f']);
    expect(replies.every((r) => r.getProperty('ReturnCode') === '0')).toBe(true);
    expect(counter('unmatchedReplies')).toBe(0);
  });

  it('on a reply timeout with several pending, re-sends all of them in order on the next connection: none lost, none completed twice, late replies ignored', async () => {
    let connection = 0;
    let firstSocket: net.Socket | undefined;
    const perConnection: string[][] = [];
    peer = await startTcpPeer(
      (l, s) => {
        const c = (s as unknown as { n: number }).n;
        perConnection[c].push(l);
        if (c === 0) return undefined; // the first connection answers far too late: once the persister gave up on it
        return `echo:${l}\n`;
      },
      (s) => {
        (s as unknown as { n: number }).n = connection++;
        perConnection.push([]);
        if (connection === 1) firstSocket = s;
        else if (connection === 2) for (const l of perConnection[0]) if (firstSocket?.writable) firstSocket.write(`late:${l}\n`);
      },
    );
    const q = run({ URI: peer.uri, Operation: 'request', ReceiveTime: '100', Retry: '1', PauseTime: '10' }, 16);
    const completions = new Map<string, number>();
    const texts = lines(10, 'r');
    const replies = await sendAll(q, texts, completions);
    expect(replies.map((r) => r.bodyText())).toEqual(texts.map((t) => `echo:${t.trim()}`));
    expect(replies.every((r) => r.getProperty('ReturnCode') === '0')).toBe(true);
    expect(perConnection[0]).toEqual(texts.map((t) => t.trim()));
    expect(perConnection[1]).toEqual(texts.map((t) => t.trim()));
    expect(completions.size).toBe(10);
    expect([...completions.values()].every((n) => n === 1)).toBe(true);
    await eventLoopTurns(); // the late replies, sent before the second connection's echoes, are read by now
    expect([...completions.values()].every((n) => n === 1)).toBe(true);
    expect(counter('timeouts')).toBe(1);
    expect(counter('messages')).toBe(10);
    expect(q.size).toBe(0);
  });

  it('charges a reply timeout only to the oldest request: it gets RC 256 after Retry re-sends, the ones behind it are re-sent and answered', async () => {
    let connection = 0;
    // The first two connections never answer; later ones echo.
    peer = await startTcpPeer(
      (l, s) => ((s as unknown as { n: number }).n < 2 ? undefined : `echo:${l}\n`),
      (s) => {
        (s as unknown as { n: number }).n = connection++;
      },
    );
    const q = run({ URI: peer.uri, Operation: 'request', ReceiveTime: '80', Retry: '1', PauseTime: '10' }, 16);
    const completions = new Map<string, number>();
    const replies = await sendAll(q, ['dead\n', 'x\n', 'y\n'], completions);
    expect(replies.map((r) => r.getProperty('ReturnCode'))).toEqual(['256', '0', '0']);
    expect(replies.slice(1).map((r) => r.bodyText())).toEqual(['echo:x', 'echo:y']);
    expect(peer.received).toEqual(['dead', 'x', 'y', 'dead', 'x', 'y', 'x', 'y']);
    expect([...completions.values()].every((n) => n === 1)).toBe(true);
    expect(counter('timeouts')).toBe(2);
  });

  it('removes a pending request with RC 256 when its JMSExpiration passes, without a reply, and goes on on a new connection', async () => {
    peer = await startTcpPeer((l) => (l === 'never' ? undefined : `echo:${l}\n`));
    const q = run({ URI: peer.uri, Operation: 'request', ReceiveTime: '10000', PauseTime: '10' });
    const t0 = Date.now();
    const expired = await new Promise<Message>((resolve) => q.put(Message.text('never\n', {}, { JMSExpiration: Date.now() + 150 }), (m) => resolve(m)));
    expect(expired.getProperty('ReturnCode')).toBe('256');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(peer.received).toEqual(['never']);
    expect(counter('expired')).toBe(1);
    expect((await send(q, 'next\n')).bodyText()).toBe('echo:next');
    expect(peer.received.filter((l) => l === 'never')).toHaveLength(1);
  });

  it('SessionSize renews the connection after that many requests, never cutting a pending one', async () => {
    peer = await startTcpPeer((l, s) => {
      void eventLoopTurns(1).then(() => s.writable && s.write(`echo:${l}\n`)); // answers arrive while others are pending
      return undefined;
    });
    const q = run({ URI: peer.uri, Operation: 'request', SessionSize: '3', ReceiveTime: '5000' }, 16);
    const texts = lines(10, 's');
    const replies = await sendAll(q, texts);
    expect(replies.map((r) => r.bodyText())).toEqual(texts.map((t) => `echo:${t.trim()}`));
    expect(peer.connections).toBe(4);
    expect(counter('sessions')).toBe(3);
    expect(counter('timeouts')).toBe(0);
  });
});

describe('StreamPersister simple mode (Pattern, no login)', () => {
  it('reads until the accumulated reply matches Pattern, one request at a time', async () => {
    peer = await startTcpPeer((l, s) => {
      s.write(`first of ${l}\n`);
      void eventLoopTurns().then(() => s.writable && s.write('second\nEND\n')); // the persister reads the first part alone
      return undefined;
    });
    const q = run({ URI: peer.uri, Operation: 'request', Pattern: '(?m)^END$', ReceiveTime: '2000' });
    const m = await send(q, 'a\n');
    expect(m.bodyText()).toBe('first of a\nsecond\nEND\n');
    expect(m.getProperty('ReturnCode')).toBe('0');
    expect((await send(q, 'b\n')).bodyText()).toBe('first of b\nsecond\nEND\n');
  });

  it('keeps one request in flight: the second is written only after the first reply', async () => {
    const order: string[] = [];
    peer = await startTcpPeer((l, s) => {
      order.push(`in:${l}`);
      // Replies a few turns later: a second request written without waiting for the reply would arrive first.
      void eventLoopTurns(3).then(() => {
        order.push(`out:${l}`);
        if (s.writable) s.write(`${l} done.\n`);
      });
      return undefined;
    });
    const q = run({ URI: peer.uri, Operation: 'request', Pattern: 'done\\.', ReceiveTime: '2000' });
    const replies = await sendAll(q, ['x\n', 'y\n']);
    expect(replies.map((r) => r.bodyText())).toEqual(['x done.\n', 'y done.\n']);
    expect(order).toEqual(['in:x', 'out:x', 'in:y', 'out:y']);
  });

  it('gives RC 256 after Retry re-sends when Pattern never matches within ReceiveTime', async () => {
    peer = await startTcpPeer(() => 'partial\n');
    const q = run({ URI: peer.uri, Operation: 'request', Pattern: 'END', ReceiveTime: '60', Retry: '1', PauseTime: '10' });
    const m = await send(q, 'z\n');
    expect(m.getProperty('ReturnCode')).toBe('256');
    expect(peer.received).toEqual(['z', 'z']);
  });

  it('ends a started reply when the peer closes the connection (as the original read loop)', async () => {
    peer = await startTcpPeer((l, s) => {
      s.end(`bye ${l}\n`);
      return undefined;
    });
    const q = run({ URI: peer.uri, Operation: 'request', Pattern: 'never-matches', ReceiveTime: '2000', PauseTime: '10' });
    expect((await send(q, 'c\n')).bodyText()).toBe('bye c\n');
  });

  it('refuses Pattern with EOTBytes in simple mode, naming Pattern', () => {
    const issues = validateComponentConfig(STREAM_PERSISTER, { URI: 'tcp://127.0.0.1:1', Operation: 'request', Pattern: 'END', EOTBytes: '0x0a' }, tmp);
    expect(issues[0]).toMatchObject({ property: 'Pattern', message: expect.stringMatching(/no SOTBytes\/EOTBytes/) });
  });

  it('refuses a Pattern that is not a valid regular expression, naming Pattern', () => {
    const issues = validateComponentConfig(STREAM_PERSISTER, { URI: 'tcp://127.0.0.1:1', Operation: 'request', Pattern: '(' }, tmp);
    expect(issues[0]).toMatchObject({ property: 'Pattern' });
  });
});

describe('StreamPersister login handshakes', () => {
  /** A server speaking a line login: "LOGIN <user>" → "OK <user>\n" (or "ERR denied\n" for user "bad"), then echo. */
  async function loginPeer(): Promise<TcpPeer> {
    return startTcpPeer((l) => {
      if (l.startsWith('LOGIN ')) return l === 'LOGIN bad' ? 'ERR denied\n' : `OK ${l.slice(6)}\n`;
      if (l === 'QUIT') return undefined;
      return `echo:${l}\n`;
    });
  }

  it('ConnectionRequest: writes each line after connecting and waits for Pattern before any request (multiplexed)', async () => {
    peer = await loginPeer();
    const q = run({ URI: peer.uri, Operation: 'request', ConnectionRequest: ['LOGIN alice', 'LOGIN again'], Pattern: '^OK', ErrorResponse: ['ERR'] });
    const replies = await sendAll(q, ['p\n', 'q\n']);
    expect(replies.map((r) => r.bodyText())).toEqual(['echo:p', 'echo:q']);
    expect(peer.received.slice(0, 2)).toEqual(['LOGIN alice', 'LOGIN again']);
  });

  it('ConnectionRequest: an answer containing an ErrorResponse fails the login (RETRYING with the reason, nothing sent)', async () => {
    peer = await loginPeer();
    const q = run({
      URI: peer.uri,
      Operation: 'request',
      ConnectionRequest: ['LOGIN bad'],
      Pattern: 'OK|ERR',
      ErrorResponse: ['ERR'],
      PauseTime: '50',
      StandbyTime: '100',
    });
    void q.put(Message.text('held\n'));
    await waitFor(
      () => harness!.status.status === 'RETRYING' && /ErrorResponse "ERR"/.test(harness!.status.get().detail ?? ''),
      'RETRYING with the ErrorResponse',
    );
    expect(peer.received).not.toContain('held');
    expect(counter('loginFailures')).toBeGreaterThanOrEqual(1);
  });

  it('CloseRequest is written before the persister closes a connection itself (here: SessionSize renewal)', async () => {
    peer = await loginPeer();
    const q = run({ URI: peer.uri, Operation: 'request', ConnectionRequest: ['LOGIN alice'], Pattern: 'OK', CloseRequest: ['QUIT'], SessionSize: '1' });
    await send(q, 'one\n');
    await send(q, 'two\n');
    await waitFor(() => peer!.received.filter((l) => l === 'QUIT').length >= 1, 'QUIT at the server');
    expect(peer.received.slice(0, 4)).toEqual(['LOGIN alice', 'one', 'QUIT', 'LOGIN alice']);
  });

  it('refuses ConnectionRequest without Pattern, naming Pattern', () => {
    const issues = validateComponentConfig(STREAM_PERSISTER, { URI: 'tcp://127.0.0.1:1', Operation: 'request', ConnectionRequest: ['LOGIN x'] }, tmp);
    expect(issues[0]).toMatchObject({ property: 'Pattern', message: expect.stringMatching(/required with ConnectionRequest/) });
  });

  it('refuses CloseRequest where the original never writes it (multiplexed without a ConnectionRequest login)', () => {
    const issues = validateComponentConfig(STREAM_PERSISTER, { URI: 'tcp://127.0.0.1:1', Operation: 'request', CloseRequest: ['QUIT'] }, tmp);
    expect(issues[0]).toMatchObject({ property: 'CloseRequest' });
  });

  /** A SocketListener stand-in: reads the collectible opening line and answers NOTICE (or ERR for uri "forbidden"). */
  async function destinationPeer(opened: Map<string, string>[]): Promise<TcpPeer> {
    return startTcpPeer((l) => {
      const ev = parseCollectible(l);
      if (ev) {
        opened.push(new Map(ev.attributes));
        const ok = ev.attributes.get('uri') !== 'forbidden';
        return formatCollectible(
          new Map([
            ['priority', ok ? 'NOTICE' : 'ERR'],
            ['text', ok ? 'opened' : 'no such destination'],
          ]),
        );
      }
      return `echo:${l}\n`;
    });
  }

  it('Destination: opens the destination with a collectible event (uri, operation, username, StringProperty) and needs a NOTICE answer', async () => {
    const opened: Map<string, string>[] = [];
    peer = await destinationPeer(opened);
    const q = run({ URI: peer.uri, Operation: 'request', Destination: 'queue://ORDERS', Username: 'bob', StringProperty: { Region: 'eu' } });
    expect((await send(q, 'hello\n')).bodyText()).toBe('echo:hello');
    expect(opened).toHaveLength(1);
    expect(Object.fromEntries(opened[0])).toMatchObject({ uri: 'queue://ORDERS', operation: 'request', username: 'bob', Region: 'eu' });
  });

  it('DestinationProperty: takes URI, Operation and the other entries from the map (and wins over Destination)', async () => {
    const opened: Map<string, string>[] = [];
    peer = await destinationPeer(opened);
    const q = run({ URI: peer.uri, Operation: 'request', Destination: 'ignored', DestinationProperty: { URI: 'topic://T', Operation: 'pub', Mode: 'fast' } });
    expect((await send(q, 'x\n')).bodyText()).toBe('echo:x');
    expect(Object.fromEntries(opened[0])).toMatchObject({ uri: 'topic://T', operation: 'pub', Mode: 'fast' });
  });

  it('Destination: an answer that is not a NOTICE event fails the login with its text', async () => {
    peer = await destinationPeer([]);
    const q = run({ URI: peer.uri, Operation: 'request', Destination: 'forbidden', PauseTime: '50', StandbyTime: '100' });
    void q.put(Message.text('held\n'));
    await waitFor(() => /refused to open the destination \(ERR\): no such destination/.test(harness!.status.get().detail ?? ''), 'RETRYING with the refusal');
    expect(peer.received).not.toContain('held');
  });
});

describe('collectible event lines', () => {
  it('round-trips attributes, text and content escapes through format and parse', () => {
    const line = formatCollectible(
      new Map([
        ['priority', 'NOTICE'],
        ['text', 'a "b" & c=d\nnext'],
        ['uri', 'x ~ y'],
        ['k', 'v=1&2'],
      ]),
    );
    expect(line.endsWith('\n')).toBe(true);
    const ev = parseCollectible(line)!;
    expect(ev.priority).toBe('NOTICE');
    expect(ev.text).toBe('a "b" & c=d\nnext');
    expect(ev.attributes.get('uri')).toBe('x ~ y');
    expect(ev.attributes.get('k')).toBe('v=1&2');
  });

  it('does not read a line that is not collectible', () => {
    expect(parseCollectible('hello world')).toBeUndefined();
  });
});

/** A line-echo server that can crash: every connection dropped at once, nothing listening until `upAgain` resolves. */
class CrashingPeer {
  readonly received: string[] = [];
  connections = 0;
  crashes = 0;
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    readonly port: number,
    private readonly crashAfterLines: readonly number[],
    private readonly upAgain: () => Promise<void>,
  ) {}

  start(): Promise<void> {
    const server = net.createServer((socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      let buf = '';
      socket.on('data', (chunk) => {
        buf += chunk.toString('utf8');
        for (let nl = buf.indexOf('\n'); nl >= 0 && !socket.destroyed; nl = buf.indexOf('\n')) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          this.received.push(line);
          if (this.crashAfterLines.includes(this.received.length)) {
            void this.crash(); // the line that triggers the crash gets no reply
            return;
          }
          socket.write(`echo:${line}\n`);
        }
      });
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
  }

  private async crash(): Promise<void> {
    this.crashes++;
    const server = this.server;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await this.upAgain();
    await this.start();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('StreamPersister through peer crashes (multiplexed, many requests in flight)', () => {
  it('answers every one of 500 pipelined requests exactly once with its own reply through two crashes of the peer', async () => {
    const N = 500;
    // Down until the persister has been refused a connection (its status shows the next attempt).
    const refused = () => waitFor(() => /ECONNREFUSED.*attempt \d+ in/.test(harness?.status.get().detail ?? ''), 'a refused reconnect');
    const crashing = new CrashingPeer(await freePort(), [120, 330], refused);
    await crashing.start();
    try {
      const q = run({ URI: `tcp://127.0.0.1:${crashing.port}`, Operation: 'request', ReceiveTime: '10000', PauseTime: '20', StandbyTime: '40' }, 64);
      const completions = new Array<number>(N).fill(0);
      const outcomes = await Promise.all(
        Array.from(
          { length: N },
          (_, i) =>
            new Promise<Message>((resolve, reject) => {
              q.put(Message.text(`m${i}\n`), (msg) => {
                completions[i]++;
                resolve(msg);
              }).catch(reject);
            }),
        ),
      );
      expect(crashing.crashes).toBe(2);
      expect(completions.filter((c) => c !== 1)).toEqual([]); // none lost, none completed twice
      const wrong = outcomes
        .map((m, i) => [i, m.getProperty('ReturnCode'), m.bodyText()] as const)
        .filter(([i, rc, body]) => rc !== '0' || body !== `echo:m${i}`);
      expect(wrong).toEqual([]); // every request got its own reply
      const distinct = new Set(crashing.received);
      expect(distinct.size).toBe(N); // every request reached the peer; re-sent ones are counted below
      expect(crashing.received.length).toBeGreaterThanOrEqual(N + 2); // at least the two unanswered lines were sent again
      expect(crashing.connections).toBeGreaterThanOrEqual(3);
    } finally {
      await harness?.stop();
      harness = undefined;
      await crashing.stop();
    }
  }, 30_000);
});
