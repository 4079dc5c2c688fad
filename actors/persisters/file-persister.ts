/**
 * FilePersister (docs/components/stream-and-file.md): operation download (default) fetches a file:// or http(s):// resource
 * for each message, store writes the message to one. The URI gives the default remote path; a message
 * may name its own in the property named by FieldName (FileName for file:// when FieldName is not set).
 * Downloaded content goes into the body (text with TextMode 1, bytes with 0) or, when the message names
 * a local file in the property named by StoreField (default LocalStore), into that file.
 *
 * RCField: 2 when taken, 16 during the transfer, 0 on success, 1 when the transfer cannot succeed (a
 * missing file, HTTP 4xx, no remote path). Other errors (refused, timeout, HTTP 5xx) are retried Retry
 * times ReceiveTime ms apart; then the persister reports RETRYING and keeps trying with back-off
 * (PauseTime to StandbyTime) while the message stays in its queue - a pool's RetryTimeout ends that.
 */
import path from 'node:path';
import { ActorContext, Behaviour, QueueConsumer } from '../../src/runtime/actor';
import { ComponentConfig, ComponentDefinition, ComponentEnv, JsonSchema, inputOf } from '../../src/runtime/component';
import { Backoff } from '../../src/foundation/backoff';
import { describe } from '../../src/runtime/actor';
import { intStr, integerSchemas, integerSetting, str, strMap } from '../../src/foundation/schema-helpers';
import { Template } from '../../src/rules/template';
import { displayMessage, parseDisplayMask } from '../../src/logging/display';
import { tracePublish, tracePublished, tracingActive } from '../../src/tracing/message-trace';
import { Message } from '../../src/message/message';
import { Taken, XQueue } from '../../src/xqueue/xqueue';
import { filePathOf, parseAddress } from '../support/address';
import { ComponentConfigError, ConfigReader } from '../support/config-values';
import { PermanentTransferError, httpTransfer, readLocal, writeLocal } from './file-persister-transfer';

const FILE_PERSISTER_OPERATIONS = ['download', 'store'] as const;

const FILE_RC = { SUCCESS: 0, FAILURE: 1, STARTED: 2, TRANSFER: 16 } as const;

export interface FilePersisterSettings {
  readonly operation: (typeof FILE_PERSISTER_OPERATIONS)[number];
  readonly scheme: 'file' | 'http' | 'https';
  readonly uri: string;
  /** file: the default local path ("" when the URI has none). */
  readonly basePath: string;
  readonly fieldName?: string;
  readonly storeField: string;
  readonly retry: number;
  readonly receiveTimeMs: number;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly pauseTimeMs: number;
  readonly standbyTimeMs: number;
  readonly textMode: boolean;
  readonly template?: Template;
  readonly rcField: string;
  readonly stringProperty: Readonly<Record<string, string>>;
  readonly displayMask: number;
  readonly baseDir: string;
}

/** 64 MiB: a download is held in memory (it becomes a message body), so it must be bounded. */
export const DEFAULT_MAX_SIZE = 64 * 1024 * 1024;

/** The integer settings of its own: their schema and the reader's defaults and ranges. */
const FILE_PERSISTER_INTEGERS = {
  Retry: integerSetting('extra attempts of a failed transfer', 0, { min: 0 }),
  MaxSize: integerSetting('bytes an HTTP response may have', DEFAULT_MAX_SIZE, { min: 1 }),
};

const FILE_PERSISTER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    FieldName: str('the message property naming the remote path'),
    StoreField: str('the message property naming a local file to store a download in (default "LocalStore")'),
    SOTimeout: intStr('seconds an HTTP exchange may take, however long the server keeps sending (default 60)', { min: 0 }),
    ...integerSchemas(FILE_PERSISTER_INTEGERS),
    RetryTimeout: intStr('seconds a pooled persister may keep RETRYING before the pool stops it', { min: 0 }),
    Template: str('the content a store writes, e.g. "##body##"'),
    RCField: str('the return-code field (default "ReturnCode")'),
    Logfile: str('the local path (set by PersisterPool for file:// URIs)'),
    HostName: str(),
    Port: intStr(),
    StringProperty: strMap(),
  },
};

