/**
 * XSLT (docs/evaluator/transforms.md): `XSLFile` names a stylesheet, compiled once at start-up and shared
 * by every ruleset naming the same file; `XSLParameter` maps parameter names to values, static
 * or `##name##` templates rendered from the message, all passed as strings. The body is
 * transformed and the output replaces it (text or bytes bodies only); an empty output leaves
 * the body unchanged. A stylesheet that does not compile is a start-up error.
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { TransformConfigError, asConfigError, perMessage } from './errors';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { messageValues, renderValues } from './message-values';
import { CompiledFiles, stringMapKey } from './ruleset-values';
import { readXmlBody } from './xml-support';
import { CompiledStylesheet } from './xslt-engine';

const KIND = 'xslt';
/** Parameter names are passed as no-namespace QNames. */
const NCNAME = /^[A-Za-z_][\w.-]*$/;

/** Stylesheets, compiled once per file version; a compile error names ruleset and file. */
const stylesheets = new CompiledFiles((file, ctx) =>
  asConfigError(ctx.where('XSLFile'), 'an XSLT stylesheet that compiles', () => CompiledStylesheet.compile(file.path, file.text)),
);

export function compileXslt(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const parameters = stringMapKey(ruleset, 'XSLParameter', ctx);
  for (const name of Object.keys(parameters)) {
    if (!NCNAME.test(name)) throw new TransformConfigError(ctx.where(`XSLParameter.${name}`), 'is not a parameter name', 'an XML name without prefix');
  }
  const values = messageValues(parameters, 'XSLParameter', ctx);
  const stylesheet = stylesheets.get(ruleset, 'XSLFile', ctx);
  return (msg) => {
    const doc = readXmlBody(msg, KIND, rulesetName, true);
    const params = renderValues(values, msg);
    const output = perMessage(KIND, rulesetName, () => stylesheet.transformDocument(doc, params));
    if (output !== '') replaceBodyText(msg, output);
  };
}

export const xsltKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.xslt,
  keys: ['XSLFile', 'XSLParameter'],
  needsBody: true,
  detect: (ruleset) => ruleset.XSLFile !== undefined && ruleset.XSLFile !== null,
  compile: compileXslt,
};
