/**
 * How rules read a message field by the name a configuration uses (docs/evaluator/rules.md): names
 * starting with JMS are headers (plus the computed JMSDate, JMSAge and JMSFamily), other names are
 * user properties, and templates alone fall back to the body for `body`. One reader is compiled per
 * name at start-up so the hot path is a single closure call.
 */
import { Message } from '../message/message';
import { compileDatePattern } from './java-date';
import { FunctionBuilder } from './codegen';

/** Reads a field; undefined means absent (a pattern on it fails, a template renders ""). */
type FieldReader = (msg: Message, clock: () => number) => string | undefined;

const JMS_DATE = compileDatePattern('yyyy/MM/dd.HH:mm:ss.SSS.zz');

const FAMILY: Readonly<Record<Message['body']['kind'], string>> = {
  text: 'jms_text',
  bytes: 'jms_bytes',
  map: 'jms_map',
  object: 'jms_object',
  none: 'jms_message',
};

const num = (v: number | undefined): string | undefined => (v === undefined ? undefined : String(v));

const HEADER_READERS: Readonly<Record<string, FieldReader>> = {
  JMSType: (m) => m.headers.JMSType,
  JMSMessageID: (m) => m.headers.JMSMessageID,
  JMSCorrelationID: (m) => m.headers.JMSCorrelationID,
  JMSPriority: (m) => num(m.headers.JMSPriority),
  JMSTimestamp: (m) => num(m.headers.JMSTimestamp),
  JMSExpiration: (m) => num(m.headers.JMSExpiration),
  JMSDeliveryMode: (m) => num(m.headers.JMSDeliveryMode),
  JMSReplyTo: (m) => m.headers.JMSReplyTo,
  JMSDestination: (m) => m.headers.JMSDestination,
  JMSRedelivered: (m) => (m.headers.JMSRedelivered === undefined ? undefined : String(m.headers.JMSRedelivered)),
  // JMSXDeliveryCount is a JMS-defined property; transports store it as a property of that name.
  JMSXDeliveryCount: (m) => m.properties.get('JMSXDeliveryCount'),
  JMSDate: (m) => (m.headers.JMSTimestamp === undefined ? undefined : JMS_DATE.format(m.headers.JMSTimestamp)),
  JMSAge: (m, clock) => (m.headers.JMSTimestamp === undefined ? undefined : String(clock() - m.headers.JMSTimestamp)),
  JMSFamily: (m) => FAMILY[m.body.kind],
};

const absent: FieldReader = () => undefined;

/** Which lookup rules apply: pattern groups read `body` as a property, templates fall back to the body text. */
export type ReadMode = 'property' | 'template';

/**
 * The one definition of reading a field, as a JavaScript expression over the identifiers `msg` and
 * `clock` (docs/evaluator/rules.md): JMS names are headers (unknown JMS names read as absent, as in
 * the original), `body` in a template is a property of that name, else the body text (a property
 * called `body` shadows the body, as in the original), anything else is a user property.
 */
export function emitFieldRead(b: FunctionBuilder, name: string, mode: ReadMode, msg: string, clock: string): string {
  if (name.startsWith('JMS')) return `${b.bind(HEADER_READERS[name] ?? absent)}(${msg}, ${clock})`;
  const property = `${msg}.properties.get(${b.literal(name)})`;
  if (mode === 'template' && name === 'body') return `(${property} ?? ${msg}.bodyText())`;
  return property;
}
