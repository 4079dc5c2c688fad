/**
 * StreamPersister configuration (docs/components/stream-and-file.md): parsed once, with errors naming the property.
 *
 * The mode follows the original: `simple` (one request at a time, the reply ends where Pattern matches) when
 * operation request has a Pattern and no login handshake; otherwise `multiplexed` (requests pipelined, replies
 * framed by SOTBytes/EOTBytes and matched FIFO or by the Parser's tag). With a handshake, Pattern only ends
 * the handshake's answers.
 */
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { boolStr, intStr, integerSchemas, integerSetting, str, strMap } from '../../src/foundation/schema-helpers';
import { secretStr } from '../../src/foundation/secret-properties';
import { Template } from '../../src/rules/template';
import { parseDisplayMask } from '../../src/logging/display';
import { ConfigReader, ComponentConfigError, perl5Setting } from '../support/config-values';
import { DEFAULT_MAX_MSG_LENGTH, HexBytesError, parseHexBytes } from '../stream/framing';
import { StreamTarget, parseStreamTarget } from '../stream/stream-target';
import { ParserSpec, readParserSpec } from './stream-reply-parser';
import { HandshakeSpec } from './stream-handshake';

export const STREAM_PERSISTER_OPERATIONS = ['request', 'write'] as const;
type StreamPersisterOperation = (typeof STREAM_PERSISTER_OPERATIONS)[number];

/** RCField value of a request that got no reply in time (docs/components/stream-and-file.md). */
export const RC_TIMEOUT = 256;
/** RCField of a message for stdout after stdout's reader went away (docs/components/stream-and-file.md). */
export const RC_OUTPUT_CLOSED = -1;

export interface StreamPersisterSettings {
  readonly operation: StreamPersisterOperation;
  readonly target: StreamTarget;
  readonly sot?: Buffer;
  readonly eot?: Buffer;
  readonly offhead: number;
  readonly offtail: number;
  readonly maxMsgLength: number;
  readonly keepAlive: boolean;
  readonly connectTimeoutMs: number;
  readonly receiveTimeMs: number;
  readonly pauseTimeMs: number;
  readonly standbyTimeMs: number;
  readonly tolerance: number;
  /** Re-sends of a request whose reply timed out, before RC 256. */
  readonly retry: number;
  readonly maxIdleMs: number;
  readonly template?: Template;
  readonly dataField: string;
  readonly rcField: string;
  readonly textMode: boolean;
  readonly stringProperty: Readonly<Record<string, string>>;
  readonly displayMask: number;
  /** Parser map (ClassName, ParserArgument): replies go through it instead of into DataField. */
  readonly parser?: ParserSpec;
  /** multiplexed: pipelined requests, framed replies; simple: one request, reply ends at Pattern. */
  readonly mode: 'multiplexed' | 'simple';
  /** Simple mode: the end of a reply (Perl5 dialect). */
  readonly replyPattern?: RegExp;
  /** Requests per connection; then the connection is renewed between requests (0 = never). */
  readonly sessionSize: number;
  readonly handshake?: HandshakeSpec;
  /** Lines written (each + "\n") before the persister closes a connection itself. */
  readonly closeRequest: readonly string[];
}

/** StreamPersister's own integer settings whose schema says a default: the schema and the reader's defaults and ranges. */
export const STREAM_PERSISTER_INTEGERS = {
  MaxMsgLength: integerSetting('the longest reply in bytes', DEFAULT_MAX_MSG_LENGTH, { min: 1 }),
  Retry: integerSetting('re-sends of a request whose reply timed out', 1, { min: 0 }),
  SessionSize: integerSetting('requests per connection before it is renewed between requests ({default} = never)', 0, { min: 0 }),
};

