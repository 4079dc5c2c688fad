/**
 * JTMPFile + JSONParameter: QBroker's JSONT (docs/evaluator/transforms.md, "JTMPFile: QBroker's JSONT").
 * The file named by `JTMPFile` is a JSON map with `name` (or `Name`) and `template`; a string template
 * is kept byte for byte, a map or list template is written compactly first (HashMap key order,
 * doubles) with each `"##field##"` string unquoted. Every distinct `##field##` is then replaced for
 * each message, field after field in the original's HashMap order (so text a field inserts is seen
 * by the later ones), literally and without escaping: `##p:x##` is the parameter x in quotes,
 * `##P:x##` the parameter as it is, any other field a path into the body (jsont-path.ts) written as
 * the original writes values. Parameters come from JSONParameter, static or rendered from the message,
 * and are set anew for every message (the later original's behaviour: the earlier one kept them
 * from message to message). The body is read by the original's parser (jsont-json.ts); an empty body,
 * a body it refuses, a top-level value that is not a map or list, or a bad list index gives
 * EXCEPTION; an empty map or list leaves the body as it is. Sections (`sections`, `##s:x##`),
 * `variable` and `keepOriginalOrder` are refused at start-up: the original documents no use of them.
 */
import { replaceBodyText } from '../rules/kinds/body-writer';
import { compilePerl5, groupCount, literalReplacer, perl5Replace } from '../rules/regex-dialect';
import { javaDoubleToString } from '../rules/java-numbers';
import { KIND_PRECEDENCE, RulesetKind, RulesetKindContext } from '../rules/ruleset-kinds';
import { readRewritableBodyText } from './body';
import { JsonInputError, perMessage, TransformConfigError, TransformError } from './errors';
import { javaHashMapOrder } from './java-hash-order';
import { JsontMap, JsontValue, readJsontDocument, writeJsont } from './jsont-json';
import { JsonTextSyntaxError } from './json-text';
import { jsontPath } from './jsont-path';
import type { CompiledTransform, RulesetMap, TransformCompileContext } from './kind-types';
import { MessageValue, messageValue } from './message-values';
import { CompiledFiles, LoadedFile, stringMapKey } from './ruleset-values';

const KIND = 'jsont';
const FIELD = /##([^#]+)##/g;

type FieldKind = 'quotedParameter' | 'rawParameter' | 'path';

interface TemplateField {
  readonly name: string;
  readonly kind: FieldKind;
  /** The parameter name or the path. */
  readonly key: string;
  readonly pattern: RegExp;
  readonly groups: number;
}

interface JsontTemplate {
  readonly name: string;
  readonly text: string;
  /** In the order the original substitutes them. */
  readonly fields: readonly TemplateField[];
  /** The template's `substitution`: compiled by the original, its result thrown away. */
  readonly substitution?: string;
}

function fieldKind(name: string): { kind: FieldKind; key: string } {
  if (name.startsWith('p:')) return { kind: 'quotedParameter', key: name.slice(2) };
  if (name.startsWith('P:')) return { kind: 'rawParameter', key: name.slice(2) };
  return { kind: 'path', key: name };
}

