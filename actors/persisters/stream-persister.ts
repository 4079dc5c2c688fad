/**
 * StreamPersister (components.md §6.1): writes each message of its input XQueue to a TCP peer, a file or
 * stdout. Operation `request` then reads the reply up to EOTBytes (SOTBytes/EOTBytes framing, newline by
 * default), stores it in DataField (the body by default), sets RCField 0 and removes the message, so the
 * requester gets it back through its XQueue callback. Operation `write` only writes.
 *
 * One request is in flight at a time, so a reply always belongs to the oldest pending request. A reply
 * that does not come within ReceiveTime drops the connection (a late reply must not be taken for the
 * next request's), the request is re-sent up to Retry times after reconnecting, then it is removed with
 * RCField 256 (R: of §6.1: never silently RC 0, never re-sent forever). A request whose JMSExpiration
 * has passed is removed with 256 without being sent. Connection loss is handled by the shared
 * Reconnector (status RETRYING with the reason); the message in flight is re-sent on the new connection.
 * MaxIdleTime with nothing to send closes the connection (status DISABLED) until the next message.
 *
 * With Parser (stream-reply-parser.ts) the request is tagged with its cell id in RCField before it is
 * rendered (a Template may echo ##ReturnCode##), each reply is parsed into a scratch message, and a
 * reply whose parsed RCField names another tag is dropped as unmatched; otherwise the parsed properties
 * and body are copied into the request and it is removed with RC 0. A reply the parser cannot read
 * removes the request with RCField -1 and the reason in the property ParseError (never lost, never a crash).
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

interface InFlight {
  readonly taken: Taken<Message>;
  /** With Parser: the cell id written into RCField, read back from the parsed reply. */
  readonly tag: string;
  readonly queue: XQueue<Message>;
  attempts: number;
  written: boolean;
  timer?: TimerHandle;
}

