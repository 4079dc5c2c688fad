/**
 * Body templates (`TemplateFile`, `NeedChop`; docs/evaluator/rules.md): the file is read once at start-up
 * and rendered as a `##name##` template; the result replaces the body (text or bytes only).
 * `NeedChop: "true"` removes one trailing \n. Used alone (kind "templateFile") and after the default
 * formatter (kind "formatter").
 */
import { Message } from '../../message/message';
import { RuleConfigError } from '../errors';
import { KIND_PRECEDENCE, RulesetKindContext, RulesetKind } from '../ruleset-kinds';
import { replaceBodyText } from './body-writer';

/** Compiles the TemplateFile of a ruleset into a body writer; undefined when there is none. */
export function compileTemplateFile(ruleset: Readonly<Record<string, unknown>>, ctx: RulesetKindContext): ((msg: Message) => void) | undefined {
  const path = ruleset.TemplateFile;
  if (path === undefined || path === null) return undefined;
  if (typeof path !== 'string') throw new RuleConfigError(ctx.where('TemplateFile'), 'is not a string', 'a file path');
  let text = ctx.readTextFile(path, 'TemplateFile');
  const chop = ruleset.NeedChop;
  if (chop !== undefined && typeof chop !== 'string') throw new RuleConfigError(ctx.where('NeedChop'), 'is not a string', '"true" or "false"');
  if (chop === 'true' && text.endsWith('\n')) text = text.slice(0, -1);
  const template = ctx.template(text, 'TemplateFile');
  return (msg) => replaceBodyText(msg, template.format(msg));
}

export const TEMPLATE_FILE_KIND: RulesetKind = {
  name: 'templateFile',
  precedence: KIND_PRECEDENCE.templateFile,
  keys: ['TemplateFile', 'NeedChop'],
  detect: (r) => typeof r.TemplateFile === 'string',
  compile(ruleset, ctx) {
    const write = compileTemplateFile(ruleset, ctx) as (msg: Message) => void;
    return (msg) => write(msg);
  },
};
