/**
 * StreamPersister (components.md §6.1): writes each message of its input XQueue to a TCP peer, a file or
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
 * Guarantees (R: of §6.1; the original had no reply timeout in multiplexed mode and dropped the pending
 * requests on reconnect): when the oldest written request has no reply ReceiveTime after it became the
 * oldest, the connection is dropped, so a late reply can never be taken for another request, and every
 * pending request is re-sent on the next connection in its original order. A request whose own reply timed
 * out more than Retry times is removed with RCField 256. A pending request whose JMSExpiration passes is
 * removed with 256 (when it was already written the connection is dropped as well, for the same reason).
 * Each message is removed exactly once (XQueue remove of its Taken). A reply the Parser cannot read removes
 * the oldest pending request with RCField -1 and the reason in ParseError.
 *
 * The login handshakes (stream-handshake.ts) run inside each connect. SessionSize > 0 renews the connection
 * after that many requests: no further request is written, the pending replies are awaited, then the
 * connection is closed (CloseRequest first) and opened again. MaxIdleTime with nothing pending closes the
 * connection (status DISABLED) until the next message. Connection loss is handled by the shared Reconnector.
 */
import fs from 'node:fs';
import net from 'node:net';
import { ActorContext, Behaviour, QueueConsumer, TimerHandle } from '../../src/runtime/actor';
import { ComponentDefinition, ComponentEnv } from '../../src/runtime/component';
import { Reconnector } from '../../src/runtime/reconnector';
import { displayMessage } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { QueueState, Taken, XQueue } from '../../src/xqueue/xqueue';
import { StreamFramer } from '../stream/framing';
import { connectTcp } from '../stream/tcp-connect';
import { describeTarget } from '../stream/stream-target';
import { ComponentConfigError, configIssues } from '../support/config-values';
import { ReplyParser, createReplyParser } from './stream-reply-parser';
import { HandshakeError, closeText, performHandshake } from './stream-handshake';
import { RC_TIMEOUT, STREAM_PERSISTER_OPERATIONS, STREAM_PERSISTER_SCHEMA, StreamPersisterSettings, readStreamPersisterSettings } from './stream-persister-settings';

export class ReplyTimeoutError extends Error {
  constructor(
    readonly component: string,
    readonly waitedMs: number,
  ) {
    super(`${component}: no reply within ${waitedMs} ms (ReceiveTime); reconnecting so that a late reply cannot be mistaken for the next one`);
    this.name = 'ReplyTimeoutError';
  }
}

/** RCField value of a request whose reply the Parser could not read (EXCEPTION). */
export const RC_PARSE_ERROR = -1;
/** Property that carries the Parser's reason with RC_PARSE_ERROR. */
export const PARSE_ERROR_PROPERTY = 'ParseError';

/** A request taken from the input and not yet removed. */
interface Pending {
  readonly taken: Taken<Message>;
  readonly queue: XQueue<Message>;
  /** With Parser (multiplexed): the cell id written into RCField, read back from the parsed reply. */
  readonly tag: string;
  /** The rendered request, written again as it is after a reconnect. */
  readonly data: Buffer;
  readonly expiresAt: number;
  /** Written on the current connection (false again after the connection is lost). */
  written: boolean;
  /** Times written, over all connections. */
  writes: number;
  /** Reply timeouts charged to this request (it was the oldest when ReceiveTime passed). */
  timeouts: number;
}

