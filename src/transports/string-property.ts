/**
 * A receiver's StringProperty: values stamped on every received message (docs/components/jms-subscriber.md, docs/components/amqp.md).
 * `${CellID}` in a value is replaced by the component's CellID. JMS header names set the header
 * (JMSReplyTo first; an empty JMSReplyTo removes the reply-to), other names set a user property.
 */
import { Message, isHeaderName } from '../message/message';
import { ConfigValueError } from '../errors/config-value-error';

export type Stamper = (msg: Message) => void;

/** Thrown at start-up when a StringProperty value cannot be stored (e.g. JMSPriority "high"). */
class StringPropertyError extends ConfigValueError {
  constructor(
    component: string,
    /** The name inside StringProperty (the error's property is "StringProperty/<name>"). */
    readonly entry: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(
      { component, property: `StringProperty/${entry}`, expected: reason, cause },
      { detail: reason, message: `${component}: StringProperty.${entry}: ${reason}` },
    );
    this.name = 'StringPropertyError';
  }
}

export function compileStringProperties(component: string, map: Readonly<Record<string, string>> | undefined, cellId = '0'): Stamper {
  if (!map) return () => undefined;
  const entries = Object.entries(map).map(([k, v]) => [k, v.split('${CellID}').join(cellId)] as const);
  // The reply-to entry is always applied first, as in the original.
  entries.sort((a, b) => (a[0] === 'JMSReplyTo' ? -1 : b[0] === 'JMSReplyTo' ? 1 : 0));
  // Check header values once, so a bad value is a start-up error and never a per-message one.
  const probe = new Message();
  for (const [k, v] of entries) {
    if (!isHeaderName(k)) continue;
    try {
      probe.setHeaderFromString(k, v);
    } catch (e) {
      throw new StringPropertyError(component, k, (e as Error).message, e);
    }
  }
  if (entries.length === 0) return () => undefined;
  return (msg) => {
    for (const [k, v] of entries) {
      if (k === 'JMSReplyTo' && v === '') delete msg.headers.JMSReplyTo;
      else msg.setField(k, v);
    }
  };
}
