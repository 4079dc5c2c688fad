/** Replacing the body with text, for kinds that may only write text or bytes bodies (docs/evaluator/rules.md). */
import { Message } from '../../message/message';
import { RuleEvaluationError } from '../errors';

export function replaceBodyText(msg: Message, text: string): void {
  const kind = msg.body.kind;
  if (kind !== 'text' && kind !== 'bytes' && kind !== 'none') throw new RuleEvaluationError(`cannot replace the body of a ${kind} message`, 'body');
  msg.setText(text);
}
