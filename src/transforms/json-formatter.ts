/**
 * JSONFormatter (docs/evaluator/transforms.md): `"JSONFormatter": [operation, ...]`, each operation a map of
 * `JSONPath`, `Operation`, `Template`, `Substitution`, `DataType` and `Selector`.
 *
 * The body is parsed as JSON (a standard parser, numbers kept as written: json-text.ts) and the
 * operations run in order on the current node, which starts as the payload root. If any operation
 * changed the data, the current node is written back as the body in compact JSON (keys in their
 * order, integers as integers); otherwise the body is not touched and the code is 0 (docs/components/message-evaluator.md). A body
 * that is not JSON, `get` on a missing path, or any operation error gives -1; properties set by
 * earlier operations stay, the body is not rewritten.
 *
 * Start-up validation, every error naming ruleset, operation index and key: the entry is a map of
 * known keys ("did you mean"), DataType is known, Selector compiles (Perl5 regexes, intervals),
 * paths parse, and each operation has the keys it cannot work without (see REQUIRES). The
 * Operation is case-insensitive; as in Java, any other value does nothing (a warning is logged).
 */
import { isRecord } from '../rules/errors';
import { didYouMean } from '../foundation/did-you-mean';
import { replaceBodyText } from '../rules/kinds/body-writer';
import { KIND_PRECEDENCE, RulesetKind } from '../rules/ruleset-kinds';
import { readRewritableBodyText } from './body';
import { TransformConfigError, perMessage } from './errors';
import type { CompiledTransform, JsonFormatterCompileContext, RulesetMap } from './kind-types';
import { compileJsonPathKey, parseJsonInput } from './json-support';
import { stringifyJson } from './json-text';
import { FormatterState, OPERATIONS, Operation, OperationName, OperationSpec, compileOperation } from './json-formatter-ops';
import { Selector } from './json-formatter-selector';
import { NodeTemplate } from './json-formatter-template';
import { DATA_TYPES, DataType, isDataType } from './json-formatter-values';

const KIND = 'json-formatter';
const KEY = 'JSONFormatter';
const ENTRY_KEYS = ['JSONPath', 'Operation', 'Template', 'Substitution', 'DataType', 'Selector'] as const;
type EntryKey = (typeof ENTRY_KEYS)[number];

/** Keys an operation cannot work without. A missing JSONPath elsewhere means the current node (`.`). */
const REQUIRES: Readonly<Record<OperationName, readonly EntryKey[]>> = {
  get: ['JSONPath'],
  set: ['JSONPath', 'Template'],
  merge: ['JSONPath', 'Template'],
  union: ['JSONPath', 'Template'],
  parse: ['JSONPath', 'Template'],
  remove: ['JSONPath'],
  select: ['Selector'],
  first: [],
  last: [],
  sort: [],
  uniq: [],
  each: ['Template'],
};

export function compileJsonFormatter(ruleset: RulesetMap, ctx: JsonFormatterCompileContext): CompiledTransform {
  const rulesetName = ctx.rulesetName;
  const list = ruleset[KEY];
  if (!Array.isArray(list)) throw new TransformConfigError(ctx.where(KEY), 'is not a list', 'a list of operation maps');
  const operations = list.map((entry, i) => compileEntry(entry, i, ctx)).filter((op): op is Operation => op !== undefined);
  return (msg) => {
    const text = readRewritableBodyText(msg, KIND, rulesetName);
    const state: FormatterState = { msg, node: parseJsonInput(text, KIND, rulesetName, 'the body'), changed: false };
    perMessage(KIND, rulesetName, () => {
      for (const op of operations) op(state);
    });
    if (state.changed) replaceBodyText(msg, stringifyJson(state.node));
  };
}

/** One entry of the list; undefined for an Operation that does nothing. */
function compileEntry(entry: unknown, index: number, ctx: JsonFormatterCompileContext): Operation | undefined {
  const at = `${KEY}[${index}]`;
  if (!isRecord(entry)) throw new TransformConfigError(ctx.where(at), `is ${JSON.stringify(entry)}`, `a map of ${ENTRY_KEYS.join(', ')}`);
  for (const key of Object.keys(entry)) {
    if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
      throw new TransformConfigError(
        ctx.where(`${at}.${key}`),
        `unknown key in a JSONFormatter operation${didYouMean(key, ENTRY_KEYS)}`,
        ENTRY_KEYS.join(', '),
      );
    }
  }
  const text = (key: EntryKey): string | undefined => {
    const v = entry[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new TransformConfigError(ctx.where(`${at}.${key}`), `is ${JSON.stringify(v)}`, 'a string');
    return v;
  };
  const rawOperation = text('Operation') ?? '';
  const operation = rawOperation.trim().toLowerCase();
  if (!isOperation(operation)) {
    ctx.logger?.warn(
      `ruleset ${JSON.stringify(ctx.rulesetName)}, key ${at}.Operation: ${JSON.stringify(rawOperation)} is not an operation, so this entry does nothing${didYouMean(operation, OPERATIONS)}`,
    );
    return undefined;
  }
  for (const key of REQUIRES[operation]) {
    if (entry[key] === undefined || entry[key] === null)
      throw new TransformConfigError(ctx.where(`${at}.${key}`), `is missing (operation ${operation} needs it)`, key === 'Selector' ? 'a Selector' : 'a string');
  }
  const pathText = text('JSONPath') ?? '.';
  const path = compileJsonPathKey(pathText, `${at}.JSONPath`, ctx);
  if (operation === 'remove' && path.isRoot)
    throw new TransformConfigError(ctx.where(`${at}.JSONPath`), 'remove cannot remove the current node', 'a path below the current node');
  const templateText = text('Template');
  const substitutionText = text('Substitution');
  const selector = entry.Selector === undefined || entry.Selector === null ? undefined : Selector.compile(entry.Selector, `${at}.Selector`, ctx);
  if ((operation === 'merge' || operation === 'union') && selector !== undefined && selector.regex === undefined) {
    throw new TransformConfigError(ctx.where(`${at}.Selector`), `${operation} filters the merged keys with a regex string only`, 'a regex string');
  }
  const spec: OperationSpec = {
    operation,
    label: `${at} (${operation} ${pathText})`,
    path,
    template: templateText === undefined ? undefined : NodeTemplate.compile(templateText, `${at}.Template`, ctx),
    substitution: substitutionText === undefined ? undefined : ctx.substitution(substitutionText, `${at}.Substitution`),
    dataType: dataType(text('DataType'), `${at}.DataType`, ctx),
    selector,
  };
  return compileOperation(spec);
}

function isOperation(name: string): name is OperationName {
  return (OPERATIONS as readonly string[]).includes(name);
}

function dataType(raw: string | undefined, key: string, ctx: JsonFormatterCompileContext): DataType | undefined {
  if (raw === undefined) return undefined;
  const name = raw.trim().toLowerCase();
  if (isDataType(name)) return name;
  throw new TransformConfigError(ctx.where(key), `unknown DataType ${JSON.stringify(raw)}${didYouMean(name, DATA_TYPES)}`, DATA_TYPES.join(', '));
}

export const jsonFormatterKind: RulesetKind = {
  name: KIND,
  precedence: KIND_PRECEDENCE.jsonFormatter,
  keys: [KEY],
  needsBody: true,
  detect: (ruleset) => Array.isArray(ruleset[KEY]),
  compile: compileJsonFormatter,
};