export const STREAM_PERSISTER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    EOTBytes: str('hex bytes ending a reply, e.g. "0x0a"'),
    SOTBytes: str('hex bytes starting a reply, e.g. "0x02"'),
    Offhead: intStr('bytes to cut from the head of a reply', { min: 0 }),
    Offtail: intStr('bytes to cut from the tail of a reply', { min: 0 }),
    ...integerSchemas(STREAM_PERSISTER_INTEGERS),
    KeepAlive: boolStr(),
    SOTimeout: intStr('the connect timeout in seconds (default 60)', { min: 0 }),
    RetryTimeout: intStr('seconds a pooled persister may keep RETRYING before the pool stops it', { min: 0 }),
    Template: str('the request text, e.g. "##body##\\n"'),
    DataField: str('the field the reply is stored in (default "body")'),
    RCField: str('the return-code field (default "ReturnCode")'),
    Parser: {
      type: 'object',
      description: 'a map with ClassName ("org.qbroker.event.EventParser" or a module in a PluginDir) and optional ParserArgument; each reply goes through it',
    },
    HostName: str(),
    Port: intStr(),
    StringProperty: strMap(),
    Pattern: str('Perl5 regex: with operation request and no login, the end of a reply (one request at a time); with a login, the end of each login answer'),
    Destination: str('login: open this destination with a collectible event line; the answer must be a NOTICE event'),
    DestinationProperty: {
      type: 'object',
      description: 'login: like Destination, with URI, Operation and further attributes from this map',
      properties: { Password: secretStr('the password attribute'), EncryptedPassword: secretStr('the encrypted password attribute') },
    },
    Username: str('login (Destination/DestinationProperty): the username attribute'),
    Password: secretStr('login (Destination/DestinationProperty): the password attribute'),
    ConnectionRequest: {
      type: 'array',
      items: { type: 'string' },
      description: 'login: lines written one by one after connecting, each answer read until Pattern',
    },
    ErrorResponse: { type: 'array', items: { type: 'string' }, description: 'login: an answer containing one of these strings fails the login' },
    CloseRequest: { type: 'array', items: { type: 'string' }, description: 'lines written before the persister closes a connection itself' },
    WithGreeting: boolStr('"true": read the server greeting until Pattern before the login'),
  },
};

function stringList(c: ConfigReader, key: string): string[] | undefined {
  const v = c.raw(key);
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new ComponentConfigError(c.component, key, v, 'a list of strings');
  return v as string[];
}

/** CloseRequest: the original writes it only with a ConnectionRequest login or in simple mode. */
function readCloseRequest(c: ConfigReader, applies: boolean): string[] {
  const lines = stringList(c, 'CloseRequest') ?? [];
  if (lines.length > 0 && !applies)
    throw new ComponentConfigError(
      c.component,
      'CloseRequest',
      lines,
      'no CloseRequest here: it is written only with a ConnectionRequest login or with Pattern in operation request (simple mode)',
    );
  return lines;
}

/** Destination, DestinationProperty or ConnectionRequest (in the original's order of precedence), if any. */
function readHandshake(c: ConfigReader, operation: string, pattern: string | undefined, stringProperty: Record<string, string>): HandshakeSpec | undefined {
  const greeting = c.bool('WithGreeting', false);
  const destProps = c.raw('DestinationProperty');
  const destination = c.string('Destination');
  const login = new Map<string, string>();
  const credentials = () => {
    const user = c.string('Username');
    const pass = c.string('Password');
    if (user) login.set('username', user);
    if (pass) login.set('password', pass);
  };
  if (destProps !== undefined && destProps !== null) {
    if (typeof destProps !== 'object' || Array.isArray(destProps))
      throw new ComponentConfigError(c.component, 'DestinationProperty', destProps, 'a map with URI, Operation and further string attributes');
    const h = destProps as Record<string, unknown>;
    if (typeof h.URI === 'string') login.set('uri', h.URI);
    if (typeof h.Operation === 'string') login.set('operation', h.Operation);
    credentials();
    for (const [k, v] of Object.entries(h)) if (k !== '' && k !== 'URI' && k !== 'Operation' && typeof v === 'string' && v !== '') login.set(k, v);
    return { kind: 'event', greeting, attributes: login, pattern: /\n/ };
  }
  if (destination !== undefined && destination !== '') {
    login.set('uri', destination);
    login.set('operation', operation);
    credentials();
    for (const [k, v] of Object.entries(stringProperty)) if (k !== '' && k !== 'uri' && k !== 'operation' && v !== '') login.set(k, v);
    return { kind: 'event', greeting, attributes: login, pattern: /\n/ };
  }
  const lines = stringList(c, 'ConnectionRequest');
  if (lines === undefined || lines.length === 0) return undefined;
  if (pattern === undefined || pattern === '')
    throw new ComponentConfigError(
      c.component,
      'Pattern',
      pattern,
      'a Perl5 regular expression ending each answer of the ConnectionRequest login (required with ConnectionRequest)',
    );
  return { kind: 'lines', greeting, lines, pattern: perl5Setting(c.component, 'Pattern', pattern), errorResponses: stringList(c, 'ErrorResponse') ?? [] };
}

