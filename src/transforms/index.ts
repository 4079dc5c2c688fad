/**
 * The XML and JSON ruleset kinds of the MessageEvaluator (evaluator.md §12-§13), in the
 * precedence order of §4. The rules engine registers them from here.
 */
import type { TransformKind } from './kind-types';
import { jsonPathMapKind } from './jsonpath-map';
import { jcutKind } from './jcut';
import { jsonataTemplateKind } from './jsonata-template';
import { jmergeKind } from './jmerge';
import { xpathMapKind } from './xpath-map';
import { xcutKind } from './xcut';
import { xmergeKind } from './xmerge';
import { xsltKind } from './xslt';

export const TRANSFORM_KINDS: readonly TransformKind[] = [jsonPathMapKind, jcutKind, jsonataTemplateKind, jmergeKind, xpathMapKind, xcutKind, xmergeKind, xsltKind];

export type { TransformKind, TransformCompileContext, CompiledTransform, RulesetMap } from './kind-types';
export * from './errors';
export { compileJsonPathMap } from './jsonpath-map';
export { compileJCut } from './jcut';
export { compileJsonataTemplate } from './jsonata-template';
export { compileJMerge } from './jmerge';
export { compileXPathMap } from './xpath-map';
export { compileXCut } from './xcut';
export { compileXMerge } from './xmerge';
export { compileXslt } from './xslt';
