import { Writable } from 'node:stream';
import { coalesceWrites } from '../../../src/transports/amqp091-connection';

/** A socket stand-in that records each system call it would make: one per _write or _writev. */
function recordingSocket(): { socket: Writable; calls: string[][] } {
  const calls: string[][] = [];
  const socket = new Writable({
    write(chunk: Buffer, _enc, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      done();
    },
  });
  return { socket, calls };
}

const nextTick = () => new Promise<void>((r) => process.nextTick(r));

describe('coalesceWrites (amqplib socket writes, issue 32)', () => {
  it('sends the chunks written in one callback as one write', async () => {
    const { socket, calls } = recordingSocket();
    coalesceWrites(socket);
    socket.write('publish');
    socket.write('ack');
    socket.write('publish 2');
    await nextTick();
    expect(calls).toEqual([['publish', 'ack', 'publish 2']]);
  });

  it('sends what a later callback writes in a write of its own, in order', async () => {
    const { socket, calls } = recordingSocket();
    coalesceWrites(socket);
    socket.write('a');
    await nextTick();
    socket.write('b');
    socket.write('c');
    await nextTick();
    expect(calls).toEqual([['a'], ['b', 'c']]);
  });

  it('still calls each write callback once its chunk is written', async () => {
    const { socket } = recordingSocket();
    coalesceWrites(socket);
    const written: string[] = [];
    socket.write('x', () => written.push('x'));
    socket.write('y', 'utf8', () => written.push('y'));
    await new Promise<void>((r) => setImmediate(r));
    expect(written).toEqual(['x', 'y']);
  });
});