export function readStreamPersisterSettings(component: string, config: ComponentConfig, baseDir: string): StreamPersisterSettings {
  const c = new ConfigReader(component, config);
  const operation = c.oneOf('Operation', STREAM_PERSISTER_OPERATIONS, 'request');
  const target = parseStreamTarget(component, c.required('URI'), baseDir);
  if (operation === 'request' && target.kind !== 'tcp')
    throw new ComponentConfigError(component, 'Operation', operation, '"write" for a file URI (request needs tcp://)');
  const hex = (key: string) => {
    try {
      return parseHexBytes(key, c.string(key));
    } catch (e) {
      throw e instanceof HexBytesError ? new ComponentConfigError(component, key, e.value, 'hex bytes with a 2-character prefix, e.g. "0x0a"', e) : e;
    }
  };
  const parser = readParserSpec(component, c.raw('Parser'));
  const pauseTimeMs = c.int('PauseTime', 5000, { min: 1 });
  const stringProperty = c.stringMap('StringProperty');
  const patternText = c.string('Pattern');
  const handshake = readHandshake(c, operation, patternText, stringProperty);
  if (handshake && target.kind !== 'tcp')
    throw new ComponentConfigError(
      component,
      handshake.kind === 'lines' ? 'ConnectionRequest' : 'Destination',
      undefined,
      'a tcp:// URI for a login handshake',
    );
  const sot = hex('SOTBytes');
  const eot = hex('EOTBytes');
  const simple = operation === 'request' && !handshake && patternText !== undefined && patternText !== '';
  // The original reads a simple-mode reply only with Pattern; with SOTBytes/EOTBytes too its reader has no
  // pattern and the persister stops at the first request, so the combination is refused here.
  if (simple && (sot || eot))
    throw new ComponentConfigError(
      component,
      'Pattern',
      patternText,
      'no SOTBytes/EOTBytes with it: Pattern ends the reply of a request (one at a time), the hex delimiters frame pipelined replies',
    );
  const n = c.integers(STREAM_PERSISTER_INTEGERS);
  // Read in this order (the first bad value is the one reported), and laid out below with the settings each request
  // and reply reads first, so that they share the object's first two cache lines: with 512 pooled children, every line
  // of a child's state a round trip reads is a cache miss (issue 32).
  const offhead = c.int('Offhead', 0, { min: 0 });
  const offtail = c.int('Offtail', 0, { min: 0 });
  const maxMsgLength = n.MaxMsgLength;
  const keepAlive = c.bool('KeepAlive', false);
  const connectTimeoutMs = c.number('SOTimeout', 60, { min: 0.001 }) * 1000;
  const receiveTimeMs = c.int('ReceiveTime', 1000, { min: 1 });
  const standbyTimeMs = Math.max(pauseTimeMs, c.int('StandbyTime', 15000, { min: 1 }));
  const tolerance = c.int('Tolerance', 0, { min: 0 });
  const maxIdleMs = c.number('MaxIdleTime', 0, { min: 0 }) * 1000;
  const template = c.has('Template') ? new Template(c.required('Template'), { where: { component, key: 'Template' } }) : undefined;
  const dataField = c.string('DataField', 'body');
  const rcField = c.string('RCField', 'ReturnCode');
  const textMode = c.int('TextMode', 1, { min: 0, max: 1 }) === 1;
  const displayMask = parseDisplayMask(c.string('DisplayMask'));
  const replyPattern = simple ? perl5Setting(c.component, 'Pattern', patternText as string) : undefined;
  return {
    rcField,
    template,
    receiveTimeMs,
    sessionSize: n.SessionSize,
    maxIdleMs,
    displayMask,
    offhead,
    offtail,
    dataField,
    textMode,
    operation,
    target,
    sot,
    eot,
    maxMsgLength,
    keepAlive,
    connectTimeoutMs,
    pauseTimeMs,
    standbyTimeMs,
    tolerance,
    retry: n.Retry,
    stringProperty,
    parser,
    mode: simple ? 'simple' : 'multiplexed',
    replyPattern,
    handshake,
    closeRequest: readCloseRequest(c, simple || handshake?.kind === 'lines'),
  };
}
