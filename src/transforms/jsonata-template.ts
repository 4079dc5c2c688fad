/**
 * JSONataFile + JSONParameter (docs/evaluator/transforms.md), an xroute kind: the file named by
 * `JSONataFile` holds one JSONata expression, compiled once at start-up and shared by every ruleset
 * naming the same file (a missing file or a syntax error aborts start-up, naming ruleset and
 * key). The parsed JSON body is the expression's input; each `JSONParameter` entry is bound as
 * the JSONata variable `$name`, its value a string, static or a `##name##` template rendered
 * from the message. The result replaces the body: a string as it is (so a template can produce
 * any text), anything else as compact JSON; no result (JSONata `undefined`) leaves the body
 * unchanged, code 0. QBroker's own JSONT templates (`JTMPFile`) are jsont-template.ts.
 *
 * Example: `{"who": $who, "total": $sum(items.qty)}` with `"JSONParameter": {"who": "##name##"}`.
 */
import jsonata from 'jsonata';
import { replaceBodyText } from '../rules/kinds/body-writer';
import { readRewritableBodyText } from './body';
import { JsonInputError, TransformConfigError, TransformError } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { messageValues, renderValues } from './message-values';
import { CompiledFiles, stringMapKey } from './ruleset-values';

const KIND = 'jsonata';
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** JSONata expressions, compiled once per file version; a syntax error names ruleset and file. */
const expressions = new CompiledFiles((file, ctx) => {
  try {
    return jsonata(file.text);
  } catch (e) {
    const { message, position } = e as { message: string; position?: number };
    const where = position !== undefined ? ` (at character ${position})` : '';
    throw new TransformConfigError(ctx.where('JSONataFile'), `${file.path} is not a JSONata expression: ${message}${where}`, 'a JSONata expression', e);
  }
});

export function compileJsonataTemplate(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const parameters = stringMapKey(ruleset, 'JSONParameter', ctx);
  for (const name of Object.keys(parameters)) {
    if (!VARIABLE_NAME.test(name)) {
      throw new TransformConfigError(ctx.where(`JSONParameter.${name}`), 'cannot be a JSONata variable name', 'letters, digits and _');
    }
  }
  const values = messageValues(parameters, 'JSONParameter', ctx);
  const expression = expressions.get(ruleset, 'JSONataFile', ctx);
  return async (msg) => {
    const text = readRewritableBodyText(msg, KIND, rulesetName);
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (e) {
      throw new JsonInputError(KIND, rulesetName, 'the body', (e as Error).message, e);
    }
    let result: unknown;
    try {
      result = await expression.evaluate(input, renderValues(values, msg));
    } catch (e) {
      throw new TransformError(KIND, rulesetName, `JSONata evaluation failed: ${(e as Error).message}`, e);
    }
    if (result === undefined) return;
    const output = typeof result === 'string' ? result : JSON.stringify(result);
    if (output === undefined) throw new TransformError(KIND, rulesetName, 'the JSONata result is not JSON (a function?)');
    replaceBodyText(msg, output);
  };
}

export const jsonataTemplateKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.jsonata,
  keys: ['JSONataFile', 'JSONParameter'],
  needsBody: true,
  detect: (ruleset) => ruleset.JSONataFile !== undefined && ruleset.JSONataFile !== null,
  compile: compileJsonataTemplate,
};
