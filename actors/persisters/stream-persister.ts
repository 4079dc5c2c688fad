/**
 * StreamPersister (docs/components/stream-and-file.md): writes each message of its input XQueue to a TCP peer, a file or
 * stdout. Operation `request` reads a reply for each, stores it in DataField (the body by default), sets
 * RCField 0 and removes the message, so the requester gets it back through its XQueue callback. Operation
 * `write` only writes.
 *
 * Two modes, as in the original (stream-persister-settings.ts chooses):
 *  - multiplexed (default; also whenever a login handshake is configured): requests are written as they are
 *    taken, without waiting for replies, up to the input queue's capacity. Replies are framed by
 *    SOTBytes/EOTBytes (newline by default) and each answers the OLDEST pending request (FIFO); with Parser
 *    the request is tagged with its cell id in RCField before it is rendered (a Template may echo
 *    ##ReturnCode##) and the tag parsed back from the reply selects the pending request.
 *  - simple (Pattern, no login): one request at a time; the reply is everything read until the accumulated
 *    text matches Pattern (Perl5 dialect); the peer ending the stream also ends a started reply.
 *
 * Guarantees (docs/components/stream-and-file.md; the original had no reply timeout in multiplexed mode and dropped the pending
 * requests on reconnect): when the oldest written request has no reply ReceiveTime after it became the
 * oldest, the connection is dropped, so a late reply can never be taken for another request, and every
 * pending request is re-sent on the next connection in its original order. A request whose own reply timed
 * out more than Retry times is removed with RCField 256. A pending request whose JMSExpiration passes is
 * removed with 256 (when it was already written the connection is dropped as well, for the same reason).
 * Each message is removed exactly once (XQueue remove of its Taken). A reply the Parser cannot read removes
 * the oldest pending request with RCField -1 and the reason in ParseError.
 *
 * This file is the actor: it takes requests, writes them and completes them. Its parts, one job each:
 * stream-framing.ts (request bytes, reply trimming, simple-mode replies), stream-pending.ts (the pending
 * requests), stream-reply.ts (what a reply does to its request), stream-reply-parser.ts (Parser),
 * stream-connection.ts (connect, login, reconnect, CloseRequest) and stream-handshake.ts (the logins).
 *
 * The login handshakes (stream-handshake.ts) run inside each connect. SessionSize > 0 renews the connection
 * after that many requests: no further request is written, the pending replies are awaited, then the
 * connection is closed (CloseRequest first) and opened again. MaxIdleTime with nothing pending closes the
 * connection (status DISABLED) until the next message. Connection loss is handled by the shared Reconnector.
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import fs from 'node:fs';
import type net from 'node:net';
import { ActorContext, Behaviour, QueueConsumer, TimerHandle } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv, StatusCounter, inputOf } from '../../src/runtime/component';
import { displayMessage } from '../../src/logging/display';
import { tracePublish, tracePublished, tracingActive } from '../../src/tracing/message-trace';
import { Message } from '../../src/message/message';
import { QueueState, Taken, XQueue } from '../../src/xqueue/xqueue';
import { isClosedOutput, isClosedOutputError, tolerateOutputErrors } from '../../src/runtime/closed-output';
import { Frame, StreamFramer } from '../stream/framing';
import { describeTarget } from '../stream/stream-target';
import { ReplyParser, checkReplyParser, createReplyParser } from './stream-reply-parser';
import { StreamConnection, StreamConnectionEvents, streamPersisterConnection } from './stream-connection';
import { PatternReplyReader, renderRequest } from './stream-framing';
import { PendingRequest, PendingRequests } from './stream-pending';
import { RC_PARSE_ERROR, ReplyOutcome, applyFramedReply, applyWholeReply } from './stream-reply';
import {
  RC_OUTPUT_CLOSED,
  RC_TIMEOUT,
  STREAM_PERSISTER_OPERATIONS,
  STREAM_PERSISTER_SCHEMA,
  StreamPersisterSettings,
  readStreamPersisterSettings,
} from './stream-persister-settings';

class ReplyTimeoutError extends XrouteError {
  constructor(
    readonly component: string,
    readonly waitedMs: number,
  ) {
    super(`${component}: no reply within ${waitedMs} ms (ReceiveTime); reconnecting so that a late reply cannot be mistaken for the next one`);
    this.name = 'ReplyTimeoutError';
  }
}

/**
 * Milliseconds since this module was loaded: a small integer that V8 stores in the behaviour's own field, where an
 * epoch time (a double) lives in a box of its own, one more cache line written per request (issue 32).
 */
