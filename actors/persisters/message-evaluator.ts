/**
 * MessageEvaluator (operation `evaluate`): the actor around MessageEvaluatorEngine. It takes each message
 * from its input XQueue, evaluates it (RCField, OriginalRC, transformed body) and removes it: that removal
 * is the "bounce back" — the producer's completion callback receives the same, now evaluated, message.
 * It never acknowledges a broker and never forwards anything (docs/components/message-evaluator.md).
 */
import { ComponentConfig, ComponentDefinition, inputOf } from '../../src/runtime/component';
import { displayMessage } from '../../src/logging/display';
import { intStr, str } from '../../src/foundation/schema-helpers';
import { debugEnabled, Logger } from '../../src/logging/logger';
import { Message } from '../../src/message/message';
import { MessageEvaluatorEngine } from '../../src/evaluator/engine';
import type { EvaluatorLogger } from '../../src/rules/ruleset-kinds';
import { traceIdOf } from '../../src/runtime/message-trace';
import { ATTR_RETURN_CODE, ATTR_RULESET, TraceStep, endStep, startStep, tracesMessage } from '../../src/tracing/message-trace';

function evaluatorLogger(logger: Logger): EvaluatorLogger {
  return {
    debug: (m) => logger.debug(m),
    info: (m) => logger.info(m),
    warn: (m) => logger.warn(m),
    error: (m) => logger.error(m),
  };
}

/** What the settings reader checked: the engine is built from it at each start, plugins started then and only then. */
export interface MessageEvaluatorSettings {
  readonly config: ComponentConfig;
  readonly baseDir: string;
  readonly pluginDirs: readonly string[];
}

/**
 * Compiles and validates every ruleset (templates, XSLT, expressions, files, Branch and Loop references, plugin
 * modules found in PluginDir) in a check-only engine, which runs no user code and holds nothing to close.
 */
function readEvaluatorSettings(config: ComponentConfig, baseDir: string, pluginDirs: readonly string[]): MessageEvaluatorSettings {
  void new MessageEvaluatorEngine(config, { baseDir, pluginDirs, checkOnly: true });
  return Object.freeze({ config, baseDir, pluginDirs });
}

export const messageEvaluatorComponent: ComponentDefinition<never, MessageEvaluatorSettings> = {
  className: 'persister.MessageEvaluator',
  role: 'persister',
  needsInput: true,
  runsOnStart: true,
  operations: ['evaluate'],
  description: 'Evaluates messages against named rulesets (pattern match, then transformation) and bounces them back with a return code.',
  schema: {
    properties: {
      FieldName: str('the name of the property that names the rule(s), default RuleName'),
      RCField: str('the name of the return-code property, default ReturnCode'),
      OriginalRC: str('the name of the property that keeps the previous return code, default OriginalRC'),
      MaxNumberRule: intStr('an integer as a string', { min: 0 }),
      MaxNumberRules: intStr('an integer as a string', { min: 0 }),
      Ruleset: { type: 'object', description: 'a map from ruleset name to ruleset' },
    },
  },
  settings: (_name, config, baseDir, context) => readEvaluatorSettings(config, baseDir, context.pluginDirs),
  create(env, settings) {
    let engine: MessageEvaluatorEngine | undefined;
    return {
      start(ctx) {
        engine = new MessageEvaluatorEngine(settings.config, {
          baseDir: settings.baseDir,
          pluginDirs: settings.pluginDirs,
          logger: evaluatorLogger(env.logger),
          display: (ruleset, msg, mask, names) => displayMessage(env.logger, `evaluated by ${ruleset}`, msg, mask, names),
        });
        const input = inputOf(env);
        const evaluator = engine;
        const totals = env.status.totals;
        // the ruleset that matched and its return code, built only when the log writes debug lines
        const debug = debugEnabled(env.logger);
        const countResult = (msg: Message) => {
          try {
            totals.countResult(msg.properties.get(evaluator.fieldName) ?? '', msg.properties.get(evaluator.rcField) ?? '');
            if (debug)
              env.logger.debug('evaluated', {
                id: traceIdOf(msg),
                ruleset: msg.properties.get(evaluator.fieldName) ?? '',
                rc: msg.properties.get(evaluator.rcField) ?? '',
              });
          } catch {
            // a message whose properties cannot be read was bounced untouched; nothing to count
          }
        };
        const traced = (msg: Message, step: TraceStep) =>
          step !== undefined &&
          endStep(msg, step, {
            [ATTR_RULESET]: msg.properties.get(evaluator.fieldName) ?? '',
            [ATTR_RETURN_CODE]: msg.properties.get(evaluator.rcField) ?? '',
          });
        let warnedInvalidUtf8 = false;
        ctx.consume(input, (taken, q) => {
          // Rules see invalid UTF-8 as U+FFFD; count it, and say so once, so that corruption is visible.
          const invalid = taken.item.invalidUtf8Sequences();
          if (invalid > 0) {
            env.status.count('invalidUtf8Bodies');
            if (!warnedInvalidUtf8) {
              warnedInvalidUtf8 = true;
              env.logger.warn(
                'a message body holds invalid UTF-8: rules see each invalid sequence as U+FFFD (further such bodies are counted in status as invalidUtf8Bodies)',
                {
                  invalidSequences: invalid,
                  messageId: taken.item.headers.JMSMessageID,
                },
              );
            }
          }
          const step = tracesMessage(taken.item)
            ? startStep(taken.item, env.name, `evaluate ${taken.item.properties.get(evaluator.fieldName) ?? ''}`)
            : undefined;
          const pending = evaluator.evaluate(taken.item);
          if (pending) {
            return pending.then(() => {
              traced(taken.item, step);
              env.status.count('evaluated');
              countResult(taken.item);
              q.remove(taken);
            });
          }
          traced(taken.item, step);
          env.status.count('evaluated');
          countResult(taken.item);
          q.remove(taken);
        });
      },
      async stop() {
        await engine?.close();
      },
    };
  },
};
