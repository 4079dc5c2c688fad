/**
 * StreamReceiver (docs/components/stream-and-file.md, operation read): reads a byte stream from a TCP peer or a file and
 * cuts it into messages by SOTBytes/EOTBytes (newline by default), text messages with TextMode 1
 * (default) or bytes with 0. A cell of the output XQueue is reserved before each message is added; when
 * none is free the stream is paused, so a full (or paused) XQueue stops reading.
 *
 * `file://-` reads standard input, once, to its end.
 *
 * End of stream: by default the receiver is done (status STOPPED; a pool then checks it in). With Mode
 * daemon (or ignore) it goes on: a TCP source is reconnected through the shared Reconnector, a file is
 * re-opened after PauseTime at the offset already read (it follows a growing file).
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { ActorContext, Behaviour, TimerHandle } from '../../src/runtime/actor';
import { ComponentConfig, ComponentDefinition, ComponentEnv, ConfigIssue, JsonSchema, outputOf } from '../../src/runtime/component';
import { settingsIssues } from '../../src/config/config-issues';
import { Reconnector } from '../../src/runtime/reconnector';
import { boolStr, intStr, integerSchemas, integerSetting, str, strMap } from '../../src/foundation/schema-helpers';
import { displayMessage, parseDisplayMask } from '../../src/logging/display';
import { settleTraceOnDone, traceDelivery, tracingActive } from '../../src/tracing/message-trace';
import { Message } from '../../src/message/message';
import { Partition, parsePartition } from '../../src/xqueue/partition';
import { XQueueStoppedError } from '../../src/xqueue/errors';
import { QueueState, XQueue } from '../../src/xqueue/xqueue';
import { DEFAULT_MAX_MSG_LENGTH, HexBytesError, StreamFramer, parseHexBytes } from '../stream/framing';
import { connectTcp } from '../stream/tcp-connect';
import { StreamTarget, describeTarget, parseStreamTarget } from '../stream/stream-target';
import { ComponentConfigError, ConfigReader } from '../support/config-values';
import { describeFileError } from '../../src/config/errors';

const MODES = ['default', 'daemon', 'ignore'] as const;

export interface StreamReceiverSettings {
  readonly target: StreamTarget;
  readonly sot?: Buffer;
  readonly eot?: Buffer;
  readonly maxMsgLength: number;
  readonly textMode: boolean;
  readonly mode: (typeof MODES)[number];
  readonly keepAlive: boolean;
  readonly connectTimeoutMs: number;
  readonly pauseTimeMs: number;
  readonly standbyTimeMs: number;
  readonly tolerance: number;
  readonly bufferSize: number;
  readonly partitionText?: string;
  readonly stringProperty: Readonly<Record<string, string>>;
  readonly displayMask: number;
}

/** StreamReceiver's own integer settings: their schema and the reader's defaults and ranges. */
const STREAM_RECEIVER_INTEGERS = {
  MaxMsgLength: integerSetting('the longest message in bytes', DEFAULT_MAX_MSG_LENGTH, { min: 1 }),
};

export const STREAM_RECEIVER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    EOTBytes: str('hex bytes ending a message, e.g. "0x0a"'),
    SOTBytes: str('hex bytes starting a message, e.g. "0x01"'),
    ...integerSchemas(STREAM_RECEIVER_INTEGERS),
    KeepAlive: boolStr(),
    SOTimeout: intStr('the connect timeout in seconds (default 60)', { min: 0 }),
    RetryTimeout: intStr('seconds a pooled receiver may keep RETRYING before the pool stops it', { min: 0 }),
    HostName: str(),
    Port: intStr(),
    StringProperty: strMap(),
  },
};

