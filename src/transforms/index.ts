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

const TRANSFORM_KINDS: readonly RulesetKind[] = [jsonPathMapKind, jcutKind, jsontKind, jsonataTemplateKind, jmergeKind, jsonFormatterKind, xpathMapKind, xcutKind, xmergeKind, xsltKind, translationKind];

registerRulesetKinds(TRANSFORM_KINDS);

export * from './errors';
export { compileJsonataTemplate } from './jsonata-template';