class StreamPersisterBehaviour implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private consumer?: QueueConsumer;
  private reconnector?: Reconnector<net.Socket>;
  private socket?: net.Socket;
  private file?: NodeJS.WritableStream;
  private current?: InFlight;
  private readonly framer: StreamFramer;
  private readonly parser?: ReplyParser;
  private offQueueState?: () => void;
  private lastActivity = Date.now();
  private hibernating = false;
  private stopping = false;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: StreamPersisterSettings,
  ) {
    this.framer = new StreamFramer({ sot: s.sot, eot: s.eot, maxLength: s.maxMsgLength });
    this.parser = s.parser ? createReplyParser(env.name, s.parser, env.pluginDirs) : undefined;
  }

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const input = this.env.input;
    if (!input) throw new ComponentConfigError(this.env.name, 'LinkName', undefined, 'an input link for the persister');
    this.offQueueState = input.onStateChange(ctx.guard((state: QueueState) => this.onQueueState(state)));
    this.open();
    this.consumer = ctx.consume(input, (taken, queue) => this.onMessage(taken, queue), { maxInFlight: 1 });
    if (this.s.maxIdleMs > 0) ctx.setInterval(() => this.checkIdle(), Math.min(this.s.maxIdleMs, 1000));
    if (input.state !== 'running') this.onQueueState(input.state);
  }

  stop(): void {
    this.stopping = true;
    this.offQueueState?.();
    this.close();
  }

  // ------------------------------------------------------------------ connection

  private open(): void {
    this.hibernating = false;
    const t = this.s.target;
    if (t.kind === 'tcp') {
      const reconnector = new Reconnector<net.Socket>({
        name: this.env.name,
        connect: () => connectTcp({ host: t.host, port: t.port, timeoutMs: this.s.connectTimeoutMs, keepAlive: this.s.keepAlive }),
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
      this.env.status.set('RETRYING', `connecting to ${describeTarget(t)}`);
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

  private attach(socket: net.Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    this.socket = socket;
    this.framer.reset();
    socket.on('data', this.ctx.guard((chunk: Buffer) => this.onData(chunk)));
    socket.on('error', this.ctx.guard((err: Error) => this.onLost(err, socket)));
    socket.on('close', this.ctx.guard(() => this.onLost(new Error(`connection to ${describeTarget(this.s.target)} closed by the peer`), socket)));
    this.sendCurrent();
  }

  /** The connection broke or is out of step: the message in flight will be re-sent on the next one. */
  private onLost(err: Error, socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    socket.destroy();
    if (this.current) {
      this.ctx.clearTimer(this.current.timer);
      this.current.written = false;
    }
    if (!this.stopping) this.reconnector?.lost(err, socket);
  }

  private close(): void {
    this.reconnector?.stop();
    this.reconnector = undefined;
    this.socket?.destroy();
    this.socket = undefined;
    if (this.file && this.file !== process.stdout) this.file.end();
    this.file = undefined;
  }

  // ------------------------------------------------------------------ messages

  private onMessage(taken: Taken<Message>, queue: XQueue<Message>): void {
    this.lastActivity = Date.now();
    const tag = String(taken.cell);
    this.current = { taken, queue, tag, attempts: 0, written: false };
    // RCField is -1 while the message is being processed, or the request's tag with a Parser (§6.1).
    taken.item.setField(this.s.rcField, this.parser ? tag : '-1');
    if (this.hibernating) this.open();
    this.sendCurrent();
  }

  private sendCurrent(): void {
    const cur = this.current;
    if (!cur || cur.written) return;
    const msg = cur.taken.item;
    const expiry = msg.headers.JMSExpiration;
    if (expiry !== undefined && expiry > 0 && expiry < Date.now()) {
      this.env.status.count('expired');
      this.finish(RC_TIMEOUT);
      return;
    }
    const data = this.render(msg);
    if (this.s.target.kind !== 'tcp') {
      const out = this.file;
      if (!out) return;
      cur.written = true;
      out.write(data, this.ctx.guard((err?: Error | null) => (err ? this.ctx.fail(err) : this.finish(0))));
      return;
    }
    const socket = this.socket;
    if (!socket) return; // sent once connected
    cur.written = true;
    cur.attempts++;
    if (this.s.operation === 'request') {
      cur.timer = this.ctx.setTimeout(() => this.onReplyTimeout(socket), this.s.receiveTimeMs);
      socket.write(data);
    } else {
      socket.write(data, this.ctx.guard((err?: Error | null) => {
        if (!err && this.current === cur && cur.written) this.finish(0);
      }));
    }
  }

  private onData(chunk: Buffer): void {
    for (const reply of this.framer.push(chunk)) {
      const cur = this.current;
      if (this.s.operation !== 'request' || !cur || !cur.written) {
        this.env.status.count('unmatchedReplies');
        this.env.logger.debug('reply without a pending request dropped', { component: this.env.name, bytes: reply.length });
        continue;
      }
      if (this.parser) {
        this.parseReply(this.parser, cur, reply);
        continue;
      }
      this.ctx.clearTimer(cur.timer);
      this.storeReply(cur.taken.item, reply);
      this.finish(0);
    }
  }

  private parseReply(parser: ReplyParser, cur: InFlight, raw: Buffer): void {
    const msg = cur.taken.item;
    const parsed = new Message();
    try {
      parser.parse(this.trim(raw).toString('utf8'), parsed);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.env.logger.warn('reply could not be parsed; request removed with RC -1', { component: this.env.name, reason });
      msg.setProperty(PARSE_ERROR_PROPERTY, reason);
      this.finish(RC_PARSE_ERROR);
      return;
    }
    const tag = parsed.getField(this.s.rcField);
    if (tag !== undefined && tag !== cur.tag) {
      this.env.status.count('unmatchedReplies');
      this.env.logger.debug('parsed reply tagged for another request dropped', { component: this.env.name, tag, pending: cur.tag });
      return;
    }
    for (const [k, v] of parsed.properties) if (k !== this.s.rcField) msg.setProperty(k, v);
    if (parsed.body.kind !== 'none') msg.body = parsed.body;
    this.finish(0);
  }

  private onReplyTimeout(socket: net.Socket): void {
    const cur = this.current;
    if (!cur) return;
    this.env.status.count('timeouts');
    this.onLost(new ReplyTimeoutError(this.env.name, this.s.receiveTimeMs), socket);
    if (cur.attempts > this.s.retry) {
      this.env.logger.warn('no reply; request given up', { component: this.env.name, attempts: cur.attempts, rc: RC_TIMEOUT });
      this.finish(RC_TIMEOUT);
    }
  }

  private finish(rc: number): void {
    const cur = this.current;
    if (!cur) return;
    this.current = undefined;
    this.ctx.clearTimer(cur.timer);
    const msg = cur.taken.item;
    msg.setField(this.s.rcField, String(rc));
    for (const [k, v] of Object.entries(this.s.stringProperty)) msg.setField(k, v);
    displayMessage(this.env.logger, rc === 0 ? 'persisted' : 'failed', msg, this.s.displayMask, Object.keys(this.s.stringProperty));
    this.env.status.count(rc === 0 ? 'messages' : 'failures');
    this.lastActivity = Date.now();
    cur.queue.remove(cur.taken);
    this.consumer?.poke();
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

  private storeReply(msg: Message, raw: Buffer): void {
    const reply = this.trim(raw);
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
    if (this.hibernating || this.current || Date.now() - this.lastActivity < this.s.maxIdleMs) return;
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
