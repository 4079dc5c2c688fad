/**
 * SimpleParser (`ParserArgument`, docs/evaluator/rules.md): a list of one-entry maps {name: fragment}; the
 * fragments are joined into one regex (`.` matches newlines) searched in the body text, and the i-th
 * name receives capture group i. `body` replaces the body; other names become properties.
 * No match or an empty body is EXCEPTION.
 */
import { RuleConfigError, RuleEvaluationError, isRecord } from '../errors';
import { compilePerl5, groupCount } from '../regex-dialect';
import { KIND_PRECEDENCE, RulesetKind } from '../ruleset-kinds';
import { writeField } from '../message-writer';

export const SIMPLE_PARSER_KIND: RulesetKind = {
  name: 'simpleParser',
  precedence: KIND_PRECEDENCE.simpleParser,
  keys: ['ParserArgument'],
  detect: (r) => Array.isArray(r.ParserArgument),
  needsBody: true,
  compile(ruleset, ctx) {
    const list = ruleset.ParserArgument as unknown[];
    if (list.length === 0) throw new RuleConfigError(ctx.where('ParserArgument'), 'is empty', 'a list of {name: regex fragment}');
    const names: string[] = [];
    let source = '';
    list.forEach((entry, k) => {
      const keys = isRecord(entry) ? Object.keys(entry) : [];
      if (!isRecord(entry) || keys.length === 0 || typeof entry[keys[0]] !== 'string') {
        throw new RuleConfigError(
          ctx.where(`ParserArgument[${k}]`),
          `${JSON.stringify(entry)} is not a map of a name to a regex fragment`,
          '{"name": "(regex)"}',
        );
      }
      if (keys.length > 1) ctx.logger.warn(`ruleset ${ctx.rulesetName}: ParserArgument[${k}] has several keys; only ${keys[0]} is used`);
      names.push(keys[0]);
      source += entry[keys[0]] as string;
    });
    const re = compilePerl5(source, { dotAll: true }, ctx.where('ParserArgument'));
    const groups = groupCount(re);
    return (msg, bodyText) => {
      if (bodyText === undefined || bodyText === '') throw new RuleEvaluationError('the body is empty');
      const m = re.exec(bodyText);
      if (m === null) throw new RuleEvaluationError('ParserArgument does not match the body');
      for (let i = 0; i < names.length && i < groups; i++) {
        const v = m[i + 1];
        if (v !== undefined) writeField(msg, names[i], v);
      }
    };
  },
};
