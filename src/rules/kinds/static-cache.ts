/**
 * StaticCache (docs/evaluator/rules.md): a fixed key → value map. The key is rendered from KeyTemplate
 * (default `##body##`) and KeySubstitution; the value goes to ResultField (default body). An empty
 * key, a missing key or a non-scalar value is EXCEPTION.
 */
import { RuleConfigError, RuleEvaluationError, isRecord } from '../errors';
import { KIND_PRECEDENCE, RulesetKind } from '../ruleset-kinds';
import { writeField } from '../message-writer';
import { replaceBodyText } from './body-writer';

export const STATIC_CACHE_KIND: RulesetKind = {
  name: 'staticCache',
  precedence: KIND_PRECEDENCE.staticCache,
  keys: ['StaticCache', 'KeyTemplate', 'KeySubstitution', 'ResultField'],
  detect: (r) => isRecord(r.StaticCache),
  compile(ruleset, ctx) {
    const cache = new Map<string, string | undefined>();
    for (const [k, v] of Object.entries(ruleset.StaticCache as Record<string, unknown>)) {
      cache.set(k, v === null || typeof v === 'object' ? undefined : String(v));
    }
    const keyTemplate = ruleset.KeyTemplate ?? '##body##';
    if (typeof keyTemplate !== 'string') throw new RuleConfigError(ctx.where('KeyTemplate'), 'is not a string', 'a template such as "##country##"');
    const template = ctx.template(keyTemplate, 'KeyTemplate');
    const substitution =
      ruleset.KeySubstitution === undefined || ruleset.KeySubstitution === null ? undefined : ctx.substitution(ruleset.KeySubstitution, 'KeySubstitution');
    const resultField = ruleset.ResultField ?? 'body';
    if (typeof resultField !== 'string' || resultField === '')
      throw new RuleConfigError(ctx.where('ResultField'), 'is not a field name', 'a property name or body');
    return (msg) => {
      let key: string | undefined = template.format(msg);
      if (substitution !== undefined) key = substitution.apply(key);
      if (key === undefined || key === '') throw new RuleEvaluationError('the cache key is empty');
      if (!cache.has(key)) throw new RuleEvaluationError(`found no cache for ${key}`);
      const value = cache.get(key);
      if (value === undefined) throw new RuleEvaluationError(`the cache value for ${key} is not a scalar`);
      if (resultField === 'body') replaceBodyText(msg, value);
      else writeField(msg, resultField, value, { clock: ctx.clock });
    };
  },
};