/** Characters the original escapes in a field that does not match itself as a Perl5 pattern. */
const ESCAPED_IN_FIELD = /[\\$.[*?+(|^]/g;

/**
 * A field is found the way the original finds it: `##name##` read as a Perl5 pattern when that
 * pattern matches the field's own text (so `.` in a path matches any character), otherwise with
 * `\ $ . [ * ? + ( | ^` escaped.
 */
function fieldPattern(name: string, fail: (cause: unknown) => TransformConfigError): RegExp {
  const literal = `##${name}##`;
  try {
    const source = compilePerl5(literal, { fullMatch: true }).test(literal) ? literal : `##${name.replace(ESCAPED_IN_FIELD, (c) => `\\${c}`)}##`;
    return compilePerl5(source, { global: true });
  } catch (e) {
    throw fail(e);
  }
}

function describe(v: JsontValue | undefined): string {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return v instanceof Map ? 'a map' : `a ${typeof v}`;
}

/** Compiles one template file (shared by every ruleset naming the same file and content). */
function compileJsontFile(file: LoadedFile, ctx: TransformCompileContext): JsontTemplate {
  const problem = (text: string, expected?: string, cause?: unknown): TransformConfigError =>
    new TransformConfigError(ctx.where('JTMPFile'), `${file.path}: ${text}`, expected, cause);
  let props: ReturnType<typeof readJsontDocument>;
  try {
    props = readJsontDocument(file.text);
  } catch (e) {
    const reason = e instanceof JsonTextSyntaxError ? e.message : String(e);
    throw problem(
      `is not a JSONT template file (${reason}); a JSONata expression belongs under JSONataFile`,
      "a JSON map with name and template, read by the original's JSON parser",
      e,
    );
  }
  if (!(props instanceof Map)) throw problem('is not a JSON map', 'a JSON map with name and template');
  const name = props.get('name') ?? props.get('Name');
  if (typeof name !== 'string') throw problem(`has ${name === undefined ? 'no name' : `a name that is ${describe(name)}`}`, 'a string "name" (or "Name")');
  for (const refused of ['sections', 'variable'] as const) {
    const v = props.get(refused);
    if ((Array.isArray(v) && v.length > 0) || (v instanceof Map && v.size > 0)) {
      throw problem(
        `uses "${refused}", which xroute does not implement (the original documents no use of JSONT sections or variables)`,
        'a template without sections or variables',
      );
    }
  }
  if (props.get('keepOriginalOrder') === 'true') {
    throw problem("sets keepOriginalOrder, which xroute does not implement (it reads the body with another of the original's parsers)", 'no keepOriginalOrder');
  }
  const template = props.get('template');
  let text: string;
  if (template === undefined || template === null) throw problem('has no template', 'a "template": a string, map or list');
  else if (typeof template === 'string') text = template;
  else if (typeof template === 'object') text = writeJsont(template).replace(/"(##[^#]+##)"/g, '$1');
  else text = typeof template === 'number' ? javaDoubleToString(template) : String(template);
  const names: string[] = [];
  for (const m of text.matchAll(FIELD)) if (!names.includes(m[1])) names.push(m[1]);
  if (names.length === 0) throw problem('has a template without any ##field##', 'at least one ##field## in the template');
  const fields = javaHashMapOrder(names).map((field): TemplateField => {
    if (field.startsWith('s:')) throw problem(`uses the section field ##${field}##, which xroute does not implement`, 'parameter and path fields only');
    const { kind, key } = fieldKind(field);
    if (kind !== 'path' && key.startsWith('r:'))
      throw problem(`uses ##${field}##, the original's internal copy of the body`, 'a parameter name not starting with r:');
    const pattern = fieldPattern(field, (cause) =>
      problem(`has a field ##${field}## that cannot be compiled as a Perl5 pattern, as the original reads fields`, undefined, cause),
    );
    return { name: field, kind, key, pattern, groups: groupCount(pattern) };
  });
  const substitution = props.get('substitution');
  return { name, text, fields, substitution: typeof substitution === 'string' ? substitution : undefined };
}

/** How the original writes a value found at a path. */
function renderPathValue(v: JsontValue | undefined): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return `"${v}"`;
  return writeJsont(v);
}

/** The formatted text, or undefined for an empty map or list (the body stays as it is). */
function formatJsont(template: JsontTemplate, doc: JsontMap | JsontValue[], params: ReadonlyMap<string, string>): string | undefined {
  if ((Array.isArray(doc) ? doc.length : doc.size) === 0) return undefined;
  let text = template.text;
  for (const f of template.fields) {
    let value: string;
    if (f.kind === 'path') value = renderPathValue(jsontPath(doc, f.key));
    else {
      const p = params.get(f.key);
      value = p === undefined ? 'null' : f.kind === 'quotedParameter' ? `"${p}"` : p;
    }
    text = perl5Replace(text, f.pattern, literalReplacer(value), f.groups, true);
  }
  return text;
}

const templates = new CompiledFiles(compileJsontFile);

type JsontCompileContext = TransformCompileContext & Pick<RulesetKindContext, 'substitution'>;

export function compileJsontRuleset(ruleset: RulesetMap, ctx: JsontCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const template = templates.get(ruleset, 'JTMPFile', ctx);
  // Compiled as the original does, so a bad one still stops start-up; its result was never used.
  if (template.substitution !== undefined) {
    try {
      ctx.substitution(template.substitution, 'JTMPFile');
    } catch (e) {
      throw new TransformConfigError(
        ctx.where('JTMPFile'),
        `the template's substitution ${JSON.stringify(template.substitution)} does not compile: ${(e as Error).message}`,
        'an s/// substitution',
        e,
      );
    }
  }
  // The original's setParameter ignores empty names and names starting r: or v:.
  const parameters: Array<readonly [string, MessageValue]> = Object.entries(stringMapKey(ruleset, 'JSONParameter', ctx))
    .filter(([name]) => name !== '' && !name.startsWith('r:') && !name.startsWith('v:'))
    .map(([name, value]) => [name, messageValue(value, `JSONParameter.${name}`, ctx)] as const);
  return (msg) => {
    const text = readRewritableBodyText(msg, KIND, rulesetName);
    if (text === '') throw new TransformError(KIND, rulesetName, 'the body is empty');
    let doc: ReturnType<typeof readJsontDocument>;
    try {
      doc = readJsontDocument(text);
    } catch (e) {
      throw new JsonInputError(KIND, rulesetName, 'the body', (e as Error).message, e);
    }
    if (doc === undefined) throw new TransformError(KIND, rulesetName, 'the body is not a JSON map or list');
    const params = new Map<string, string>();
    for (const [name, value] of parameters) params.set(name, value(msg));
    const out = perMessage(KIND, rulesetName, () => formatJsont(template, doc, params));
    if (out !== undefined && out !== '') replaceBodyText(msg, out);
  };
}

export const jsontKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.jsont,
  keys: ['JTMPFile', 'JSONParameter'],
  needsBody: true,
  detect: (ruleset) => ruleset.JTMPFile !== undefined && ruleset.JTMPFile !== null,
  compile: compileJsontRuleset,
};
