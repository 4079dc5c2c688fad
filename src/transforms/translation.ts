/**
 * Translation (docs/evaluator/transforms.md; a later kind of the original's): `"Translation": "<name>"` converts the body
 * between formats. Names are case-insensitive:
 *  - XML2JSON: XML to JSON (xml-to-json.ts; repeated siblings become a list, attributes dropped);
 *  - JSON2XML: JSON to XML inside a `<JSON>` root (json-to-xml.ts; list items are repeated
 *    elements marked `type="ARRAY"`);
 *  - PHP2XML, PHP2JSON: PHP serialize() output (php-unserialize.ts) to XML or JSON, root `PHP`.
 * Any other name does nothing (body unchanged, code 0, as in the original); start-up warns about it.
 *
 * Input that does not parse, or that the output format cannot carry, fails the message (-1);
 * only text and bytes bodies can be translated (docs/components/message-evaluator.md). XML is parsed only through safe-xml.ts.
 *
 * JSON output is one stable format, close to the original's (whose whitespace is not documented; docs/evaluator/transforms.md):
 * `{`, a newline, the root key indented by two spaces with its value as compact JSON, a newline,
 * `}`; e.g. `{\n  "r":{"a":"2","b":"t"}\n}`. XML output is the shared declaration plus 4-space
 * indentation (safe-xml.ts).
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { KIND_PRECEDENCE, RulesetKind, RulesetKindContext } from '../rules/ruleset-kinds';
import { readRewritableBodyText } from './body';
import { perMessage } from './errors';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { parseJsonInput } from './json-support';
import { JsonObject, JsonValue, stringifyJson } from './json-text';
import { jsonToXml } from './json-to-xml';
import { parsePhpSerialized } from './php-unserialize';
import { stringKey } from './ruleset-values';
import { readXmlBody } from './xml-support';
import type { Message } from '../message/message';
import { xmlToJson } from './xml-to-json';

const KIND = 'translation';

/** Translation also needs the logger: an unknown name is worth a start-up warning. */
export type TranslationCompileContext = TransformCompileContext & Pick<RulesetKindContext, 'component' | 'logger'>;

type Convert = (msg: Message, ruleset: string) => string;
const text = (msg: Message, ruleset: string): string => readRewritableBodyText(msg, KIND, ruleset);

const CONVERSIONS: Readonly<Record<string, Convert>> = {
  XML2JSON: (msg, ruleset) => formatJson(xmlToJson(readXmlBody(msg, KIND, ruleset, true))),
  JSON2XML: (msg, ruleset) => writeXml('JSON', parseJsonInput(text(msg, ruleset), KIND, ruleset, 'the body'), ruleset),
  PHP2XML: (msg, ruleset) => writeXml('PHP', readPhp(text(msg, ruleset), ruleset), ruleset),
  PHP2JSON: (msg, ruleset) => formatJson({ PHP: readPhp(text(msg, ruleset), ruleset) }),
};

export function compileTranslation(ruleset: RulesetMap, ctx: TranslationCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const name = stringKey(ruleset, 'Translation', ctx);
  const convert = CONVERSIONS[name.toUpperCase()];
  if (convert === undefined) {
    ctx.logger.warn(
      `${ctx.component}: ruleset ${rulesetName}: Translation ${JSON.stringify(name)} is not one of ${Object.keys(CONVERSIONS).join(', ')}; ` +
        'messages will pass unchanged with code 0, as in the original',
    );
    return () => undefined;
  }
  return (msg) => replaceBodyText(msg, convert(msg, rulesetName));
}

/** The root object's keys one per line, indented by two spaces, each value compact (see the header). */
function formatJson(root: JsonObject): string {
  const lines = Object.entries(root).map(([key, value]) => `  ${JSON.stringify(key)}:${stringifyJson(value)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

function writeXml(rootName: string, value: JsonValue, ruleset: string): string {
  return perMessage(KIND, ruleset, () => jsonToXml(rootName, value));
}

function readPhp(body: string, ruleset: string): JsonValue {
  // PHP string lengths count UTF-8 bytes, so the parser reads bytes
  return perMessage(KIND, ruleset, () => parsePhpSerialized(Buffer.from(body, 'utf8')));
}

export const translationKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.translation,
  keys: ['Translation'],
  needsBody: true,
  detect: (ruleset) => ruleset.Translation !== undefined && ruleset.Translation !== null,
  compile: compileTranslation,
};
