/**
 * jmerge (docs/evaluator/transforms.md, spec only: an extension defined here by analogy with xmerge).
 *
 * | key             | default | meaning                                             |
 * |-----------------|---------|-----------------------------------------------------|
 * | JSONField       | (req.)  | property whose value is the source JSON             |
 * | SourceJSONPath  | `.`     | the value to merge, in the source                   |
 * | TargetJSONPath  | `.`     | where it goes, in the body                          |
 *
 * 1. JSONField missing, or not JSON: the transform fails.
 * 2. Source not found (or null): nothing changes, code 0 (as xmerge with no source node).
 * 3. Target not found: the transform fails.
 * 4. append: the target is a list. A source list has its elements appended in order, skipping
 *    nulls; any other source is appended as one element.
 * 5. union: the target and the source are objects. Source keys the target does not have are
 *    added (in source order); keys the target has keep the target's value.
 * 6. Any other combination (object target with a non-object source, scalar target): fails.
 * 7. The body is re-serialised (compact JSON, numbers as written) only if something was added.
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { readRewritableBodyText } from './body';
import { SelectionError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { compileJsonPathKey, parseJsonInput } from './json-support';
import { JsonValue, hasJsonKey, isJsonObject, putJsonKey, stringifyJson } from './json-text';
import { stringKey } from './ruleset-values';

const KIND = 'jmerge';

export function compileJMerge(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const field = stringKey(ruleset, 'JSONField', ctx);
  const source = compileJsonPathKey(stringKey(ruleset, 'SourceJSONPath', ctx, '.'), 'SourceJSONPath', ctx);
  const target = compileJsonPathKey(stringKey(ruleset, 'TargetJSONPath', ctx, '.'), 'TargetJSONPath', ctx);
  return (msg) => {
    const sourceText = msg.getProperty(field);
    if (sourceText === undefined) throw new SelectionError(KIND, rulesetName, 'JSONField', `the message has no property ${JSON.stringify(field)}`);
    const sourceJson = parseJsonInput(sourceText, KIND, rulesetName, `property ${JSON.stringify(field)}`);
    const body = parseJsonInput(readRewritableBodyText(msg, KIND, rulesetName), KIND, rulesetName, 'the body');
    const value = perMessage(KIND, rulesetName, () => source.select(sourceJson));
    const into = perMessage(KIND, rulesetName, () => target.select(body));
    if (into === undefined) throw new SelectionError(KIND, rulesetName, 'TargetJSONPath', `${target.source} is not found in the body`);
    if (value === undefined || value === null) return;
    if (merge(into, value, rulesetName)) replaceBodyText(msg, stringifyJson(body));
  };
}

/** Merges `value` into `into` in place; true when something was added. */
function merge(into: JsonValue, value: JsonValue, rulesetName: string): boolean {
  if (Array.isArray(into)) {
    const added = Array.isArray(value) ? value.filter((v) => v !== null) : [value];
    into.push(...added);
    return added.length > 0;
  }
  if (isJsonObject(into) && isJsonObject(value)) {
    let added = false;
    for (const [key, v] of Object.entries(value)) {
      if (hasJsonKey(into, key)) continue;
      putJsonKey(into, key, v);
      added = true;
    }
    return added;
  }
  throw new SelectionError(
    KIND,
    rulesetName,
    'TargetJSONPath',
    `cannot merge ${describe(value)} into ${describe(into)} (append needs a list target, union two objects)`,
  );
}

function describe(v: JsonValue): string {
  return Array.isArray(v) ? 'a list' : isJsonObject(v) ? 'an object' : 'a scalar';
}

export const jmergeKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.jmerge,
  keys: ['JSONField', 'SourceJSONPath', 'TargetJSONPath'],
  needsBody: true,
  detect: (ruleset) => ruleset.JSONField !== undefined && ruleset.JSONField !== null,
  compile: compileJMerge,
};
