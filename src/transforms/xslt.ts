/**
 * XSLT (evaluator.md §13.5): `XSLFile` names a stylesheet, compiled once at start-up and shared
 * by every ruleset naming the same file; `XSLParameter` maps parameter names to values, static
 * or `##name##` templates rendered from the message, all passed as strings. The body is
 * transformed and the output replaces it (text or bytes bodies only); an empty output leaves
 * the body unchanged. A stylesheet that does not compile is a start-up error.
 */
import { readRewritableBodyText, replaceBodyText } from './body';
import { TransformConfigError, TransformError, XmlInputError } from './errors';
import type { CompiledTransform, RulesetMap, TransformCompileContext, TransformKind } from './kind-types';
import { messageValues, renderValues } from './message-values';
import { readRulesetFile, stringMapKey } from './ruleset-values';
import { XmlRejection } from './safe-xml';
import { CompiledStylesheet, XsltProblem } from './xslt-engine';

const KIND = 'xslt';
/** Parameter names are passed as no-namespace QNames. */
const NCNAME = /^[A-Za-z_][\w.-]*$/;

const stylesheets = new Map<string, CompiledStylesheet>();

/** Compiles a stylesheet file once per version of the file. */
function stylesheetFor(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledStylesheet {
  const file = readRulesetFile(ruleset, 'XSLFile', ctx);
  const cached = stylesheets.get(file.version);
  if (cached) return cached;
  try {
    const compiled = CompiledStylesheet.compile(file.path, file.text);
    stylesheets.set(file.version, compiled);
    return compiled;
  } catch (e) {
    if (e instanceof XsltProblem) throw new TransformConfigError({ ruleset: ctx.rulesetName, key: 'XSLFile' }, e.reason, 'an XSLT stylesheet that compiles');
    throw e;
  }
}

export function compileXslt(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const parameters = stringMapKey(ruleset, 'XSLParameter', ctx);
  for (const name of Object.keys(parameters)) {
    if (!NCNAME.test(name)) throw new TransformConfigError({ ruleset: rulesetName, key: `XSLParameter.${name}` }, 'is not a parameter name', 'an XML name without prefix');
  }
  const values = messageValues(parameters, ctx);
  const stylesheet = stylesheetFor(ruleset, ctx);
  return (msg) => {
    const body = readRewritableBodyText(msg, KIND, rulesetName);
    let output: string;
    try {
      output = stylesheet.transform(body, renderValues(values, msg));
    } catch (e) {
      if (e instanceof XmlRejection) throw new XmlInputError(KIND, rulesetName, 'the body', e.reason);
      if (e instanceof XsltProblem) throw new TransformError(KIND, rulesetName, e.reason);
      throw e;
    }
    if (output !== '') replaceBodyText(msg, output, KIND, rulesetName);
  };
}

export const xsltKind: TransformKind = {
  name: KIND,
  precedence: 12,
  needsBody: true,
  detect: (ruleset) => ruleset.XSLFile !== undefined && ruleset.XSLFile !== null,
  compile: compileXslt,
};
