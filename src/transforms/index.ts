/**
 * The XML and JSON ruleset kinds of the MessageEvaluator (docs/evaluator/transforms.md), in one list that
 * src/evaluator/default-kinds.ts registers; each kind has its slot of the original's precedence order
 * (docs/evaluator/rules.md).
 */
import { RulesetKind } from '../rules/ruleset-kinds';
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

export const TRANSFORM_KINDS: readonly RulesetKind[] = [
  jsonPathMapKind,
  jcutKind,
  jsontKind,
  jsonataTemplateKind,
  jmergeKind,
  jsonFormatterKind,
  xpathMapKind,
  xcutKind,
  xmergeKind,
  xsltKind,
  translationKind,
];

export * from './errors';
export { compileJsonataTemplate } from './jsonata-template';