const CLOCK_BASE = Date.now();
function clockMs(): number {
  // Math.floor makes the (integral) double a small integer again: a difference of two doubles would stay one.
  return Math.floor(Date.now() - CLOCK_BASE);
}

/**
 * Its connection's events (StreamConnectionEvents) are its own methods: the connection calls them on it, with no object
 * of four closures per persister (a pool keeps 512; issue 32).
 */
class StreamPersisterBehaviour implements Behaviour<never>, StreamConnectionEvents {
  // Fields in the order V8 lays them out: first those a request or a reply reads, so that they share as few
  // cache lines as they can (at 512 children each child's objects are out of the cache when its reply arrives;
  // issue 32), then the rest.
  /**
   * The current connection's socket (attached to detached): read here, not through the connection, by each request and
   * reply (one object fewer per round trip; issue 32).
   */
  private socket?: net.Socket;
  private readonly pending = new PendingRequests();
  private readonly framer: StreamFramer;
  private readonly parser: ReplyParser | undefined;
  private input?: XQueue<Message>;
  /** Counted per completed request: held, not looked up by name each time. */
  private readonly messages: StatusCounter;
  /**
   * The reply deadline of the oldest written request. One timer runs at a time and is not moved when the
   * oldest request changes: when it fires before the current deadline it waits the rest (a timer per
   * request cost more than the rest of a loopback round trip; issue 32).
   */
  private replyTimer?: TimerHandle;
  private replyTimerFor?: PendingRequest;
  /** clockMs() when the oldest written request times out. */
  private replyDeadline = 0;
  private replySocket?: unknown;
  /** Requests written on the current connection (SessionSize). */
  private sessionWrites = 0;
  private hibernating = false;
  /** Decided by the settings once: the mode, the operation and the kind of target. */
  private readonly simple: boolean;
  private readonly requesting: boolean;
  private readonly tcp: boolean;
  /** With a Parser, a multiplexed request carries its tag in RCField. */
  private readonly tagged: boolean;
  /** StringProperty is set: a completion reads the list only then (an empty array is one more object to fetch). */
  private readonly stamps: boolean;
  private readonly s: StreamPersisterSettings;
  // Read rarely: on connect, idle, expiry or failure (the consumer only in simple mode; the connection to cork several
  // requests, to renew a session or to time a reply out).
  private consumer?: QueueConsumer;
  /** TCP targets only. */
  private conn?: StreamConnection;
  private ctx!: ActorContext<never>;
  private readonly env: ComponentEnv;
  private file?: NodeJS.WritableStream;
  private readonly simpleReply: PatternReplyReader;
  private offQueueState?: () => void;
  private lastActivity = Date.now();
  /** StringProperty, set on every completed message. */
  private readonly stringProperties: readonly (readonly [string, string])[];
  private readonly stringPropertyNames: readonly string[];
  private expiryTimer?: TimerHandle;
  private expiryAt = Infinity;
  private readonly failures: StatusCounter;