export function readStreamReceiverSettings(component: string, config: ComponentConfig, baseDir: string): StreamReceiverSettings {
  const c = new ConfigReader(component, config);
  c.oneOf('Operation', ['read'], 'read');
  const target = parseStreamTarget(component, c.required('URI'), baseDir);
  // Standard input cannot be re-opened or followed, so it is read once, to its end (Mode default).
  if (target.kind === 'stdio' && c.string('Mode') !== undefined && c.string('Mode') !== 'default')
    throw new ComponentConfigError(component, 'Mode', c.string('Mode'), '"default" for file://- (standard input is read once, to its end)');
  const hex = (key: string) => {
    try {
      return parseHexBytes(key, c.string(key));
    } catch (e) {
      throw e instanceof HexBytesError ? new ComponentConfigError(component, key, e.value, 'hex bytes with a 2-character prefix, e.g. "0x0a"', e) : e;
    }
  };
  const pauseTimeMs = c.int('PauseTime', 5000, { min: 1 });
  const sot = hex('SOTBytes');
  const eot = hex('EOTBytes');
  const n = c.integers(STREAM_RECEIVER_INTEGERS);
  return {
    target,
    sot,
    eot,
    maxMsgLength: n.MaxMsgLength,
    textMode: c.int('TextMode', 1, { min: 0, max: 1 }) === 1,
    mode: c.oneOf('Mode', MODES, 'default'),
    keepAlive: c.bool('KeepAlive', false),
    connectTimeoutMs: c.number('SOTimeout', 60, { min: 0.001 }) * 1000,
    pauseTimeMs,
    standbyTimeMs: Math.max(pauseTimeMs, c.int('StandbyTime', 15000, { min: 1 })),
    tolerance: c.int('Tolerance', 0, { min: 0 }),
    bufferSize: c.int('BufferSize', 4096, { min: 1 }),
    partitionText: c.string('Partition'),
    stringProperty: c.stringMap('StringProperty'),
    displayMask: parseDisplayMask(c.string('DisplayMask')),
  };
}

/** A file input that cannot be opened, said in words ("file /x does not exist"), not as EISDIR/ENOENT text. */
class StreamFileError extends XrouteError {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(describeFileError(cause, path), { cause });
    this.name = 'StreamFileError';
  }
}

/** A file input must exist when the flow is checked: a missing file is a typo to fix, not an outage to wait out. */
function checkInputFile(component: string, uri: string, target: StreamTarget): void {
  if (target.kind !== 'file') return;
  let isDirectory: boolean;
  try {
    isDirectory = fs.statSync(target.path).isDirectory();
  } catch (e) {
    throw new ComponentConfigError(component, 'URI', uri, `an existing file to read, but ${describeFileError(e, target.path)}`, e);
  }
  if (isDirectory) throw new ComponentConfigError(component, 'URI', uri, `a file to read, but ${target.path} is a directory`);
}

/**
 * `xroute validate`'s check of a file input, once the settings read (their problem is the reader's to
 * report). Not part of the settings reader, which also runs at every start: there a missing file is
 * waited for (retried), not a configuration error.
 */
function inputFileIssues(config: ComponentConfig, baseDir: string): ConfigIssue[] {
  const name = typeof config.Name === 'string' ? config.Name : 'StreamReceiver';
  let target: StreamTarget;
  try {
    target = readStreamReceiverSettings(name, config, baseDir).target;
  } catch {
    return [];
  }
  return settingsIssues(() => checkInputFile(name, String(config.URI), target));
}

/** Opens a file for reading from `start`; resolves once it is open. */
function openFile(path: string, start: number, highWaterMark: number): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const stream = fs.createReadStream(path, { start, highWaterMark });
    stream.once('error', (e) => reject(new StreamFileError(path, e)));
    stream.once('open', () => {
      stream.off('error', reject);
      resolve(stream);
    });
  });
}

