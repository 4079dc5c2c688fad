/**
 * The default formatter kind (`FormatterArgument`, docs/evaluator/rules.md), with an optional TemplateFile
 * applied after a successful formatter (docs/evaluator/rules.md). Deliberate fix: an empty FormatterArgument list still
 * applies its TemplateFile (the original then applied nothing).
 */
import { Message } from '../../message/message';
import { FunctionBuilder } from '../codegen';
import { compileFormatter } from '../formatter';
import { KIND_PRECEDENCE, RulesetKind } from '../ruleset-kinds';
import { compileTemplateFile } from './template-file';

export const FORMATTER_KIND: RulesetKind = {
  name: 'formatter',
  precedence: KIND_PRECEDENCE.formatter,
  keys: ['FormatterArgument', 'TemplateFile', 'NeedChop'],
  detect: (r) => Array.isArray(r.FormatterArgument),
  compile(ruleset, ctx) {
    const formatter = compileFormatter(ruleset.FormatterArgument, { where: ctx.where('FormatterArgument'), clock: ctx.clock, random: ctx.random });
    const writeBody = compileTemplateFile(ruleset, ctx);
    if (writeBody === undefined)
      return Object.assign((msg: Message) => formatter.apply(msg), { emit: (b: FunctionBuilder, msg: string) => formatter.emit(b, msg) });
    return Object.assign(
      (msg: Message) => {
        formatter.apply(msg);
        writeBody(msg);
      },
      { emit: (b: FunctionBuilder, msg: string) => `${formatter.emit(b, msg)}\n${b.bind(writeBody)}(${msg});` },
    );
  },
};