function readFilePersisterSettings(component: string, config: ComponentConfig, baseDir: string): FilePersisterSettings {
  const c = new ConfigReader(component, config);
  const operation = c.oneOf('Operation', FILE_PERSISTER_OPERATIONS, 'download');
  const uri = c.required('URI');
  const a = parseAddress(uri);
  if (!a || (a.scheme !== 'file' && a.scheme !== 'http' && a.scheme !== 'https'))
    throw new ComponentConfigError(component, 'URI', uri, 'file://path, http://host/path or https://host/path');
  const fieldName = c.has('FieldName') ? c.required('FieldName') : undefined;
  const basePath = a.scheme === 'file' ? (c.has('Logfile') ? c.required('Logfile') : filePathOf(uri).replace(/^-$/, '')) : a.path;
  if (a.scheme !== 'file' && a.path === '' && !fieldName)
    throw new ComponentConfigError(component, 'URI', uri, 'a URI with a path, or FieldName naming the path in each message');
  const pauseTimeMs = c.int('PauseTime', 5000, { min: 1 });
  const n = c.integers(FILE_PERSISTER_INTEGERS);
  return {
    operation,
    scheme: a.scheme,
    uri,
    basePath,
    fieldName,
    storeField: c.string('StoreField', 'LocalStore'),
    retry: n.Retry,
    receiveTimeMs: c.int('ReceiveTime', 1000, { min: 0 }),
    timeoutMs: c.number('SOTimeout', 60, { min: 0.001 }) * 1000,
    maxBytes: n.MaxSize,
    pauseTimeMs,
    standbyTimeMs: Math.max(pauseTimeMs, c.int('StandbyTime', 15000, { min: 1 })),
    textMode: c.int('TextMode', 1, { min: 0, max: 1 }) === 1,
    template: c.has('Template') ? new Template(c.required('Template'), { where: { component, key: 'Template' } }) : undefined,
    rcField: c.string('RCField', 'ReturnCode'),
    stringProperty: c.stringMap('StringProperty'),
    displayMask: parseDisplayMask(c.string('DisplayMask')),
    baseDir,
  };
}