class StreamReceiverBehaviour implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private output!: XQueue<Message>;
  private partition!: Partition;
  private reconnector?: Reconnector<Readable>;
  private source?: Readable;
  private readonly framer: StreamFramer;
  /** Messages cut from the stream and waiting for a cell (at most one chunk's worth: reading is paused meanwhile). */
  private backlog: Buffer[] = [];
  private waiting?: AbortController;
  private ended = false;
  /** Bytes of a file already read (a daemon re-open continues here). */
  private offset = 0;
  private offQueueState?: () => void;
  private done = false;
  private reopenTimer?: TimerHandle;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: StreamReceiverSettings,
  ) {
    this.framer = new StreamFramer({ sot: s.sot, eot: s.eot, maxLength: s.maxMsgLength });
  }

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const output = outputOf(this.env);
    this.output = output;
    this.partition = parsePartition(this.s.partitionText, output.capacity, output.name);
    this.offQueueState = output.onStateChange(ctx.guard((state: QueueState) => this.onQueueState(state)));
    const t = this.s.target;
    this.reconnector = new Reconnector<Readable>({
      name: this.env.name,
      connect: () =>
        t.kind === 'tcp'
          ? connectTcp({ host: t.host, port: t.port, timeoutMs: this.s.connectTimeoutMs, keepAlive: this.s.keepAlive })
          : t.kind === 'file'
            ? openFile(t.path, this.offset, this.s.bufferSize)
            : Promise.resolve(process.stdin),
      onConnected: (source) => this.attach(source),
      discard: (source) => source.destroy(),
      backoff: { minMs: this.s.pauseTimeMs, maxMs: this.s.standbyTimeMs },
      resource: t.kind === 'file' ? 'file' : 'connection',
      tolerance: this.s.tolerance,
      maxRetry: 0,
      fatalRetryMs: ctx.policy.fatalRetryMs,
      logger: this.env.logger,
      status: this.env.status,
      timers: { setTimeout: (fn, ms) => ctx.setTimeout(fn, ms), clearTimer: (h) => ctx.clearTimer(h as TimerHandle) },
    });
    this.env.status.set('RETRYING', `opening ${describeTarget(t)}`);
    this.reconnector.start();
    if (output.state === 'stopped') this.onQueueState('stopped');
  }

  stop(): void {
    this.offQueueState?.();
    this.finish();
  }

  private attach(source: Readable): void {
    this.source = source;
    this.ended = false;
    // A TCP reconnect starts a new stream; a file re-open continues the same one.
    if (this.s.target.kind === 'tcp') this.framer.reset();
    source.on(
      'data',
      this.ctx.guard((chunk: Buffer) => this.onChunk(chunk)),
    );
    source.on(
      'end',
      this.ctx.guard(() => this.onEnd(source)),
    );
    source.on(
      'error',
      this.ctx.guard((err: Error) => this.onLost(err, source)),
    );
    source.on(
      'close',
      this.ctx.guard(() => this.onEnd(source)),
    );
    if (this.output.state === 'paused') this.onQueueState('paused');
  }

  private onChunk(chunk: Buffer): void {
    this.offset += chunk.length;
    for (const m of this.framer.push(chunk)) this.backlog.push(m);
    this.pump();
  }

  /** Adds backlog messages while cells are free; otherwise pauses the source until a cell is reserved. */
  private pump(): void {
    while (this.backlog.length > 0 && !this.waiting && !this.done) {
      let cell: number;
      try {
        cell = this.output.tryReserve(this.partition);
      } catch (err) {
        if (err instanceof XQueueStoppedError) return this.onQueueState('stopped');
        throw err;
      }
      if (cell < 0) {
        this.source?.pause();
        const waiting = new AbortController();
        this.waiting = waiting;
        this.output.reserve({ partition: this.partition, signal: waiting.signal }).then(
          this.ctx.guard((reserved: number) => {
            this.waiting = undefined;
            if (this.done) return this.output.cancel(reserved);
            this.add(reserved);
            this.pump();
          }),
          this.ctx.guard((err: unknown) => {
            this.waiting = undefined;
            if (err instanceof XQueueStoppedError) this.onQueueState('stopped');
            // an aborted wait means we are stopping
          }),
        );
        return;
      }
      this.add(cell);
    }
    if (this.backlog.length === 0) {
      if (this.ended) this.endOfStream();
      else this.source?.resume();
    }
  }

  private add(cell: number): void {
    const bytes = this.backlog.shift() as Buffer;
    const msg = this.s.textMode ? Message.text(bytes.toString('utf8')) : Message.bytes(bytes);
    msg.headers.JMSTimestamp = Date.now();
    for (const [k, v] of Object.entries(this.s.stringProperty)) msg.setField(k, v);
    displayMessage(this.env.logger, 'received', msg, this.s.displayMask, Object.keys(this.s.stringProperty));
    if (tracingActive())
      traceDelivery(msg, undefined, {
        component: this.env.name,
        system: this.s.target.kind === 'tcp' ? 'tcp' : 'file',
        destination: describeTarget(this.s.target),
      });
    this.output.add(cell, msg, settleTraceOnDone(), this.env.status.totals);
    this.env.status.count('messages');
  }

  private onEnd(source: Readable): void {
    if (source !== this.source || this.ended) return;
    this.ended = true;
    const rest = this.framer.flush();
    if (rest && this.s.target.kind === 'tcp') this.backlog.push(rest);
    else if (rest && this.s.mode === 'default') this.backlog.push(rest);
    else if (rest) {
      // A growing file in daemon mode: keep the unfinished message for the next read.
      this.framer.push(rest);
    }
    this.pump();
  }

  /** Every message of the stream is in the queue. */
  private endOfStream(): void {
    const source = this.source;
    if (!source || this.done) return;
    if (this.s.mode === 'default') {
      this.env.logger.info('end of stream; receiver done', { component: this.env.name, source: describeTarget(this.s.target) });
      this.finish();
      this.env.status.set('STOPPED', 'end of stream');
      return;
    }
    this.source = undefined;
    source.destroy();
    const lost = () => this.reconnector?.lost(new Error(`end of stream from ${describeTarget(this.s.target)}`), source);
    if (this.s.target.kind === 'file') this.reopenTimer = this.ctx.setTimeout(lost, this.s.pauseTimeMs);
    else lost();
  }

  private onLost(err: Error, source: Readable): void {
    if (source !== this.source) return;
    this.source = undefined;
    source.destroy();
    this.reconnector?.lost(err, source);
  }

  private onQueueState(state: QueueState): void {
    if (this.done) return;
    if (state === 'stopped') {
      this.finish();
      this.env.status.set('STOPPED', 'output queue stopped');
    } else if (state === 'paused') {
      this.env.status.set('PAUSE', 'output queue paused');
    } else if (this.source) {
      this.env.status.set('RUNNING');
    }
  }

  private finish(): void {
    this.done = true;
    this.ctx.clearTimer(this.reopenTimer);
    this.waiting?.abort();
    this.waiting = undefined;
    this.reconnector?.stop();
    this.reconnector = undefined;
    this.source?.destroy();
    this.source = undefined;
    this.backlog = [];
  }
}

