/**
 * Cuts a byte stream into messages by start-of-text and end-of-text byte sequences (SOTBytes / EOTBytes,
 * written as hex strings such as "0x0a" or "0x0d0a"), shared by StreamReceiver (splitting a stream)
 * and StreamPersister (reading a reply).
 *  - EOTBytes only: each EOT ends a message (the EOT is not part of it);
 *  - SOTBytes and EOTBytes: bytes before an SOT are dropped, the message runs from after SOT to EOT;
 *  - SOTBytes only: a message runs from one SOT to the next (the last one ends at end of stream);
 *  - neither: newline (0x0a) ends a message, as the original's reply default.
 * Messages longer than maxLength are dropped and counted.
 */
import { XrouteError } from '../../src/foundation/xroute-error';
export class HexBytesError extends XrouteError {
  constructor(
    readonly property: string,
    readonly value: string,
  ) {
    super(`${property} ${JSON.stringify(value)}: expected hex bytes with a 2-character prefix, e.g. "0x0a" or "0x0d0a"`);
    this.name = 'HexBytesError';
  }
}

/** "0x0d0a" → <0d 0a>. The original skips the first two characters whatever they are. */
export function parseHexBytes(property: string, value: string | undefined): Buffer | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const hex = value.trim().slice(2);
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) throw new HexBytesError(property, value);
  return Buffer.from(hex, 'hex');
}

export interface FramingOptions {
  sot?: Buffer;
  eot?: Buffer;
  /** Longest message kept; default 4 MiB as in the original. */
  maxLength?: number;
  /**
   * false: messages are views of the chunks read (no copy), for a reader that converts or copies each one
   * at once; default true, so a kept message does not hold on to the whole chunk it came in.
   */
  copy?: boolean;
  /**
   * true: each chunk fed is lent, valid only until the framing that follows its feed is done (SharedReadSocket): what
   * is left of it unframed, when takeFrame runs out, is copied. Default false: the framer keeps the chunks themselves.
   */
  borrowed?: boolean;
}

export const DEFAULT_MAX_MSG_LENGTH = 4 * 1024 * 1024;
const NEWLINE = Buffer.from([0x0a]);
const EMPTY = Buffer.alloc(0);

/** Where `needle` starts in `buf` at or after `from`; a one-byte needle is searched as a byte (memchr, no Buffer needle). */
function find(buf: Buffer, needle: Buffer, from: number): number {
  return needle.length === 1 ? buf.indexOf(needle[0], from) : buf.indexOf(needle, from);
}

/** A message framed in a chunk read: bytes start..end (exclusive) of buf. */
export interface Frame {
  buf: Buffer;
  start: number;
  end: number;
}

/**
 * A framer is also the Frame its takeFrame() gives: its last message's place, rewritten by each take. One object per
 * reply read, not two (with 512 pooled children each object a reply reads is a cache miss; issue 32). Its fields come
 * in the order a take reads them.
 */
export class StreamFramer implements Frame {
  /** The last message framed (Frame): bytes start..end of buf; buf is EMPTY once everything fed is framed. */
  buf: Buffer = EMPTY;
  start = 0;
  end = 0;
  /** What was fed and is not framed yet: held from `pos` on (no view of the rest is made per message). */
  private held: Buffer = EMPTY;
  /** held is (a view of) a lent chunk, not a copy of the framer's own (with `borrowed` only). */
  private heldIsLent = false;
  private pos = 0;
  /** Bytes after `pos` already searched for the delimiter. */
  private scanned = 0;
  /** Inside a message (after its SOT) when SOT framing is used. */
  private started = false;
  /** Dropping the rest of an over-long message (EOT-only framing). */
  private skipping = false;
  private readonly sot?: Buffer;
  private readonly eot?: Buffer;
  private readonly maxLength: number;
  private readonly copy: boolean;
  private readonly borrowed: boolean;
  /** Messages dropped for exceeding maxLength. */
  dropped = 0;

  constructor(options: FramingOptions = {}) {
    this.sot = options.sot;
    this.eot = options.eot ?? (options.sot ? undefined : NEWLINE);
    this.maxLength = options.maxLength ?? DEFAULT_MAX_MSG_LENGTH;
    this.copy = options.copy ?? true;
    this.borrowed = options.borrowed ?? false;
  }

