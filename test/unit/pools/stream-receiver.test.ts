import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { RECEIVE_TIME_UNUSED, STREAM_RECEIVER } from '../../../actors/receivers/stream-receiver';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { StreamFramer } from '../../../actors/stream/framing';
import { FAST_POLICY, drain } from './pool-support';
import { TcpPeer, startTcpPeer } from './peers';
import { holdTcpConnects } from '../../support/held-tcp-connects';

let peer: TcpPeer | undefined;
let harness: Harness | undefined;
let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-sr-'));
});

afterEach(async () => {
  await harness?.stop();
  harness = undefined;
  await peer?.close();
  peer = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

function run(config: Record<string, string>, capacity = 16): XQueue<Message> {
  const output = new XQueue<Message>('out', capacity);
  harness = runComponent(STREAM_RECEIVER, { config: { Name: 'sr', ...config }, output, policy: FAST_POLICY });
  return output;
}

describe('stream framing', () => {
  it('cuts at EOT across chunk boundaries', () => {
    const f = new StreamFramer({ eot: Buffer.from('\r\n') });
    expect(f.push(Buffer.from('ab\r')).map(String)).toEqual([]);
    expect(f.push(Buffer.from('\ncd\r\nef')).map(String)).toEqual(['ab', 'cd']);
    expect(String(f.flush())).toBe('ef');
  });

  it('drops bytes outside SOT..EOT', () => {
    const f = new StreamFramer({ sot: Buffer.from([1]), eot: Buffer.from([4]) });
    expect(f.push(Buffer.from('noise\x01one\x04junk\x01two\x04')).map(String)).toEqual(['one', 'two']);
  });

  it('with SOT only runs a message to the next SOT and the last to the end', () => {
    const f = new StreamFramer({ sot: Buffer.from('>') });
    expect(f.push(Buffer.from('>a>b')).map(String)).toEqual(['a']);
    expect(String(f.flush())).toBe('b');
  });

  it('drops a message longer than the maximum and keeps the next', () => {
    const f = new StreamFramer({ maxLength: 3 });
    expect(f.push(Buffer.from('toolong')).map(String)).toEqual([]);
    expect(f.push(Buffer.from('er\nok\n')).map(String)).toEqual(['ok']);
    expect(f.dropped).toBe(1);
  });

  it('copies each message out of its chunk by default, so a kept message does not hold the chunk', () => {
    const chunk = Buffer.from('one\n');
    const [msg] = new StreamFramer().push(chunk);
    chunk.write('O');
    expect(String(msg)).toBe('one');
  });

  it('gives the messages of what was fed one take at a time, as push does all at once', () => {
    const f = new StreamFramer({ maxLength: 3 });
    f.feed(Buffer.from('ab\ntoolong\ncd'));
    expect(String(f.take())).toBe('ab');
    expect(f.take()).toBeUndefined();
    f.feed(Buffer.from('\n'));
    expect(String(f.take())).toBe('cd');
    expect(f.take()).toBeUndefined();
    expect(f.dropped).toBe(1);
  });

  it('gives where each message lies in the chunk read, one take at a time, without a Buffer per message', () => {
    const f = new StreamFramer();
    const chunk = Buffer.from('one\ntwo\nthr');
    f.feed(chunk);
    const texts: string[] = [];
    for (let m = f.takeFrame(); m !== undefined; m = f.takeFrame()) {
      expect(m.buf).toBe(chunk);
      texts.push(m.buf.toString('utf8', m.start, m.end));
    }
    f.feed(Buffer.from('ee\n'));
    const last = f.takeFrame();
    expect(last && last.buf.toString('utf8', last.start, last.end)).toBe('three');
    expect(texts).toEqual(['one', 'two']);
  });

  it('is itself the frame each take gives, rewritten by the next, and holds no chunk once all is framed', () => {
    const f = new StreamFramer();
    f.feed(Buffer.from('a\nbb\n'));
    const first = f.takeFrame();
    const firstEnd = first?.end;
    const second = f.takeFrame();
    expect([first === f, second === f, firstEnd, f.start, f.end]).toEqual([true, true, 1, 2, 4]);
    expect([f.takeFrame(), f.buf.length]).toEqual([undefined, 0]);
  });

  it('without copy gives views of the chunk read, for a reader that decodes each message at once', () => {
    const chunk = Buffer.from('one\ntwo\n');
    const msgs = new StreamFramer({ copy: false }).push(chunk);
    chunk.write('O');
    expect(msgs.map(String)).toEqual(['One', 'two']);
  });

  it('with borrowed chunks keeps a copy of the unframed rest, so a lent chunk overwritten by the next read does not change it', () => {
    const lent = Buffer.alloc(8);
    const f = new StreamFramer({ borrowed: true });
    lent.write('one\ntw');
    expect(f.push(lent.subarray(0, 6)).map(String)).toEqual(['one']);
    lent.write('o\nthree');
    expect(f.push(lent.subarray(0, 2)).map(String)).toEqual(['two']);
  });

  it('with borrowed chunks and SOTBytes keeps a copy of a partial SOT at the end of a read', () => {
    const lent = Buffer.alloc(8);
    const f = new StreamFramer({ sot: Buffer.from('<<'), eot: Buffer.from('>'), borrowed: true });
    lent.write('xx<');
    expect(f.push(lent.subarray(0, 3))).toEqual([]);
    lent.write('<a>');
    expect(f.push(lent.subarray(0, 3)).map(String)).toEqual(['a']);
  });
});

describe('StreamReceiver', () => {
  it('reads a file into text messages by EOTBytes and stops at its end', async () => {
    const file = path.join(tmp, 'in.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree');
    const q = run({ URI: `file://${file}` });
    expect((await drain(q, 3)).map((m) => m.bodyText())).toEqual(['one', 'two', 'three']);
    await waitFor(() => harness!.status.status === 'STOPPED', 'STOPPED at end of stream');
  });

  it('makes bytes messages with TextMode 0 and splits by SOTBytes/EOTBytes', async () => {
    const file = path.join(tmp, 'in.bin');
    fs.writeFileSync(file, Buffer.from('x\x01a\x04y\x01b\x04'));
    const q = run({ URI: `file://${file}`, TextMode: '0', SOTBytes: '0x01', EOTBytes: '0x04' });
    const msgs = await drain(q, 2);
    expect(msgs.map((m) => m.body.kind)).toEqual(['bytes', 'bytes']);
    expect(msgs.map((m) => m.bodyText())).toEqual(['a', 'b']);
  });

  it('stops reading while the output queue is full and goes on when cells free up', async () => {
    const file = path.join(tmp, 'big.txt');
    fs.writeFileSync(file, Array.from({ length: 200 }, (_, i) => `l${i}\n`).join(''));
    const q = run({ URI: `file://${file}`, BufferSize: '64' }, 4);
    await waitFor(() => q.stats().size === 4 && q.stats().waitingProducers === 1, 'a full queue and the receiver waiting for a cell');
    expect(q.stats().totalAdded).toBe(4);
    const all = await drain(q, 200);
    expect(all.map((m) => m.bodyText())).toEqual(Array.from({ length: 200 }, (_, i) => `l${i}`));
  });

  it('reads lines a TCP peer sends and stops when the peer closes (default mode)', async () => {
    peer = await startTcpPeer(
      () => undefined,
      (s) => s.end('a\nb\n'),
    );
    const q = run({ URI: peer.uri });
    expect((await drain(q, 2)).map((m) => m.bodyText())).toEqual(['a', 'b']);
    await waitFor(() => harness!.status.status === 'STOPPED', 'STOPPED');
  });

  it('reconnects in daemon mode after the peer closes', async () => {
    let n = 0;
    peer = await startTcpPeer(
      () => undefined,
      (s) => s.end(`conn${++n}\n`),
    );
    const q = run({ URI: peer.uri, Mode: 'daemon', PauseTime: '10' });
    const msgs = await drain(q, 2);
    expect(msgs.slice(0, 2).map((m) => m.bodyText())).toEqual(['conn1', 'conn2']);
  });

  it('follows a growing file in daemon mode', async () => {
    const file = path.join(tmp, 'log.txt');
    fs.writeFileSync(file, 'first\n');
    const q = run({ URI: `file://${file}`, Mode: 'daemon', PauseTime: '20' });
    expect((await drain(q, 1)).map((m) => m.bodyText())).toEqual(['first']);
    fs.appendFileSync(file, 'sec');
    fs.appendFileSync(file, 'ond\n');
    expect((await drain(q, 1)).map((m) => m.bodyText())).toEqual(['second']);
  });

  it('destroys a TCP source whose connect completes after the receiver was stopped', async () => {
    peer = await startTcpPeer(() => undefined);
    const held = holdTcpConnects();
    try {
      run({ URI: peer.uri });
      await waitFor(() => held.started === 1, 'the receiver connecting');
      await harness!.stop();
      held.release();
      await waitFor(() => peer!.connections === 1, 'the connection made after the stop to reach the peer');
      await waitFor(() => peer!.sockets.size === 0, 'the connection made after the stop to be closed');
    } finally {
      held.restore();
    }
  });

  it('stamps StringProperty on every message', async () => {
    const file = path.join(tmp, 'in.txt');
    fs.writeFileSync(file, 'a\n');
    const output = new XQueue<Message>('out', 4);
    harness = runComponent(STREAM_RECEIVER, { config: { Name: 'sr', URI: `file://${file}`, StringProperty: { Source: 'file' } }, output, policy: FAST_POLICY });
    expect((await drain(output, 1))[0].getProperty('Source')).toBe('file');
  });
});

describe('StreamReceiver ReceiveTime', () => {
  it('is reported at validation as having no effect (the original used it only to poll its stop flag), not silently ignored', () => {
    const issues = validateComponentConfig(
      STREAM_RECEIVER as never,
      { ClassName: 'receiver.StreamReceiver', URI: `file://${__filename}`, LinkName: 'in', ReceiveTime: '1000' },
      '/tmp',
    );
    expect(issues).toEqual([{ property: 'ReceiveTime', message: RECEIVE_TIME_UNUSED, severity: 'warning' }]);
  });
});
