/**
 * Writing a value into a message field the way the formatter does (docs/evaluator/rules.md): `body`
 * replaces the body text (a bytes body stays bytes; a map body takes the MapKey entry), JMS names set
 * the writable headers and silently ignore the rest, and other names are string properties.
 * Failures throw RuleEvaluationError.
 */
import { Message, MapValue } from '../message/message';
import { RuleEvaluationError } from './errors';
import { FunctionBuilder } from './codegen';
import { javaDoubleToString, parseJavaDouble, parseJavaLong } from './java-numbers';

export const DATA_TYPES = ['string', 'int', 'long', 'short', 'byte', 'float', 'double', 'boolean', 'char', 'byte[]'] as const;
export type DataType = (typeof DATA_TYPES)[number];

const INTEGER_RANGES: Readonly<Record<string, [bigint, bigint]>> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** The text a new property of the given DataType holds, as Java would print the typed value. */
function convertForDataType(value: string, dataType: DataType, field: string): string {
  const range = INTEGER_RANGES[dataType];
  if (range !== undefined) {
    const n = parseJavaLong(value.trim() === value ? value : '');
    if (n === undefined || n < range[0] || n > range[1]) throw new RuleEvaluationError(`${field}: ${JSON.stringify(value)} is not a ${dataType}`, field);
    return n.toString();
  }
  if (dataType === 'float' || dataType === 'double') {
    const x = parseJavaDouble(value);
    if (x === undefined) throw new RuleEvaluationError(`${field}: ${JSON.stringify(value)} is not a ${dataType}`, field);
    return javaDoubleToString(dataType === 'float' ? Math.fround(x) : x);
  }
  if (dataType === 'boolean') return value.toLowerCase() === 'true' ? 'true' : 'false';
  return value; // string, char and byte[] act as string
}

function setIntegerHeader(msg: Message, name: 'JMSPriority' | 'JMSDeliveryMode' | 'JMSTimestamp' | 'JMSExpiration', value: string): void {
  const n = parseJavaLong(value.trim());
  if (n === undefined) throw new RuleEvaluationError(`${name}: ${JSON.stringify(value)} is not an integer`, name);
  if (name === 'JMSPriority' && (n < 0n || n > 9n)) throw new RuleEvaluationError(`JMSPriority: ${value} is outside 0-9`, name);
  msg.headers[name] = Number(n);
}

/** Writes a JMS-named field (docs/evaluator/rules.md); names that cannot be written are ignored, as in the original. */
function writeHeader(msg: Message, name: string, value: string, now: () => number): void {
  switch (name) {
    case 'JMSType':
    case 'JMSMessageID':
    case 'JMSCorrelationID':
      msg.headers[name] = value;
      return;
    case 'JMSPriority':
    case 'JMSDeliveryMode':
    case 'JMSTimestamp':
    case 'JMSExpiration':
      setIntegerHeader(msg, name, value);
      return;
    case 'JMSReplyTo':
      if (value === '') delete msg.headers.JMSReplyTo;
      else msg.headers.JMSReplyTo = value;
      return;
    case 'JMSDate': {
      // [QUIRK] kept: the value is an age in ms; the timestamp becomes now minus the age. Non-numbers are ignored.
      const age = parseJavaLong(value.trim());
      if (age !== undefined) msg.headers.JMSTimestamp = now() - Number(age);
      return;
    }
    default:
      return; // JMSDestination, JMSAge, JMSXDeliveryCount, JMSFamily and other JMS names: silently ignored
  }
}

export interface WriteOptions {
  /** DataType for a property that does not exist yet. */
  dataType?: DataType;
  /** For map bodies: the entry `body` writes. */
  mapKey?: string;
  clock?: () => number;
}

/**
 * Writing one field as a JavaScript statement over the identifier `msg` and the string expression
 * `value`, for generated code (codegen.ts): a plain string property is a direct set, everything
 * else goes through writeField.
 */
export function emitFieldWrite(b: FunctionBuilder, name: string, options: WriteOptions, msg: string, value: string): string {
  if (name !== 'body' && !name.startsWith('JMS') && (options.dataType === undefined || options.dataType === 'string')) {
    return `${msg}.properties.set(${b.literal(name)}, ${value});`;
  }
  return `${b.bind(writeField)}(${msg}, ${b.literal(name)}, ${value}, ${b.bind(options)});`;
}

export function writeField(msg: Message, name: string, value: string, options: WriteOptions = {}): void {
  if (name === 'body') {
    const kind = msg.body.kind;
    if (kind === 'text' || kind === 'bytes' || kind === 'none') msg.setText(value);
    else if (kind === 'map') {
      if (options.mapKey !== undefined) msg.body = { kind: 'map', map: { ...msg.body.map, [options.mapKey]: value as MapValue } };
    } else throw new RuleEvaluationError(`cannot write the body of an ${kind} message`, 'body');
    return;
  }
  if (name.startsWith('JMS')) {
    writeHeader(msg, name, value, options.clock ?? Date.now);
    return;
  }
  // [QUIRK] kept: an existing property keeps its type (always string here), DataType applies to new ones.
  const props = msg.properties;
  if (options.dataType === undefined || options.dataType === 'string' || props.has(name)) props.set(name, value);
  else props.set(name, convertForDataType(value, options.dataType, name));
}
