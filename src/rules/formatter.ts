/**
 * The default formatter (`FormatterArgument`, docs/evaluator/rules.md, spec rule 5). Each entry writes one
 * field from a list of templates and a list of substitutions aligned by position:
 *
 *   n = max(len(Template), len(Substitution)); missing positions and nulls are placeholders.
 *   A non-null template (an empty one only at position 0) starts a new segment and closes the
 *   previous one; a null template continues the current segment, so substitutions chain. A null
 *   first template means "start from the field's current value" (##FieldName##).
 *   Entries run in list order and each writes its field before the next renders.
 *
 * Deliberate fix (the original's bug; docs/evaluator/rules.md): a malformed entry (not a map, no FieldName, neither Template nor
 * Substitution, unknown key) is rejected at start-up instead of failing every matching message.
 * `ResetOption` is accepted and ignored, as in the original.
 */
import { Message } from '../message/message';
import { ConfigWhere, RuleConfigError, RuleEvaluationError, at, isRecord } from './errors';
import { Template } from './template';
import { Substitution, compileSubstitution } from './substitution';
import { DATA_TYPES, DataType, emitFieldWrite } from './message-writer';
import { FunctionBuilder } from './codegen';
import { didYouMean } from '../foundation/did-you-mean';

const ENTRY_KEYS = ['FieldName', 'Template', 'Substitution', 'DataType', 'MapKey', 'ResetOption'];

export interface FormatterOptions {
  where?: ConfigWhere;
  clock?: () => number;
  random?: () => number;
}

interface Entry {
  readonly field: string;
  readonly templates: ReadonlyArray<Template | null>;
  readonly substitutions: ReadonlyArray<Substitution | null>;
  readonly dataType?: DataType;
  readonly mapKey?: string;
}

export interface Formatter {
  /** Field names the entries write, in order. */
  readonly fields: readonly string[];
  /** Applies every entry in order; throws RuleEvaluationError on the first failure (earlier writes stay). */
  apply(msg: Message): void;
  /** `apply` as JavaScript statements over the identifier `msg`, for generated code (codegen.ts); `apply` is built from it. */
  emit(b: FunctionBuilder, msg: string): string;
}

function optionalList(entry: Record<string, unknown>, key: string, where: ConfigWhere): unknown[] {
  const v = entry[key];
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v]; // extension: a single string is a one-element list
  if (!Array.isArray(v)) throw new RuleConfigError(at(where, key), 'is not a list', 'a list of strings (null entries allowed)');
  return v;
}

function compileEntry(raw: unknown, where: ConfigWhere, options: FormatterOptions): Entry {
  if (!isRecord(raw)) throw new RuleConfigError(where, 'a FormatterArgument entry is not a map', 'a map with FieldName and Template and/or Substitution');
  for (const key of Object.keys(raw)) {
    if (!ENTRY_KEYS.includes(key)) {
      const hint = key === 'Name' ? '; did you mean "FieldName"?' : didYouMean(key, ENTRY_KEYS);
      throw new RuleConfigError(at(where, key), `unknown key in a FormatterArgument entry${hint}`, ENTRY_KEYS.join(', '));
    }
  }
  const field = raw.FieldName;
  if (typeof field !== 'string' || field === '')
    throw new RuleConfigError(at(where, 'FieldName'), 'is missing or not a string', 'the name of the field to write');
  if ((raw.Template === undefined || raw.Template === null) && (raw.Substitution === undefined || raw.Substitution === null)) {
    throw new RuleConfigError(where, `entry for ${field} has neither Template nor Substitution`, 'Template and/or Substitution');
  }
  const templateList = optionalList(raw, 'Template', where);
  const substitutionList = optionalList(raw, 'Substitution', where);
  const n = Math.max(templateList.length, substitutionList.length);
  const templates: Array<Template | null> = new Array(n).fill(null);
  const substitutions: Array<Substitution | null> = new Array(n).fill(null);
  templateList.forEach((t, j) => {
    if (t === null) return;
    if (typeof t !== 'string') throw new RuleConfigError(at(where, `Template[${j}]`), `${JSON.stringify(t)} is not a string`, 'a template string or null');
    if (j > 0 && t === '') return; // an empty template after position 0 continues the segment
    templates[j] = new Template(t, { clock: options.clock, where: at(where, `Template[${j}]`) });
  });
  substitutionList.forEach((s, j) => {
    if (s === null || s === '') return;
    substitutions[j] = compileSubstitution(s, { where: at(where, `Substitution[${j}]`), clock: options.clock, random: options.random });
  });
  if (n === 0 || templates[0] === null) {
    if (n === 0) {
      templates.push(null);
      substitutions.push(null);
    }
    templates[0] = new Template(`##${field}##`, { clock: options.clock, where });
  }
  const dataType = raw.DataType;
  if (dataType !== undefined && (typeof dataType !== 'string' || !DATA_TYPES.includes(dataType.toLowerCase() as DataType))) {
    throw new RuleConfigError(at(where, 'DataType'), `unknown data type ${JSON.stringify(dataType)}`, DATA_TYPES.join(', '));
  }
  const mapKey = raw.MapKey;
  if (mapKey !== undefined && typeof mapKey !== 'string') throw new RuleConfigError(at(where, 'MapKey'), 'is not a string', 'a map entry name');
  return { field, templates, substitutions, dataType: dataType === undefined ? undefined : ((dataType as string).toLowerCase() as DataType), mapKey };
}

