/**
 * The XML and JSON ruleset kinds of the MessageEvaluator (docs/evaluator/transforms.md). Importing this
 * module registers them with the rules engine's registry (src/rules/ruleset-kinds.ts), each at
 * its slot of the original's precedence order (docs/evaluator/rules.md).
 */
import { registerRulesetKinds, RulesetKind } from '../rules/ruleset-kinds';
import { jsonPathMapKind } from './jsonpath-map';
import { jcutKind } from './jcut';
import { jsonataTemplateKind } from './jsonata-template';
import { jsontKind } from './jsont-template';
import { jmergeKind } from './jmerge';
import { jsonFormatterKind } from './json-formatter';
import { xpathMapKind } from './xpath-map';
import { xcutKind } from './xcut';
import { xmergeKind } from './xmerge';
import { xsltKind } from './xslt';
import { translationKind } from './translation';

export const TRANSFORM_KINDS: readonly RulesetKind[] = [jsonPathMapKind, jcutKind, jsontKind, jsonataTemplateKind, jmergeKind, jsonFormatterKind, xpathMapKind, xcutKind, xmergeKind, xsltKind, translationKind];

registerRulesetKinds(TRANSFORM_KINDS);

export type { TransformCompileContext, JsonFormatterCompileContext, CompiledTransform, RulesetMap } from './kind-types';
export * from './errors';
export { compileJsonPathMap } from './jsonpath-map';
export { compileJCut } from './jcut';
export { compileJsonataTemplate } from './jsonata-template';
export { compileJsontRuleset } from './jsont-template';
export { compileJMerge } from './jmerge';
export { compileJsonFormatter } from './json-formatter';
export { compileXPathMap } from './xpath-map';
export { compileXCut } from './xcut';
export { compileXMerge } from './xmerge';
export { compileXslt } from './xslt';
export { compileTranslation } from './translation';
