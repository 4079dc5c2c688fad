/**
 * A TCP socket that reads into one buffer the process shares (net's `onread` option) and hands each read's bytes to
 * its `onBytes`, in place of the 'data' event. A socket read the usual way gets a new 64 KiB buffer from malloc for
 * every read, shrunk to the bytes read, wrapped in an ArrayBuffer and freed by the garbage collector's sweep: on a
 * loopback request/reply that allocation, its sweep and the allocator's consolidation of what was freed cost more
 * than the rest of the read (callgrind, docs/benchmarks.md, pools; issue 32).
 *
 * The bytes are lent: a view of the shared buffer, valid only until `onBytes` returns (the next read of any such socket
 * overwrites them). A reader that keeps any of them copies them first (StreamFramer's `borrowed`).
 */
import net from 'node:net';

/** Node's own read size (a read takes at most this much, as without `onread`). */
const READ_SIZE = 64 * 1024;

/** The one buffer every SharedReadSocket reads into: reads run one at a time, each handed on before the next. */
const SHARED_READ_BUFFER = Buffer.allocUnsafe(READ_SIZE);

/** net calls `onread.callback` as the socket's method: one function for every socket, no closure per socket. */
function deliver(this: SharedReadSocket, bytes: number, buf: Uint8Array): boolean {
  this.onBytes?.((buf as Buffer).subarray(0, bytes));
  return true;
}

/**
 * @types/node lists `onread` only among net.connect's options; net.connect passes its options to this constructor,
 * which is where Node reads `onread` (lib/net.js), so it is given here the same way.
 */
const SHARED_READ_OPTIONS = { onread: { buffer: SHARED_READ_BUFFER, callback: deliver } } as net.SocketConstructorOpts;

export class SharedReadSocket extends net.Socket {
  /** Gets the bytes of each read while set (lent: see the module's comment); while unset they are dropped. */
  onBytes: ((chunk: Buffer) => void) | undefined = undefined;

  constructor() {
    super(SHARED_READ_OPTIONS);
  }
}
