/**
 * The ruleset kinds an engine knows unless it is given others (MessageEvaluatorOptions.kinds): every shipped
 * kind, registered explicitly from the lists of src/rules/kinds and src/transforms (nothing registers itself).
 */
import { RulesetKindRegistry } from '../rules/ruleset-kinds';
import { BUILTIN_RULESET_KINDS } from '../rules/kinds';
import { TRANSFORM_KINDS } from '../transforms';

let shipped: RulesetKindRegistry | undefined;

/** The registry of every shipped kind (built once: a registry is immutable, so engines share it). */
export function defaultRulesetKinds(): RulesetKindRegistry {
  return (shipped ??= new RulesetKindRegistry([...BUILTIN_RULESET_KINDS, ...TRANSFORM_KINDS]));
}
