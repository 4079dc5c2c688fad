/**
 * Time-window rulesets (`ActiveTime`, `KeyTemplate`, `KeySubstitution`, `TimePattern`;
 * docs/evaluator/rules.md). After the filter matched: render KeyTemplate (+ KeySubstitution), parse it with
 * TimePattern (lenient, local time zone) into the sample time, and check it against the windows at
 * the engine's current time: 0 in time, 1 late or blackout, -1 when the time does not parse.
 *
 * Deliberate fixes: the original built the key template from the ActiveTime map and so could never
 * start (the original's bug; docs/evaluator/rules.md); here KeyTemplate is the key template. As the original's documentation requires, a missing
 * KeyTemplate or TimePattern, or thresholds that are neither age (two or more numbers) nor
 * occurrence (one negative number) nor absent, are rejected at start-up.
 */
import { RuleConfigError, RuleEvaluationError, isRecord } from '../errors';
import { compileDatePattern } from '../java-date';
import { TimeWindows } from '../time-windows';
import { KIND_PRECEDENCE, RulesetKind } from '../ruleset-kinds';

export const TIME_WINDOW_KIND: RulesetKind = {
  name: 'timeWindow',
  precedence: KIND_PRECEDENCE.timeWindow,
  keys: ['ActiveTime', 'KeyTemplate', 'KeySubstitution', 'TimePattern'],
  detect: (r) => r.ActiveTime !== undefined,
  compile(ruleset, ctx) {
    if (!isRecord(ruleset.ActiveTime)) throw new RuleConfigError(ctx.where('ActiveTime'), 'is not a map', 'a map with TimeWindow');
    const windows = TimeWindows.parse(ruleset.ActiveTime, ctx.where('ActiveTime'));
    if (windows.thresholdCount === 1 && windows.windowThresholds.some((t) => t.length === 1 && t[0] >= 0)) {
      throw new RuleConfigError(
        ctx.where('ActiveTime'),
        'a single positive Threshold can never be met',
        'two or more numbers (age) or exactly one negative number (occurrence)',
      );
    }
    if (typeof ruleset.KeyTemplate !== 'string')
      throw new RuleConfigError(ctx.where('KeyTemplate'), 'is missing or not a string', 'a template giving the sample time, such as "##eventTime##"');
    if (typeof ruleset.TimePattern !== 'string')
      throw new RuleConfigError(ctx.where('TimePattern'), 'is missing or not a string', 'a Java date pattern such as "yyyy-MM-dd HH:mm:ss"');
    const template = ctx.template(ruleset.KeyTemplate, 'KeyTemplate');
    const substitution =
      ruleset.KeySubstitution === undefined || ruleset.KeySubstitution === null ? undefined : ctx.substitution(ruleset.KeySubstitution, 'KeySubstitution');
    const pattern = compileDatePattern(ruleset.TimePattern, ctx.where('TimePattern'));
    return (msg) => {
      let key: string | undefined = template.format(msg);
      if (substitution !== undefined) key = substitution.apply(key);
      const sample = key === undefined ? undefined : pattern.parse(key);
      if (sample === undefined) throw new RuleEvaluationError(`cannot parse ${JSON.stringify(key)} with TimePattern ${pattern.pattern}`);
      return windows.check(sample, ctx.clock());
    };
  },
};