/**
 * The original read with a socket timeout of ReceiveTime only so its blocking read loop could look at its
 * stop and pause flags between reads; a timeout was not an error and changed nothing else. xroute reads
 * are event driven and stop or pause at once, so the setting has nothing to do: it is reported, not used.
 */
export const RECEIVE_TIME_UNUSED =
  'ReceiveTime has no effect on a StreamReceiver: the original used it as a read timeout only to check for stop and pause between blocking reads, and xroute reacts to both at once; a quiet stream is never an error';

export const STREAM_RECEIVER: ComponentDefinition<never, StreamReceiverSettings> = {
  className: 'receiver.StreamReceiver',
  role: 'receiver',
  needsOutput: true,
  operations: ['read'],
  description: 'reads a TCP stream or a file and cuts it into messages by SOTBytes/EOTBytes (docs/components/stream-and-file.md)',
  schema: STREAM_RECEIVER_SCHEMA,
  settings: (name, config, baseDir) => readStreamReceiverSettings(name, config, baseDir),
  readsToEnd: (config, baseDir) => {
    const s = readStreamReceiverSettings('', config, baseDir);
    return s.target.kind !== 'tcp' && s.mode === 'default';
  },
  validate: (config, baseDir) => [
    ...inputFileIssues(config, baseDir),
    ...(config.ReceiveTime === undefined ? [] : [{ property: 'ReceiveTime', message: RECEIVE_TIME_UNUSED, severity: 'warning' as const }]),
  ],
  create: (env, settings) => new StreamReceiverBehaviour(env, settings),
};
