/**
 * jcut (docs/evaluator/transforms.md, spec only: an extension defined here by analogy with xcut).
 *
 * `"JSONPath": "path"` (a string; a map is the JSONPath map kind) removes the value at the path
 * from the JSON body: a key from its object, an element from its list (later elements move up).
 * The body is then re-serialised as compact JSON (numbers keep their literal text, keys their
 * order). Path not found: nothing changes, code 0 (as xcut). A path that does not fit the data,
 * or a body that is not JSON: the transform fails. The root path (`.`) is refused at start-up.
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { readRewritableBodyText } from './body';
import { TransformConfigError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { compileJsonPathKey, parseJsonInput } from './json-support';
import { stringifyJson } from './json-text';
import { stringKey } from './ruleset-values';

const KIND = 'jcut';

export function compileJCut(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const path = compileJsonPathKey(stringKey(ruleset, 'JSONPath', ctx), 'JSONPath', ctx);
  if (path.isRoot) throw new TransformConfigError(ctx.where('JSONPath'), 'jcut cannot remove the whole body', 'a path below the root');
  return (msg) => {
    const json = parseJsonInput(readRewritableBodyText(msg, KIND, rulesetName), KIND, rulesetName, 'the body');
    const found = perMessage(KIND, rulesetName, () => path.locate(json));
    if (found === undefined) return;
    const { parent, at } = found;
    if (Array.isArray(parent)) parent.splice(at as number, 1);
    else if (parent !== undefined) delete parent[at as string];
    replaceBodyText(msg, stringifyJson(json));
  };
}

export const jcutKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.jcut,
  keys: ['JSONPath'],
  needsBody: true,
  detect: (ruleset) => typeof ruleset.JSONPath === 'string',
  compile: compileJCut,
};
