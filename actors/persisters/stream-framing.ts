/**
 * StreamPersister's framing, the bytes on the wire around a request and its reply:
 *  - a request is the Template rendered over the message, or else the message body as it is;
 *  - a framed reply (multiplexed mode; StreamFramer cuts the stream by SOTBytes/EOTBytes) loses Offhead
 *    bytes at its start and Offtail bytes at its end;
 *  - simple mode has no delimiters: a reply is everything read until the text so far matches Pattern, or
 *    until the peer ends the stream (PatternReplyReader).
 */
import { Message } from '../../src/message/message';
import type { Frame } from '../stream/framing';

/** What renders a request (a Template's format). */
export interface RequestTemplate {
  format(msg: Message): string;
}

/** What is written for `msg`: its bytes, or its text (written as UTF-8, with no Buffer made for it first). */
export function renderRequest(msg: Message, template: RequestTemplate | undefined): string | Buffer {
  if (template) return template.format(msg);
  if (msg.body.kind === 'bytes') return msg.body.bytes;
  return msg.bodyText() ?? '';
}

/** Narrows a framed reply (in place) by `offhead` leading and `offtail` trailing bytes, never to a negative length. */
export function trimReply(reply: Frame, offhead: number, offtail: number): void {
  if (offhead === 0 && offtail === 0) return;
  const start = Math.min(reply.start + offhead, reply.end);
  reply.end = Math.max(start, reply.end - offtail);
  reply.start = start;
}

/** Simple mode: accumulates the chunks of one reply until its text matches the pattern. */
export class PatternReplyReader {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly pattern: RegExp | undefined) {}

  /** Bytes of the reply read so far. */
  get length(): number {
    return this.bytes;
  }

  /** Adds a chunk (copied: it may be lent, SharedReadSocket); returns the whole reply (and starts a new one) once the pattern matches. */
  push(chunk: Buffer): string | undefined {
    this.chunks.push(Buffer.from(chunk));
    this.bytes += chunk.length;
    const text = this.text();
    if (!this.pattern?.test(text)) return undefined;
    this.reset();
    return text;
  }

  /** The peer ended the stream: a started reply ends here; undefined when nothing was read. */
  end(): string | undefined {
    if (this.bytes === 0) return undefined;
    const text = this.text();
    this.reset();
    return text;
  }

  reset(): void {
    this.chunks = [];
    this.bytes = 0;
  }

  private text(): string {
    return Buffer.concat(this.chunks, this.bytes).toString('utf8');
  }
}
