/**
 * JSONPath map (docs/evaluator/transforms.md): `"JSONPath": {"property": "path", ...}` sets each property
 * from the JSON body: a scalar as its literal text (`1`, `2.50`, `true`), an object or array as
 * compact JSON with every scalar quoted (`{"sku":"s2","qty":"5"}`, keys in input order). A path
 * that is not found, or leads to null, leaves its property unset. A path that does not fit the
 * data fails the transform; properties set before stay set. Paths are static (`##..##` is not
 * expanded).
 */
import { isRecord } from '../rules/errors';
import { readBodyText } from './body';
import { perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { compileJsonPathKey, parseJsonInput } from './json-support';
import { literalText } from './json-text';
import { stringMapKey } from './ruleset-values';

const KIND = 'jsonpath-map';

export function compileJsonPathMap(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const entries = Object.entries(stringMapKey(ruleset, 'JSONPath', ctx)).map(([property, path]) => ({
    property,
    path: compileJsonPathKey(path, `JSONPath.${property}`, ctx),
  }));
  return (msg) => {
    const json = parseJsonInput(readBodyText(msg, KIND, rulesetName), KIND, rulesetName, 'the body');
    for (const { property, path } of entries) {
      const value = perMessage(KIND, rulesetName, () => path.select(json));
      if (value !== undefined && value !== null) msg.setProperty(property, literalText(value));
    }
  };
}

export const jsonPathMapKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.jsonPathMap,
  keys: ['JSONPath'],
  needsBody: true,
  detect: (ruleset) => isRecord(ruleset.JSONPath),
  compile: compileJsonPathMap,
};