class FilePersisterBehaviour implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private consumer?: QueueConsumer;
  private readonly abort = new AbortController();
  private readonly backoff: Backoff;
  private stopped = false;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: FilePersisterSettings,
  ) {
    this.backoff = new Backoff({ minMs: s.pauseTimeMs, maxMs: s.standbyTimeMs });
  }

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    const input = inputOf(this.env);
    this.consumer = ctx.consume(input, (taken, queue) => ctx.guard(() => this.process(taken, queue))(), { maxInFlight: 1 });
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  private async process(taken: Taken<Message>, queue: XQueue<Message>): Promise<void> {
    const msg = taken.item;
    msg.setField(this.s.rcField, String(FILE_RC.STARTED));
    const target = this.remoteOf(msg);
    if (target === undefined) {
      this.env.logger.error('message names no remote path and the URI has none; dropped', { component: this.env.name });
      return this.finish(taken, queue, FILE_RC.FAILURE);
    }
    // The destination without any user:password of a URL.
    if (tracingActive())
      tracePublish(msg, { component: this.env.name, system: this.s.scheme === 'file' ? 'file' : 'http', destination: target.replace(/\/\/[^/@]*@/, '//') });
    for (;;) {
      const outcome = await this.attempts(msg, target);
      if (this.stopped) return; // the runtime puts the message back
      if (outcome === 'done') return this.finish(taken, queue, FILE_RC.SUCCESS);
      if (outcome instanceof PermanentTransferError) {
        this.env.logger.warn('transfer failed', { component: this.env.name, error: outcome.message });
        return this.finish(taken, queue, FILE_RC.FAILURE);
      }
      // Retries used up: keep the message and try again later, visibly.
      const delay = this.backoff.next();
      this.env.status.set('RETRYING', `${describe(outcome)}; next attempt in ${delay} ms`, Date.now() + delay);
      await this.sleep(delay);
      if (this.stopped) return;
    }
  }

  /** 1 + Retry attempts, ReceiveTime apart. */
  private async attempts(msg: Message, target: string): Promise<'done' | unknown> {
    let last: unknown;
    for (let i = 0; i <= this.s.retry; i++) {
      if (i > 0) await this.sleep(this.s.receiveTimeMs);
      if (this.stopped) return last;
      msg.setField(this.s.rcField, String(FILE_RC.TRANSFER));
      try {
        await this.transfer(msg, target);
        if (this.env.status.status !== 'RUNNING') this.env.status.set('RUNNING');
        this.backoff.reset();
        return 'done';
      } catch (e) {
        if (e instanceof PermanentTransferError) return e;
        last = e;
        this.env.status.count('retries');
      }
    }
    return last;
  }

  private async transfer(msg: Message, target: string): Promise<void> {
    const web = this.s.scheme !== 'file';
    if (this.s.operation === 'download') {
      const content = web
        ? await httpTransfer(target, { method: 'GET', timeoutMs: this.s.timeoutMs, maxBytes: this.s.maxBytes, signal: this.abort.signal })
        : await readLocal(target);
      const local = msg.getField(this.s.storeField);
      if (local !== undefined && local !== '') await writeLocal(path.resolve(this.s.baseDir, local), content);
      else msg.body = this.s.textMode ? { kind: 'text', text: content.toString('utf8') } : { kind: 'bytes', bytes: content };
      return;
    }
    const data = this.s.template
      ? Buffer.from(this.s.template.format(msg), 'utf8')
      : msg.body.kind === 'bytes'
        ? msg.body.bytes
        : Buffer.from(msg.bodyText() ?? '', 'utf8');
    if (!web) return writeLocal(target, data);
    const reply = await httpTransfer(target, { method: 'POST', body: data, timeoutMs: this.s.timeoutMs, maxBytes: this.s.maxBytes, signal: this.abort.signal });
    if (reply.length > 0) msg.body = this.s.textMode ? { kind: 'text', text: reply.toString('utf8') } : { kind: 'bytes', bytes: reply };
  }

  /** The remote file or URL for this message: the message's own (FieldName / FileName) or the URI's. */
  private remoteOf(msg: Message): string | undefined {
    const own = msg.getField(this.s.fieldName ?? (this.s.scheme === 'file' ? 'FileName' : ''));
    if (this.s.scheme === 'file') {
      const p = own !== undefined && own !== '' ? own : this.s.basePath;
      return p === '' ? undefined : path.resolve(this.s.baseDir, p);
    }
    if (own !== undefined && own !== '') return /^https?:\/\//i.test(own) ? own : new URL(own, this.s.uri).toString();
    return this.s.basePath === '' ? undefined : this.s.uri;
  }

  private finish(taken: Taken<Message>, queue: XQueue<Message>, rc: number): void {
    const msg = taken.item;
    tracePublished(msg, rc === 0 ? undefined : `return code ${rc}`);
    msg.setField(this.s.rcField, String(rc));
    for (const [k, v] of Object.entries(this.s.stringProperty)) msg.setField(k, v);
    displayMessage(this.env.logger, rc === 0 ? 'persisted' : 'failed', msg, this.s.displayMask, Object.keys(this.s.stringProperty));
    this.env.status.count(rc === 0 ? 'messages' : 'failures');
    queue.remove(taken);
    this.consumer?.poke();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.ctx.setTimeout(resolve, ms));
  }
}

export const FILE_PERSISTER: ComponentDefinition<never, FilePersisterSettings> = {
  className: 'persister.FilePersister',
  role: 'persister',
  needsInput: true,
  runsOnStart: true,
  operations: FILE_PERSISTER_OPERATIONS,
  description: 'downloads (or stores) a file:// or http(s):// resource for each message (docs/components/stream-and-file.md)',
  schema: FILE_PERSISTER_SCHEMA,
  settings: readFilePersisterSettings,
  create: (env, settings) => new FilePersisterBehaviour(env, settings),
};
