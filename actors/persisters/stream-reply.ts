/**
 * What a reply does to its request (StreamPersister, operation `request`): without a Parser the reply is
 * stored in DataField (the body by default); with one it is parsed into a scratch message whose properties
 * (all but RCField, which carries the request's tag) and body are copied onto the request. A reply the
 * Parser cannot read is reported with its reason, for the request to leave with RC_PARSE_ERROR.
 * applyFramedReply and applyWholeReply decide which pending request a reply answers (FIFO, or by the tag a parsed reply
 * carries).
 */
import { Message } from '../../src/message/message';
import { ReplyParser } from './stream-reply-parser';
import { PendingRequest, PendingRequests } from './stream-pending';
import { trimReply } from './stream-framing';
import type { Frame } from '../stream/framing';

/** RCField value of a request whose reply the Parser could not read (EXCEPTION). */
export const RC_PARSE_ERROR = -1;
/** Property that carries the Parser's reason with RC_PARSE_ERROR. */
export const PARSE_ERROR_PROPERTY = 'ParseError';

export type ParsedReply = { readonly ok: true; readonly message: Message } | { readonly ok: false; readonly reason: string };

/** Stores the raw reply in `dataField`: the body (text or bytes) or a property. */
export function storeReply(msg: Message, reply: Frame, dataField: string, textMode: boolean): void {
  const { buf, start, end } = reply;
  if (dataField === 'body') {
    msg.body = textMode ? { kind: 'text', text: buf.toString('utf8', start, end) } : { kind: 'bytes', bytes: Buffer.from(buf.subarray(start, end)) };
  } else {
    msg.setField(dataField, buf.toString('utf8', start, end));
  }
}

/** The reply parsed into a scratch message, or the Parser's reason for refusing it. */
export function parseReply(parser: ReplyParser, text: string): ParsedReply {
  const message = new Message();
  try {
    parser.parse(text, message);
    return { ok: true, message };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** Copies a parsed reply onto its request: every property but `rcField`, and the body when it has one. */
export function copyParsedReply(parsed: Message, msg: Message, rcField: string): void {
  for (const [k, v] of parsed.properties) if (k !== rcField) msg.setProperty(k, v);
  if (parsed.body.kind !== 'none') msg.body = parsed.body;
}

/** Marks a request whose reply could not be parsed. */
export function markParseError(msg: Message, reason: string): void {
  msg.setProperty(PARSE_ERROR_PROPERTY, reason);
}

/** What one reply did. */
export type ReplyOutcome =
  /** No written request waits for a reply: dropped. */
  | { readonly kind: 'no-request'; readonly bytes: number }
  /** A parsed reply tagged for no written request: dropped. */
  | { readonly kind: 'unknown-tag'; readonly tag: string }
  /** Stored in (or copied onto) `request`, which is answered (RC 0). */
  | { readonly kind: 'answered'; readonly request: PendingRequest }
  /** The Parser refused it: `request` (the oldest) carries the reason and leaves with RC_PARSE_ERROR. */
  | { readonly kind: 'parse-error'; readonly request: PendingRequest; readonly reason: string };

export interface ReplySettings {
  readonly dataField: string;
  readonly rcField: string;
  readonly textMode: boolean;
  readonly offhead: number;
  readonly offtail: number;
}

/**
 * Multiplexed: a framed reply (the framer's Frame, narrowed here by Offhead and Offtail) answers the oldest written
 * request, or with a Parser the written request whose tag the parsed reply carries in RCField (the oldest when it carries
 * none). The caller removes the request and counts. Functions, not a handler object per persister: each reply would read
 * that object too (with 512 pooled children, a cache miss per reply; issue 32).
 */
export function applyFramedReply(reply: Frame, pending: PendingRequests, s: ReplySettings, parser: ReplyParser | undefined): ReplyOutcome {
  const oldest = pending.oldest;
  if (!oldest?.written) return { kind: 'no-request', bytes: reply.end - reply.start };
  trimReply(reply, s.offhead, s.offtail);
  if (!parser) {
    storeReply(oldest.item, reply, s.dataField, s.textMode);
    return { kind: 'answered', request: oldest };
  }
  const parsed = parseFor(parser, oldest, reply.buf.toString('utf8', reply.start, reply.end));
  if (!parsed.ok) return parsed.outcome;
  const tag = parsed.message.getField(s.rcField);
  const request = tag === undefined ? oldest : pending.writtenWithTag(tag);
  if (!request) return { kind: 'unknown-tag', tag: tag as string };
  copyParsedReply(parsed.message, request.item, s.rcField);
  return { kind: 'answered', request };
}

/** Simple mode: the whole reply text of the one request in flight. */
export function applyWholeReply(text: string, request: PendingRequest, s: ReplySettings, parser: ReplyParser | undefined): ReplyOutcome {
  if (!parser) {
    const buf = Buffer.from(text, 'utf8');
    storeReply(request.item, { buf, start: 0, end: buf.length }, s.dataField, s.textMode);
    return { kind: 'answered', request };
  }
  const parsed = parseFor(parser, request, text);
  if (!parsed.ok) return parsed.outcome;
  copyParsedReply(parsed.message, request.item, s.rcField);
  return { kind: 'answered', request };
}

/** The reply parsed; or, refused, `oldest` marked with the reason and the outcome that removes it. */
function parseFor(parser: ReplyParser, oldest: PendingRequest, text: string): { ok: true; message: Message } | { ok: false; outcome: ReplyOutcome } {
  const parsed = parseReply(parser, text);
  if (parsed.ok) return parsed;
  markParseError(oldest.item, parsed.reason);
  return { ok: false, outcome: { kind: 'parse-error', request: oldest, reason: parsed.reason } };
}
