/**
 * How the transform kinds read and replace the message body (docs/components/message-evaluator.md, docs/evaluator/transforms.md).
 * Reading: any body that has a text form (text, bytes as UTF-8, a map as `<name>value</name>`
 * lines); no body, or an in-process object, is a BodyTypeError. Replacing: only text and bytes
 * bodies can be rewritten (a bytes body stays bytes): the kinds check that up front with
 * {@link readRewritableBodyText} and then write through the rules engine's replaceBodyText.
 */
import type { Message } from '../message/message';
import { BodyTypeError } from './errors';

export function readBodyText(msg: Message, kind: string, ruleset: string): string {
  const b = msg.body;
  if (b.kind === 'none' || b.kind === 'object') throw new BodyTypeError(kind, ruleset, describeBody(b.kind), 'a text, bytes or map body');
  return msg.bodyText() ?? '';
}

/** Checks up front that the body can later be replaced, so a transform fails before doing work. */
export function readRewritableBodyText(msg: Message, kind: string, ruleset: string): string {
  const b = msg.body;
  if (b.kind === 'text') return b.text;
  if (b.kind === 'bytes') return b.bytes.toString('utf8');
  throw new BodyTypeError(kind, ruleset, describeBody(b.kind), 'a text or bytes body');
}

function describeBody(kind: string): string {
  return kind === 'none' ? 'absent' : `a ${kind} body`;
}
