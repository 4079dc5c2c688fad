/**
 * File age and size rulesets (`AgeRange`, `SizeRange`; docs/evaluator/rules.md; a later kind of the original's): render
 * `Template` (+ `Substitution`) into a file path, then check the file's age in ms or size in bytes
 * against a list of intervals: 0 inside, 1 outside, -1 when the file cannot be read. `ResultField`
 * receives the measured value. Deliberate fix: a missing Template is rejected at start-up.
 */
import { statSync } from 'node:fs';
import { RuleConfigError, RuleEvaluationError } from '../errors';
import { IntervalSet } from '../intervals';
import { KIND_PRECEDENCE, RulesetKind, RulesetKindContext } from '../ruleset-kinds';
import { writeField } from '../message-writer';

function fileCheckKind(name: 'ageRange' | 'sizeRange', key: 'AgeRange' | 'SizeRange', measure: (path: string, ctx: RulesetKindContext) => number): RulesetKind {
  return {
    name,
    precedence: KIND_PRECEDENCE[name],
    keys: [key, 'Template', 'Substitution', 'ResultField'],
    detect: (r) => Array.isArray(r[key]) && (r[key] as unknown[]).length > 0,
    compile(ruleset, ctx) {
      const ranges = IntervalSet.parse(ruleset[key], ctx.where(key));
      if (typeof ruleset.Template !== 'string')
        throw new RuleConfigError(ctx.where('Template'), 'is missing or not a string', 'a template giving the file path');
      const template = ctx.template(ruleset.Template, 'Template');
      const substitution =
        ruleset.Substitution === undefined || ruleset.Substitution === null ? undefined : ctx.substitution(ruleset.Substitution, 'Substitution');
      const resultField = ruleset.ResultField;
      if (resultField !== undefined && typeof resultField !== 'string')
        throw new RuleConfigError(ctx.where('ResultField'), 'is not a string', 'a property name');
      return (msg) => {
        let path: string | undefined = template.format(msg);
        if (substitution !== undefined) path = substitution.apply(path);
        if (path === undefined || path === '') throw new RuleEvaluationError('the file path is empty');
        let value: number;
        try {
          value = measure(ctx.resolvePath(path), ctx);
        } catch (e) {
          throw new RuleEvaluationError(`cannot read ${path}: ${(e as Error).message}`, undefined, e);
        }
        if (resultField !== undefined) writeField(msg, resultField, String(value));
        return ranges.containsBigInt(BigInt(Math.trunc(value))) ? 0 : 1;
      };
    },
  };
}

export const AGE_RANGE_KIND = fileCheckKind('ageRange', 'AgeRange', (path, ctx) => ctx.clock() - Math.trunc(statSync(path).mtimeMs));
export const SIZE_RANGE_KIND = fileCheckKind('sizeRange', 'SizeRange', (path) => statSync(path).size);