  /** Feeds a chunk; returns the messages it completed, in order. */
  push(chunk: Buffer): Buffer[] {
    this.feed(chunk);
    const out: Buffer[] = [];
    for (let msg = this.take(); msg !== undefined; msg = this.take()) out.push(msg);
    return out;
  }

  /** Feeds a chunk without framing it yet: take() then returns its messages one by one (no array of them is made). */
  feed(chunk: Buffer): void {
    if (this.pos >= this.held.length) {
      this.held = chunk;
      this.heldIsLent = this.borrowed;
    } else {
      this.held = Buffer.concat([this.pos === 0 ? this.held : this.held.subarray(this.pos), chunk]);
      this.heldIsLent = false;
    }
    this.pos = 0;
  }

  /** The next message of what was fed, in order; undefined when more bytes are needed. */
  take(): Buffer | undefined {
    const frame = this.takeFrame();
    if (frame === undefined) return undefined;
    const msg = frame.buf.subarray(frame.start, frame.end);
    return this.copy ? Buffer.from(msg) : msg;
  }

  /**
   * As take(), without a Buffer made for the message: where it lies in the chunk read, valid until the next take (the
   * Frame is the framer itself, rewritten each time), for a reader that decodes or copies the bytes at once.
   */
  takeFrame(): Frame | undefined {
    for (;;) {
      const found = this.next();
      if (found === undefined) break;
      if (found) return this;
    }
    this.buf = EMPTY; // holds no chunk once everything fed is framed
    if (this.started || !this.sot) this.limitPartial();
    if (this.heldIsLent && this.pos < this.held.length) this.keepHeld();
    return undefined;
  }

  /** End of stream: what is left (a message without its EOT), or undefined. */
  flush(): Buffer | undefined {
    const rest = this.held.subarray(this.pos);
    const inMessage = !this.sot || this.started;
    const skipping = this.skipping;
    this.reset();
    if (skipping) return undefined;
    if (!inMessage || rest.length === 0 || rest.length > this.maxLength) return undefined;
    return rest;
  }

  reset(): void {
    this.held = EMPTY;
    this.heldIsLent = false;
    this.pos = 0;
    this.buf = EMPTY;
    this.started = false;
    this.scanned = 0;
    this.skipping = false;
  }

  /** Bytes held for an unfinished message. */
  get pending(): number {
    return this.held.length - this.pos;
  }

  /** The unframed rest of a lent chunk, copied: the chunk is overwritten by the next read. */
  private keepHeld(): void {
    this.held = Buffer.from(this.held.subarray(this.pos));
    this.heldIsLent = false;
    this.pos = 0;
  }

  /** true: a message is in buf, start and end; false: one was dropped; undefined: more bytes are needed. */
  private next(): boolean | undefined {
    const buf = this.held;
    if (this.pos >= buf.length) return undefined; // everything read has been framed
    if (this.sot && !this.started) {
      const s = find(buf, this.sot, this.pos);
      if (s < 0) {
        // Keep only a possible partial SOT at the end.
        this.held = buf.subarray(Math.max(this.pos, buf.length - this.sot.length + 1));
        this.pos = 0;
        return undefined;
      }
      this.pos = s + this.sot.length;
      this.started = true;
      this.scanned = 0;
    }
    const end = this.eot ?? (this.sot as Buffer);
    const start = this.pos;
    const e = find(buf, end, start + Math.max(0, this.scanned - end.length + 1));
    if (e < 0) {
      this.scanned = buf.length - start;
      return undefined;
    }
    // With SOT-only framing the delimiter is the next message's SOT: keep the state "started".
    this.pos = e + end.length;
    if (this.pos === buf.length) {
      this.held = EMPTY;
      this.pos = 0;
    }
    this.started = this.eot === undefined;
    this.scanned = 0;
    if (this.skipping) {
      // The tail of a message already dropped for its length.
      this.skipping = false;
      return false;
    }
    if (e - start > this.maxLength) {
      this.dropped++;
      return false;
    }
    this.buf = buf;
    this.start = start;
    this.end = e;
    return true;
  }

  /** An unfinished message already longer than maxLength is dropped now rather than buffered forever. */
  private limitPartial(): void {
    if (this.held.length - this.pos > this.maxLength + (this.eot?.length ?? 0)) {
      this.dropped++;
      this.held = EMPTY;
      this.pos = 0;
      this.scanned = 0;
      // Skip the rest of this message: wait for the next SOT, or (EOT only) the next EOT.
      this.started = false;
      if (!this.sot) this.skipping = true;
    }
  }
}