  constructor(env: ComponentEnv, s: StreamPersisterSettings) {
    this.env = env;
    this.s = s;
    // Each reply is decoded or copied from the chunk read as it is stored (takeFrame, stream-reply.ts); the chunks are
    // lent by the connection's SharedReadSocket.
    this.framer = new StreamFramer({ sot: s.sot, eot: s.eot, maxLength: s.maxMsgLength, borrowed: true });
    this.simpleReply = new PatternReplyReader(s.replyPattern);
    this.parser = s.parser ? createReplyParser(env.name, s.parser, env.pluginDirs) : undefined;
    this.tagged = this.parser !== undefined && s.mode !== 'simple';
    this.stringProperties = Object.entries(s.stringProperty);
    this.stringPropertyNames = Object.keys(s.stringProperty);
    this.stamps = this.stringProperties.length > 0;
    this.messages = env.status.counter('messages');
    this.failures = env.status.counter('failures');
    this.simple = s.mode === 'simple';
    this.requesting = s.operation === 'request';
    this.tcp = s.target.kind === 'tcp';
  }

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const input = inputOf(this.env);
    this.input = input;
    this.offQueueState = input.onStateChange(ctx.guard((state: QueueState) => this.onQueueState(state)));
    this.open();
    // Simple mode keeps one request in flight; otherwise the input's capacity bounds the pending requests.
    // The method called on this behaviour: no closure context or bound function for a pull to read (issue 32).
    this.consumer = ctx.consume(input, this.onMessage, this.simple ? { maxInFlight: 1 } : {}, this);
    if (this.s.maxIdleMs > 0) ctx.setInterval(() => this.checkIdle(), Math.min(this.s.maxIdleMs, 1000));
    if (input.state !== 'running') this.onQueueState(input.state);
  }

  stop(): void {
    this.offQueueState?.();
    this.conn?.stop();
    this.close();
  }

  // ------------------------------------------------------------------ output

  private open(): void {
    this.hibernating = false;
    const t = this.s.target;
    if (t.kind === 'tcp') {
      this.conn ??= streamPersisterConnection(this.s, t, this.env, this.ctx, this);
      this.conn.open();
      return;
    }
    if (t.kind === 'file') {
      const stream = fs.createWriteStream(t.path, { flags: 'a' });
      stream.on(
        'error',
        this.ctx.guard((err: Error) => this.ctx.fail(err)),
      );
      this.file = stream;
    } else {
      tolerateOutputErrors(process.stdout);
      this.file = process.stdout;
      if (isClosedOutput(process.stdout)) {
        this.stdoutClosed();
        return;
      }
    }
    this.env.status.set('RUNNING');
  }

  attached(socket: net.Socket): void {
    this.socket = socket;
    this.sessionWrites = 0;
    this.framer.reset();
    this.simpleReply.reset();
    this.flush();
  }

  /** The connection is gone: every pending request is written again on the next one. */
  detached(): void {
    this.socket = undefined;
    this.pending.forgetWrites();
    this.clearReplyTimer();
    this.simpleReply.reset();
  }

  private close(): void {
    this.conn?.close();
    if (this.file && this.file !== process.stdout) this.file.end();
    this.file = undefined;
  }

  // ------------------------------------------------------------------ requests

  private onMessage(taken: Taken<Message>, queue: XQueue<Message>): void {
    this.noteActivity();
    const msg = taken.item;
    const tag = this.tagged ? String(taken.cell) : '';
    // RCField is -1 while the message is being processed, or the request's tag with a Parser (docs/components/stream-and-file.md).
    msg.setField(this.s.rcField, this.tagged ? tag : '-1');
    const expiry = msg.headers.JMSExpiration;
    const expiresAt = expiry !== undefined && expiry > 0 ? expiry : Infinity;
    if (expiresAt !== Infinity && expiresAt < Date.now()) {
      this.env.status.count('expired');
      this.complete(queue, taken, RC_TIMEOUT);
      return;
    }
    if (tracingActive()) tracePublish(msg, { component: this.env.name, system: this.tcp ? 'tcp' : 'file', destination: describeTarget(this.s.target) });
    this.pending.add(new PendingRequest(taken, queue, tag, renderRequest(msg, this.s.template), expiresAt));
    // expiryAt is a boxed double (Infinity): not read for a request that never expires.
    if (expiresAt !== Infinity && expiresAt < this.expiryAt) this.scheduleExpiry(expiresAt);
    if (this.hibernating) this.open();
    this.flush();
  }

  /** Writes every pending request not yet written on the current connection, oldest first. */
  private flush(): void {
    if (!this.tcp) {
      this.flushFile();
      return;
    }
    const socket = this.socket;
    if (!socket) return; // written once connected
    let wrote = false;
    // Along the links: no iterator per call (flush runs after every request and every reply).
    for (let p = this.pending.oldest; p !== undefined; p = p.next) {
      if (p.written) continue;
      if (this.simple && wrote) break;
      if (this.simple && this.pending.oldest !== p) break; // one request at a time
      if (this.s.sessionSize > 0 && this.sessionWrites >= this.s.sessionSize) break; // renewed once drained
      // Several requests leave in this turn: one packet. A lone request is written at once (no cork, no tick).
      if (!wrote && !this.simple && (this.pending.newest !== p || (this.input?.depth ?? 0) > 0)) this.conn?.corkForThisTurn();
      wrote = true;
      this.pending.markWritten(p);
      this.sessionWrites++;
      if (this.requesting) {
        socket.write(p.data);
      } else {
        socket.write(
          p.data,
          this.ctx.guard((err?: Error | null) => {
            if (!err) this.finish(p, 0);
          }),
        );
      }
    }
    if (wrote && this.requesting) this.armReplyTimer();
  }

  private flushFile(): void {
    const out = this.file;
    if (!out) return;
    if (out === process.stdout && isClosedOutput(out)) {
      this.stdoutClosed();
      return;
    }
    for (let p = this.pending.oldest; p !== undefined; p = p.next) {
      if (p.written) continue;
      this.pending.markWritten(p);
      out.write(
        p.data,
        this.ctx.guard((err?: Error | null) => (err ? this.onWriteError(err) : this.finish(p, 0))),
      );
    }
  }

  private onWriteError(err: Error): void {
    if (this.file === process.stdout && isClosedOutputError(err)) this.stdoutClosed();
    else this.ctx.fail(err);
  }

  /**
   * stdout's reader went away (`xroute run flow.json | head -1`): nothing can be written to it again. Each
   * message for it, pending or still to come, is removed as failed with RCField -1, so the flow can stop
   * without waiting for a write that cannot happen (docs/components/stream-and-file.md).
   */
  private stdoutClosed(): void {
    if (this.env.status.status !== 'CLOSED') {
      this.env.logger.warn('stdout was closed by its reader; the messages for it are failed', { component: this.env.name });
      this.env.status.set('CLOSED', 'stdout was closed by its reader');
    }
    for (const p of [...this.pending]) {
      if (!this.pending.remove(p)) continue;
      this.complete(p.queue, p, RC_OUTPUT_CLOSED, 'stdout is closed');
    }
  }

  // ------------------------------------------------------------------ replies

  data(chunk: Buffer): void {
    if (!this.requesting) {
      this.countUnmatched(chunk.length);
      return;
    }
    if (this.simple) {
      this.onSimpleData(chunk);
      return;
    }
    const socket = this.socket;
    this.framer.feed(chunk);
    for (let reply = this.framer.takeFrame(); reply !== undefined; reply = this.framer.takeFrame()) {
      if (socket !== this.socket) return; // a reply dropped the connection (the next connection resets the framer)
      this.onReply(reply);
    }
  }

  /** Multiplexed: one framed reply. */
  private onReply(reply: Frame): void {
    this.settle(applyFramedReply(reply, this.pending, this.s, this.parser));
  }

  /** Simple mode: accumulate until Pattern matches the reply so far. */
  private onSimpleData(chunk: Buffer): void {
    const cur = this.pending.oldest;
    if (!cur?.written) {
      this.countUnmatched(chunk.length);
      return;
    }
    const text = this.simpleReply.push(chunk);
    if (text !== undefined) this.completeSimple(cur, text);
  }

  /** Simple mode: the peer ended the stream; a started reply ends here (as the original's read loop). */
  peerEnd(): void {
    const cur = this.pending.oldest;
    if (!cur?.written) return;
    const text = this.simpleReply.end();
    if (text !== undefined) this.completeSimple(cur, text);
  }

  private completeSimple(cur: PendingRequest, text: string): void {
    this.settle(applyWholeReply(text, cur, this.s, this.parser));
  }

  /** Removes the request a reply answered (RC 0) or could not be parsed for (RC -1); counts a dropped one. */
  private settle(outcome: ReplyOutcome): void {
    switch (outcome.kind) {
      case 'answered':
        this.finish(outcome.request, 0);
        return;
      case 'parse-error':
        this.env.logger.warn('reply could not be parsed; request removed with RC -1', { component: this.env.name, reason: outcome.reason });
        this.finish(outcome.request, RC_PARSE_ERROR);
        return;
      case 'unknown-tag':
        this.env.status.count('unmatchedReplies');
        this.env.logger.debug('parsed reply tagged for no pending request dropped', { component: this.env.name, tag: outcome.tag });
        return;
      case 'no-request':
        this.countUnmatched(outcome.bytes);
        return;
    }
  }

  private countUnmatched(bytes: number): void {
    this.env.status.count('unmatchedReplies');
    this.env.logger.debug('reply without a pending request dropped', { component: this.env.name, bytes });
  }

  // ------------------------------------------------------------------ timers

  /** The oldest written request must be answered within ReceiveTime from when it became the oldest. */
  private armReplyTimer(): void {
    const oldest = this.pending.oldest;
    if (!this.requesting || !oldest?.written) {
      this.clearReplyTimer();
      return;
    }
    if (this.replyTimerFor === oldest) return;
    this.replyTimerFor = oldest;
    this.replySocket = this.socket;
    this.replyDeadline = clockMs() + this.s.receiveTimeMs;
    this.replyTimer ??= this.ctx.setTimeout(() => this.onReplyTimer(), this.s.receiveTimeMs);
  }

  /** Nothing is awaited any more; a running timer finds that out when it fires. */
  private clearReplyTimer(): void {
    this.replyTimerFor = undefined;
    this.replySocket = undefined;
  }

  private onReplyTimer(): void {
    this.replyTimer = undefined;
    const p = this.replyTimerFor;
    if (!p) return;
    const rest = this.replyDeadline - clockMs();
    if (rest > 0) {
      this.replyTimer = this.ctx.setTimeout(() => this.onReplyTimer(), rest);
      return;
    }
    this.onReplyTimeout(p, this.replySocket);
  }

  private onReplyTimeout(p: PendingRequest, socket: unknown): void {
    this.clearReplyTimer();
    const conn = this.conn;
    if (!conn?.socket || socket !== conn.socket || this.pending.oldest !== p) return;
    this.env.status.count('timeouts');
    p.timeouts++;
    conn.drop(new ReplyTimeoutError(this.env.name, this.s.receiveTimeMs));
    if (p.timeouts > this.s.retry) {
      this.env.logger.warn('no reply; request given up', { component: this.env.name, attempts: p.writes, rc: RC_TIMEOUT });
      this.finish(p, RC_TIMEOUT);
    }
  }

  private scheduleExpiry(at: number): void {
    this.ctx.clearTimer(this.expiryTimer);
    this.expiryAt = at;
    this.expiryTimer = this.ctx.setTimeout(() => this.expire(), Math.max(0, at - Date.now()));
  }

  /** Removes the pending requests whose JMSExpiration has passed with RC 256. */
  private expire(): void {
    this.expiryTimer = undefined;
    this.expiryAt = Infinity;
    const expired = this.pending.expiredAt(Date.now());
    // A written request leaves without its reply: drop the connection so that reply cannot answer another.
    if (this.requesting && expired.some((p) => p.written))
      this.conn?.drop(new Error('a written request expired before its reply; reconnecting so that its late reply cannot be mistaken for another'));
    for (const p of expired) {
      this.env.status.count('expired');
      this.finish(p, RC_TIMEOUT);
    }
    const next = this.pending.nextExpiry();
    if (next !== Infinity) this.scheduleExpiry(next);
  }

  // ------------------------------------------------------------------ completion

  /** Removes a pending request with `rc`; the only way a pending request leaves. */
  private finish(p: PendingRequest, rc: number): void {
    if (!this.pending.remove(p)) return; // already finished
    if (this.replyTimerFor === p) this.clearReplyTimer();
    this.complete(p.queue, p, rc);
    this.armReplyTimer();
    if (!this.renewSessionIfDue()) this.flush();
  }

  /** `failure` set: removed as failed with that reason (the write could not happen). */
  private complete(queue: XQueue<Message>, taken: Taken<Message>, rc: number, failure?: string): void {
    const msg = taken.item;
    tracePublished(msg, rc === 0 ? undefined : (failure ?? `return code ${rc}`));
    msg.setField(this.s.rcField, String(rc));
    if (this.stamps) for (const [k, v] of this.stringProperties) msg.setField(k, v);
    if (this.s.displayMask !== 0) displayMessage(this.env.logger, rc === 0 ? 'persisted' : 'failed', msg, this.s.displayMask, this.stringPropertyNames);
    (rc === 0 ? this.messages : this.failures).add(1);
    this.noteActivity();
    if (failure === undefined) queue.remove(taken);
    else queue.remove(taken, 'failed', failure);
    // Only simple mode holds taking back (maxInFlight 1); a poke otherwise does nothing but read the consumer (issue 32).
    if (this.simple) this.consumer?.poke();
  }

  /** SessionSize reached and nothing written is still waiting: close (CloseRequest first) and reconnect. */
  private renewSessionIfDue(): boolean {
    if (this.s.sessionSize <= 0 || this.sessionWrites < this.s.sessionSize) return false;
    const conn = this.conn;
    if (!conn?.socket) return false;
    if (this.pending.anyWritten()) return false;
    this.env.status.count('sessions');
    this.env.logger.debug('session size reached; reconnecting', { component: this.env.name, requests: this.sessionWrites });
    this.hibernating = false;
    conn.renew();
    return true;
  }

  // ------------------------------------------------------------------ control

  private onQueueState(state: QueueState): void {
    if (state === 'paused') this.env.status.set('PAUSE', 'transmit queue paused');
    else if (state === 'stopped') {
      this.close();
      this.env.status.set('STOPPED', 'input queue stopped');
    } else if (this.hibernating) this.env.status.set('DISABLED', 'idle');
    else if (!this.tcp || this.conn?.socket) this.env.status.set('RUNNING');
    else this.env.status.set('RETRYING', `connecting to ${describeTarget(this.s.target)}`);
  }

  /** Traffic, for MaxIdleTime (no clock read per message when it is not set). */
  private noteActivity(): void {
    if (this.s.maxIdleMs > 0) this.lastActivity = Date.now();
  }

  /** MaxIdleTime without traffic: close the connection until the next message (the original's hibernation). */
  private checkIdle(): void {
    if (this.hibernating || this.pending.size > 0 || Date.now() - this.lastActivity < this.s.maxIdleMs) return;
    if (!this.tcp) return;
    this.close();
    this.hibernating = true;
    this.env.status.set('DISABLED', `idle for ${this.s.maxIdleMs / 1000} s; reconnects on the next message`);
  }
}

export const STREAM_PERSISTER: ComponentDefinition<never, StreamPersisterSettings> = {
  className: 'persister.StreamPersister',
  role: 'persister',
  needsInput: true,
  operations: STREAM_PERSISTER_OPERATIONS,
  description: 'writes messages to a TCP peer, a file or stdout; operation request reads a reply for each (docs/components/stream-and-file.md)',
  schema: STREAM_PERSISTER_SCHEMA,
  settings: (name, config, baseDir, context) => {
    const s = readStreamPersisterSettings(name, config, baseDir);
    if (s.parser) checkReplyParser(name, s.parser, context.pluginDirs);
    return s;
  },
  create: (env, settings) => new StreamPersisterBehaviour(env, settings),
};