/** What `##body##` renders for a map body: the MapKey entry ("" when absent); undefined for other bodies. */
function mapBodyValue(msg: Message, mapKey: string | undefined): string | undefined {
  const body = msg.body;
  if (body.kind !== 'map') return undefined;
  const v = mapKey === undefined ? undefined : body.map[mapKey];
  return v === undefined || v === null ? '' : String(v);
}

function substitutionFailed(k: number, field: string, j: number, s: Substitution, text: string): RuleEvaluationError {
  return new RuleEvaluationError(`entry ${k} (${field}): substitution ${j} ${JSON.stringify(s.source)} failed on ${JSON.stringify(text.slice(0, 80))}`, field);
}

/**
 * One entry as statements: each non-null template closes the previous segment into `done` and
 * starts a new `text`; each substitution rewrites `text`; the field gets `done + text`.
 */
function emitEntry(entry: Entry, k: number, options: FormatterOptions, b: FunctionBuilder, msg: string): string {
  const { field, templates, substitutions, mapKey } = entry;
  const lines: string[] = [];
  let bodyValue: string | undefined;
  if (templates.some((t) => t !== null && t.readsBody)) {
    bodyValue = b.temp();
    lines.push(`${bodyValue} = ${b.bind(mapBodyValue)}(${msg}, ${mapKey === undefined ? 'undefined' : b.literal(mapKey)});`);
  }
  const text = b.temp();
  const result = b.temp();
  let done: string | undefined;
  for (let j = 0; j < templates.length; j++) {
    const t = templates[j];
    if (t !== null) {
      if (j > 0) {
        if (done === undefined) {
          done = b.temp();
          lines.push(`${done} = ${text};`);
        } else lines.push(`${done} += ${text};`);
      }
      lines.push(`${text} = ${t.emit(b, msg, bodyValue)};`);
    }
    const s = substitutions[j];
    if (s !== null) {
      lines.push(`${result} = ${b.bind(s.apply)}(${text});`);
      lines.push(`if (${result} === undefined) throw ${b.bind(substitutionFailed)}(${k}, ${b.literal(field)}, ${j}, ${b.bind(s)}, ${text});`);
      lines.push(`${text} = ${result};`);
    }
  }
  const value = done === undefined ? text : `${done} + ${text}`;
  lines.push(emitFieldWrite(b, field, { dataType: entry.dataType, mapKey, clock: options.clock }, msg, value));
  return lines.join('\n');
}

/** Compiles a FormatterArgument list; throws RuleConfigError naming the entry and key. */
export function compileFormatter(list: unknown, options: FormatterOptions = {}): Formatter {
  const where = options.where ?? {};
  if (!Array.isArray(list)) throw new RuleConfigError(where, 'FormatterArgument is not a list', 'a list of maps');
  const entries = list.map((raw, k) => compileEntry(raw, at(where, `[${k}]`), options));
  const emit = (b: FunctionBuilder, msg: string): string => entries.map((e, k) => emitEntry(e, k, options, b, msg)).join('\n');
  const b = new FunctionBuilder();
  const apply = b.build<(msg: Message) => void>('formatter', ['msg'], emit(b, 'msg'));
  return { fields: entries.map((e) => e.field), apply, emit };
}
