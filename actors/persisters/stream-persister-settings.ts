/** StreamPersister configuration (components.md §6.1): parsed once, with errors naming the property. */
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { boolStr, intStr, str, strMap } from '../../src/config/schema-helpers';
import { Template } from '../../src/rules/template';
import { parseDisplayMask } from '../../src/logging/display';
import { ConfigReader, ComponentConfigError } from '../support/config-values';
import { DEFAULT_MAX_MSG_LENGTH, HexBytesError, parseHexBytes } from '../stream/framing';
import { StreamTarget, parseStreamTarget } from '../stream/stream-target';
import { ParserSpec, readParserSpec } from './stream-reply-parser';

export const STREAM_PERSISTER_OPERATIONS = ['request', 'write'] as const;
export type StreamPersisterOperation = (typeof STREAM_PERSISTER_OPERATIONS)[number];

/** RCField value of a request that got no reply in time (R: of §6.1, quirk 23). */
export const RC_TIMEOUT = 256;

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
}

export const STREAM_PERSISTER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    EOTBytes: str('hex bytes ending a reply, e.g. "0x0a"'),
    SOTBytes: str('hex bytes starting a reply, e.g. "0x02"'),
    Offhead: intStr('bytes to cut from the head of a reply', { min: 0 }),
    Offtail: intStr('bytes to cut from the tail of a reply', { min: 0 }),
    MaxMsgLength: intStr('the longest reply in bytes (default 4194304)', { min: 1 }),
    KeepAlive: boolStr(),
    SOTimeout: intStr('the connect timeout in seconds (default 60)', { min: 0 }),
    RetryTimeout: intStr('seconds a pooled persister may keep RETRYING before the pool stops it', { min: 0 }),
    Retry: intStr('re-sends of a request whose reply timed out (default 1)', { min: 0 }),
    Template: str('the request text, e.g. "##body##\\n"'),
    DataField: str('the field the reply is stored in (default "body")'),
    RCField: str('the return-code field (default "ReturnCode")'),
    Parser: { type: 'object', description: 'a map with ClassName ("org.qbroker.event.EventParser" or a module in a PluginDir) and optional ParserArgument; each reply goes through it' },
    HostName: str(),
    Port: intStr(),
    StringProperty: strMap(),
  },
};

export function readStreamPersisterSettings(component: string, config: ComponentConfig, baseDir: string): StreamPersisterSettings {
  const c = new ConfigReader(component, config);
  const operation = c.oneOf('Operation', STREAM_PERSISTER_OPERATIONS, 'request');
  const target = parseStreamTarget(component, c.required('URI'), baseDir);
  if (operation === 'request' && target.kind !== 'tcp') throw new ComponentConfigError(component, 'Operation', operation, '"write" for a file URI (request needs tcp://)');
  const hex = (key: string) => {
    try {
      return parseHexBytes(key, c.string(key));
    } catch (e) {
      throw e instanceof HexBytesError ? new ComponentConfigError(component, key, e.value, 'hex bytes with a 2-character prefix, e.g. "0x0a"') : e;
    }
  };
  const parser = readParserSpec(component, c.raw('Parser'));
  const pauseTimeMs = c.int('PauseTime', 5000, { min: 1 });
  return {
    operation,
    target,
    sot: hex('SOTBytes'),
    eot: hex('EOTBytes'),
    offhead: c.int('Offhead', 0, { min: 0 }),
    offtail: c.int('Offtail', 0, { min: 0 }),
    maxMsgLength: c.int('MaxMsgLength', DEFAULT_MAX_MSG_LENGTH, { min: 1 }),
    keepAlive: c.bool('KeepAlive', false),
    connectTimeoutMs: c.number('SOTimeout', 60, { min: 0.001 }) * 1000,
    receiveTimeMs: c.int('ReceiveTime', 1000, { min: 1 }),
    pauseTimeMs,
    standbyTimeMs: Math.max(pauseTimeMs, c.int('StandbyTime', 15000, { min: 1 })),
    tolerance: c.int('Tolerance', 0, { min: 0 }),
    retry: c.int('Retry', 1, { min: 0 }),
    maxIdleMs: c.number('MaxIdleTime', 0, { min: 0 }) * 1000,
    template: c.has('Template') ? new Template(c.required('Template'), { where: { component, key: 'Template' } }) : undefined,
    dataField: c.string('DataField', 'body'),
    rcField: c.string('RCField', 'ReturnCode'),
    textMode: c.int('TextMode', 1, { min: 0, max: 1 }) === 1,
    stringProperty: c.stringMap('StringProperty'),
    displayMask: parseDisplayMask(c.string('DisplayMask')),
    parser,
  };
}