class StreamPersisterBehaviour implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private consumer?: QueueConsumer;
  private reconnector?: Reconnector<net.Socket>;
  private socket?: net.Socket;
  private file?: NodeJS.WritableStream;
  /** In the order taken; the written ones always come first. */
  private pending: Pending[] = [];
  private readonly framer: StreamFramer;
  private readonly parser?: ReplyParser;
  private readonly closeText?: string;
  private offQueueState?: () => void;
  private lastActivity = Date.now();
  private hibernating = false;
  private stopping = false;
  /** Requests written on the current connection (SessionSize). */
  private sessionWrites = 0;
  /** Simple mode: the reply read so far. */
  private simpleReply: Buffer[] = [];
  private simpleReplyBytes = 0;
  private replyTimer?: TimerHandle;
  private replyTimerFor?: Pending;
  private expiryTimer?: TimerHandle;
  private expiryAt = Infinity;
  private uncorkScheduled = false;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: StreamPersisterSettings,
  ) {
    this.framer = new StreamFramer({ sot: s.sot, eot: s.eot, maxLength: s.maxMsgLength });
    this.parser = s.parser ? createReplyParser(env.name, s.parser, env.pluginDirs) : undefined;
    this.closeText = closeText(s.closeRequest);
  }

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const input = this.env.input;
    if (!input) throw new ComponentConfigError(this.env.name, 'LinkName', undefined, 'an input link for the persister');
    this.offQueueState = input.onStateChange(ctx.guard((state: QueueState) => this.onQueueState(state)));
    this.open();
    // Simple mode keeps one request in flight; otherwise the input's capacity bounds the pending requests.
    this.consumer = ctx.consume(input, (taken, queue) => this.onMessage(taken, queue), this.simple ? { maxInFlight: 1 } : {});
    if (this.s.maxIdleMs > 0) ctx.setInterval(() => this.checkIdle(), Math.min(this.s.maxIdleMs, 1000));
    if (input.state !== 'running') this.onQueueState(input.state);
  }

  stop(): void {
    this.stopping = true;
    this.offQueueState?.();
    this.close();
  }

  private get simple(): boolean {
    return this.s.mode === 'simple';
  }

  private get requesting(): boolean {
    return this.s.operation === 'request';
  }

  // ------------------------------------------------------------------ connection

  private open(quiet = false): void {
    this.hibernating = false;
    const t = this.s.target;
    if (t.kind === 'tcp') {
      const reconnector = new Reconnector<net.Socket>({
        name: this.env.name,
        connect: async () => {
          const socket = await this.connect(t.host, t.port);
          if (this.reconnector === reconnector && !this.stopping) return socket;
          socket.destroy(); // closed or renewed while connecting
          throw new Error('connection no longer wanted');
        },
        onConnected: (socket) => this.attach(socket),
        backoff: { minMs: this.s.pauseTimeMs, maxMs: this.s.standbyTimeMs },
        tolerance: this.s.tolerance,
        // Retry forever like the original; a pool's RetryTimeout ends a child that never gets through.
        maxRetry: 0,
        logger: this.env.logger,
        status: this.env.status,
        timers: { setTimeout: (fn, ms) => this.ctx.setTimeout(fn, ms), clearTimer: (h) => this.ctx.clearTimer(h as TimerHandle) },
      });
      this.reconnector = reconnector;
      if (!quiet) this.env.status.set('RETRYING', `connecting to ${describeTarget(t)}`);
      reconnector.start();
      return;
    }
    if (t.kind === 'file') {
      const stream = fs.createWriteStream(t.path, { flags: 'a' });
      stream.on('error', this.ctx.guard((err: Error) => this.ctx.fail(err)));
      this.file = stream;
    } else {
      this.file = process.stdout;
    }
    this.env.status.set('RUNNING');
  }

  /** TCP connect, then the login handshake if one is configured (one SOTimeout deadline for both). */
  private async connect(host: string, port: number): Promise<net.Socket> {
    const deadline = Date.now() + this.s.connectTimeoutMs;
    const socket = await connectTcp({ host, port, timeoutMs: this.s.connectTimeoutMs, keepAlive: this.s.keepAlive });
    if (!this.s.handshake) return socket;
    try {
      await performHandshake(socket, this.s.handshake, deadline);
    } catch (err) {
      this.closeSocket(socket);
      if (err instanceof HandshakeError) this.env.status.count('loginFailures');
      throw err;
    }
    return socket;
  }

  private attach(socket: net.Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    this.socket = socket;
    this.sessionWrites = 0;
    this.framer.reset();
    this.resetSimpleReply();
    socket.on('data', this.ctx.guard((chunk: Buffer) => this.onData(chunk, socket)));
    socket.on('error', this.ctx.guard((err: Error) => this.onLost(err, socket)));
    if (this.simple) socket.on('end', this.ctx.guard(() => this.onPeerEnd(socket)));
    socket.on('close', this.ctx.guard(() => this.onLost(new Error(`connection to ${describeTarget(this.s.target)} closed by the peer`), socket)));
    this.flush();
  }

  /** The connection broke or is out of step: every pending request is re-sent on the next one. */
  private onLost(err: Error, socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.detach(socket);
    socket.destroy();
    if (!this.stopping) this.reconnector?.lost(err, socket);
  }

  /** Forgets the connection: nothing pending is written on a connection any more. */
  private detach(socket: net.Socket): void {
    if (socket === this.socket) this.socket = undefined;
    for (const p of this.pending) p.written = false;
    this.clearReplyTimer();
    this.resetSimpleReply();
  }

  /** Writes CloseRequest (if any) and closes; used whenever the persister itself ends a connection. */
  private closeSocket(socket: net.Socket): void {
    socket.removeAllListeners('data');
    if (this.closeText !== undefined && socket.writable) {
      socket.on('error', () => undefined);
      socket.end(this.closeText, () => socket.destroy());
    } else {
      socket.destroy();
    }
  }

  private close(): void {
    this.reconnector?.stop();
    this.reconnector = undefined;
    const socket = this.socket;
    if (socket) {
      this.detach(socket);
      this.closeSocket(socket);
    }
    if (this.file && this.file !== process.stdout) this.file.end();
    this.file = undefined;
  }

  // ------------------------------------------------------------------ requests

  private onMessage(taken: Taken<Message>, queue: XQueue<Message>): void {
    this.lastActivity = Date.now();
    const msg = taken.item;
    const tag = String(taken.cell);
    // RCField is -1 while the message is being processed, or the request's tag with a Parser (§6.1).
    msg.setField(this.s.rcField, this.parser && !this.simple ? tag : '-1');
    const expiry = msg.headers.JMSExpiration;
    const expiresAt = expiry !== undefined && expiry > 0 ? expiry : Infinity;
    if (expiresAt < Date.now()) {
      this.env.status.count('expired');
      this.complete(queue, taken, RC_TIMEOUT);
      return;
    }
    const p: Pending = { taken, queue, tag, data: this.render(msg), expiresAt, written: false, writes: 0, timeouts: 0 };
    this.pending.push(p);
    if (expiresAt < this.expiryAt) this.scheduleExpiry(expiresAt);
    if (this.hibernating) this.open();
    this.flush();
  }

  /** Writes every pending request not yet written on the current connection, oldest first. */
  private flush(): void {
    if (this.s.target.kind !== 'tcp') {
      this.flushFile();
      return;
    }
    const socket = this.socket;
    if (!socket) return; // written once connected
    let wrote = false;
    for (const p of this.pending) {
      if (p.written) continue;
      if (this.simple && wrote) break;
      if (this.simple && this.pending[0] !== p) break; // one request at a time
      if (this.s.sessionSize > 0 && this.sessionWrites >= this.s.sessionSize) break; // renewed once drained
      if (!wrote && !this.simple && !this.uncorkScheduled) this.corkForThisTurn(socket);
      wrote = true;
      p.written = true;
      p.writes++;
      this.sessionWrites++;
      if (this.requesting) {
        socket.write(p.data);
      } else {
        socket.write(p.data, this.ctx.guard((err?: Error | null) => {
          if (!err) this.finish(p, 0);
        }));
      }
    }
    if (wrote && this.requesting) this.armReplyTimer();
  }

  /** Requests written in this turn go out together at its end (many requests, few packets). */
  private corkForThisTurn(socket: net.Socket): void {
    socket.cork();
    this.uncorkScheduled = true;
    process.nextTick(() => {
      this.uncorkScheduled = false;
      socket.uncork();
    });
  }

  private flushFile(): void {
    const out = this.file;
    if (!out) return;
    for (const p of this.pending) {
      if (p.written) continue;
      p.written = true;
      p.writes++;
      out.write(p.data, this.ctx.guard((err?: Error | null) => (err ? this.ctx.fail(err) : this.finish(p, 0))));
    }
  }

  // ------------------------------------------------------------------ replies

  private onData(chunk: Buffer, socket: net.Socket): void {
    if (socket !== this.socket) return;
    if (!this.requesting) {
      this.countUnmatched(chunk.length);
      return;
    }
    if (this.simple) {
      this.onSimpleData(chunk);
      return;
    }
    for (const reply of this.framer.push(chunk)) {
      if (socket !== this.socket) return; // a reply dropped the connection
      this.onReply(reply);
    }
  }

  /** Multiplexed: one framed reply. */
  private onReply(raw: Buffer): void {
    const oldest = this.pending[0];
    if (!oldest?.written) {
      this.countUnmatched(raw.length);
      return;
    }
    if (!this.parser) {
      this.storeReply(oldest.taken.item, this.trim(raw));
      this.finish(oldest, 0);
      return;
    }
    const parsed = this.parse(this.parser, oldest, this.trim(raw).toString('utf8'));
    if (!parsed) return;
    const tag = parsed.getField(this.s.rcField);
    const target = tag === undefined ? oldest : this.pending.find((p) => p.written && p.tag === tag);
    if (!target) {
      this.env.status.count('unmatchedReplies');
      this.env.logger.debug('parsed reply tagged for no pending request dropped', { component: this.env.name, tag });
      return;
    }
    this.copyParsed(parsed, target.taken.item);
    this.finish(target, 0);
  }

  /** Simple mode: accumulate until Pattern matches the reply so far. */
  private onSimpleData(chunk: Buffer): void {
    const cur = this.pending[0];
    if (!cur?.written) {
      this.countUnmatched(chunk.length);
      return;
    }
    this.simpleReply.push(chunk);
    this.simpleReplyBytes += chunk.length;
    const text = Buffer.concat(this.simpleReply, this.simpleReplyBytes).toString('utf8');
    if (this.s.replyPattern?.test(text)) this.completeSimple(cur, text);
  }

  /** Simple mode: the peer ended the stream; a started reply ends here (as the original's read loop). */
  private onPeerEnd(socket: net.Socket): void {
    const cur = this.pending[0];
    if (socket !== this.socket || !cur?.written || this.simpleReplyBytes === 0) return;
    this.completeSimple(cur, Buffer.concat(this.simpleReply, this.simpleReplyBytes).toString('utf8'));
  }

  private completeSimple(cur: Pending, text: string): void {
    this.resetSimpleReply();
    if (this.parser) {
      const parsed = this.parse(this.parser, cur, text);
      if (!parsed) return;
      this.copyParsed(parsed, cur.taken.item);
    } else {
      this.storeReply(cur.taken.item, Buffer.from(text, 'utf8'));
    }
    this.finish(cur, 0);
  }

  private resetSimpleReply(): void {
    this.simpleReply = [];
    this.simpleReplyBytes = 0;
  }

  /** The reply parsed into a scratch message; undefined after a parse error (the request got RC -1). */
  private parse(parser: ReplyParser, oldest: Pending, text: string): Message | undefined {
    const parsed = new Message();
    try {
      parser.parse(text, parsed);
      return parsed;
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.env.logger.warn('reply could not be parsed; request removed with RC -1', { component: this.env.name, reason });
      oldest.taken.item.setProperty(PARSE_ERROR_PROPERTY, reason);
      this.finish(oldest, RC_PARSE_ERROR);
      return undefined;
    }
  }

  private copyParsed(parsed: Message, msg: Message): void {
    for (const [k, v] of parsed.properties) if (k !== this.s.rcField) msg.setProperty(k, v);
    if (parsed.body.kind !== 'none') msg.body = parsed.body;
  }

  private countUnmatched(bytes: number): void {
    this.env.status.count('unmatchedReplies');
    this.env.logger.debug('reply without a pending request dropped', { component: this.env.name, bytes });
  }

  // ------------------------------------------------------------------ timers

  /** One timer, for the oldest written request: ReceiveTime from when it became the oldest. */
  private armReplyTimer(): void {
    const oldest = this.pending[0];
    if (!this.requesting || !oldest?.written) {
      this.clearReplyTimer();
      return;
    }
    if (this.replyTimerFor === oldest) return;
    this.clearReplyTimer();
    const socket = this.socket;
    this.replyTimerFor = oldest;
    this.replyTimer = this.ctx.setTimeout(() => this.onReplyTimeout(oldest, socket), this.s.receiveTimeMs);
  }

  private clearReplyTimer(): void {
    this.ctx.clearTimer(this.replyTimer);
    this.replyTimer = undefined;
    this.replyTimerFor = undefined;
  }

  private onReplyTimeout(p: Pending, socket: net.Socket | undefined): void {
    this.replyTimer = undefined;
    this.replyTimerFor = undefined;
    if (!socket || socket !== this.socket || this.pending[0] !== p) return;
    this.env.status.count('timeouts');
    p.timeouts++;
    this.onLost(new ReplyTimeoutError(this.env.name, this.s.receiveTimeMs), socket);
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
    const now = Date.now();
    const expired = this.pending.filter((p) => p.expiresAt <= now);
    // A written request leaves without its reply: drop the connection so that reply cannot answer another.
    if (this.socket && this.requesting && expired.some((p) => p.written)) this.onLost(new Error('a written request expired before its reply; reconnecting so that its late reply cannot be mistaken for another'), this.socket);
    for (const p of expired) {
      this.env.status.count('expired');
      this.finish(p, RC_TIMEOUT);
    }
    const next = Math.min(...this.pending.map((p) => p.expiresAt));
    if (next !== Infinity) this.scheduleExpiry(next);
  }

  // ------------------------------------------------------------------ completion

  /** Removes a pending request with `rc`; the only way a pending request leaves. */
  private finish(p: Pending, rc: number): void {
    const i = this.pending.indexOf(p);
    if (i < 0) return; // already finished
    this.pending.splice(i, 1);
    if (this.replyTimerFor === p) this.clearReplyTimer();
    this.complete(p.queue, p.taken, rc);
    this.armReplyTimer();
    if (!this.renewSessionIfDue()) this.flush();
  }

  private complete(queue: XQueue<Message>, taken: Taken<Message>, rc: number): void {
    const msg = taken.item;
    msg.setField(this.s.rcField, String(rc));
    for (const [k, v] of Object.entries(this.s.stringProperty)) msg.setField(k, v);
    displayMessage(this.env.logger, rc === 0 ? 'persisted' : 'failed', msg, this.s.displayMask, Object.keys(this.s.stringProperty));
    this.env.status.count(rc === 0 ? 'messages' : 'failures');
    this.lastActivity = Date.now();
    queue.remove(taken);
    this.consumer?.poke();
  }

  /** SessionSize reached and nothing written is still waiting: close (CloseRequest first) and reconnect. */
  private renewSessionIfDue(): boolean {
    const socket = this.socket;
    if (!socket || this.s.sessionSize <= 0 || this.sessionWrites < this.s.sessionSize) return false;
    if (this.pending.some((p) => p.written)) return false;
    this.env.status.count('sessions');
    this.env.logger.debug('session size reached; reconnecting', { component: this.env.name, requests: this.sessionWrites });
    this.reconnector?.stop();
    this.reconnector = undefined;
    this.detach(socket);
    this.closeSocket(socket);
    this.open(true);
    return true;
  }

  private render(msg: Message): Buffer {
    if (this.s.template) return Buffer.from(this.s.template.format(msg), 'utf8');
    if (msg.body.kind === 'bytes') return msg.body.bytes;
    return Buffer.from(msg.bodyText() ?? '', 'utf8');
  }

  /** The reply without Offhead/Offtail bytes. */
  private trim(raw: Buffer): Buffer {
    return raw.subarray(this.s.offhead, Math.max(this.s.offhead, raw.length - this.s.offtail));
  }

  private storeReply(msg: Message, reply: Buffer): void {
    if (this.s.dataField === 'body') {
      msg.body = this.s.textMode ? { kind: 'text', text: reply.toString('utf8') } : { kind: 'bytes', bytes: Buffer.from(reply) };
    } else {
      msg.setField(this.s.dataField, reply.toString('utf8'));
    }
  }

  // ------------------------------------------------------------------ control

  private onQueueState(state: QueueState): void {
    if (state === 'paused') this.env.status.set('PAUSE', 'transmit queue paused');
    else if (state === 'stopped') {
      this.close();
      this.env.status.set('STOPPED', 'input queue stopped');
    } else if (this.hibernating) this.env.status.set('DISABLED', 'idle');
    else if (this.s.target.kind !== 'tcp' || this.socket) this.env.status.set('RUNNING');
    else this.env.status.set('RETRYING', `connecting to ${describeTarget(this.s.target)}`);
  }

  /** MaxIdleTime without traffic: close the connection until the next message (the original's hibernation). */
  private checkIdle(): void {
    if (this.hibernating || this.pending.length > 0 || Date.now() - this.lastActivity < this.s.maxIdleMs) return;
    if (this.s.target.kind !== 'tcp') return;
    this.close();
    this.hibernating = true;
    this.env.status.set('DISABLED', `idle for ${this.s.maxIdleMs / 1000} s; reconnects on the next message`);
  }
}

export const STREAM_PERSISTER: ComponentDefinition<never> = {
  className: 'persister.StreamPersister',
  role: 'persister',
  operations: STREAM_PERSISTER_OPERATIONS,
  description: 'writes messages to a TCP peer, a file or stdout; operation request reads a reply for each (components.md §6.1)',
  schema: STREAM_PERSISTER_SCHEMA,
  validate: (config, baseDir, context) =>
    configIssues(() => {
      const name = String(config.Name ?? 'StreamPersister');
      const s = readStreamPersisterSettings(name, config, baseDir);
      if (s.parser) createReplyParser(name, s.parser, context?.pluginDirs ?? []);
    }),
  create: (env) => new StreamPersisterBehaviour(env, readStreamPersisterSettings(env.name, env.config, env.baseDir)),
};
