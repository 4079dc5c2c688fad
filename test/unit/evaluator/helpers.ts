import { join } from 'node:path';
import { MessageEvaluatorEngine, MessageEvaluatorOptions } from '../../../src/evaluator';
import { Message, MessageHeaders } from '../../../src/message';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'evaluator');

export interface Logged {
  warn: string[];
  error: string[];
}

export function makeEngine(
  rulesets: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  options: Partial<MessageEvaluatorOptions> = {},
): { engine: MessageEvaluatorEngine; logged: Logged } {
  const logged: Logged = { warn: [], error: [] };
  const engine = new MessageEvaluatorEngine(
    { Name: 'pstr_eval', ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', Ruleset: rulesets, ...extra },
    {
      baseDir: FIXTURES,
      pluginDirs: [join(FIXTURES, 'plugins')],
      logger: { warn: (m) => logged.warn.push(m), error: (m) => logged.error.push(m) },
      ...options,
    },
  );
  return { engine, logged };
}

export function message(properties: Record<string, string>, body?: string, headers: MessageHeaders = {}): Message {
  return body === undefined ? new Message({ properties, headers }) : Message.text(body, properties, headers);
}

/** Evaluates synchronously and fails the test if the engine went asynchronous. */
export function evaluateSync(engine: MessageEvaluatorEngine, msg: Message): Message {
  const r = engine.evaluate(msg);
  if (r !== undefined) throw new Error('evaluation unexpectedly returned a Promise');
  return msg;
}

export const rc = (msg: Message) => msg.getProperty('ReturnCode');
