/**
 * The operations of the JSONFormatter kind (docs/evaluator/transforms.md). Each works on the state of one
 * message: the current node (the payload root at first; `get` and `first`/`last` with a DataType
 * replace it) and whether the data changed. An operation throws TransformProblem for anything
 * that gives -1; paths are relative to the current node.
 *
 * Decisions where the reference is silent (tested, and listed in docs/evaluator/transforms.md):
 * - a path that is not found makes `parse`, `remove`, `select`, `first`, `last`, `sort`, `uniq` and
 *   `each` do nothing; `get` fails (-1, documented); `set` and `merge` fail when the container of
 *   the last step is not found (a missing last key is created);
 * - templates of `remove`, `first` and `last` are rendered before the data changes;
 * - `sort` compares numbers as numbers when every item is a number or the DataType is long or
 *   double, text otherwise; `uniq` keeps the first of equal items, in their order.
 */
import type { Message } from '../message/message';
import type { Substitution } from '../rules/substitution';
import { TransformProblem } from './errors';
import { describeJson, type JsonPath, type JsonSlot } from './json-path';
import { JsonNumber, JsonObject, JsonValue, hasJsonKey, isJsonObject, putJsonKey, stringifyJson } from './json-text';
import type { NodeTemplate } from './json-formatter-template';
import type { Selector } from './json-formatter-selector';
import { DataType, convertText, dataTypeOf, isNumericType, sameJson, valueText } from './json-formatter-values';
import { parseJavaDouble } from '../rules/java-numbers';

export const OPERATIONS = ['get', 'set', 'merge', 'union', 'parse', 'select', 'remove', 'first', 'last', 'sort', 'uniq', 'each'] as const;
export type OperationName = (typeof OPERATIONS)[number];

/** One validated entry of the `JSONFormatter` list. */
export interface OperationSpec {
  readonly operation: OperationName;
  /** How errors name the entry: `JSONFormatter[2] (set .a.b)`. */
  readonly label: string;
  readonly path: JsonPath;
  readonly template?: NodeTemplate;
  readonly substitution?: Substitution;
  readonly dataType?: DataType;
  readonly selector?: Selector;
}

export interface FormatterState {
  readonly msg: Message;
  node: JsonValue;
  changed: boolean;
}

export type Operation = (state: FormatterState) => void;

export function compileOperation(spec: OperationSpec): Operation {
  const op = new Op(spec);
  switch (spec.operation) {
    case 'get':
      return (s) => op.get(s);
    case 'set':
      return (s) => op.set(s);
    case 'merge':
    case 'union':
      return (s) => op.merge(s, spec.operation === 'union');
    case 'parse':
      return (s) => op.parse(s);
    case 'select':
      return (s) => op.select(s);
    case 'remove':
      return (s) => op.remove(s);
    case 'first':
    case 'last':
      return (s) => op.keepOne(s, spec.operation === 'first');
    case 'sort':
      return (s) => op.sort(s);
    case 'uniq':
      return (s) => op.uniq(s);
    case 'each':
      return (s) => op.each(s);
  }
}

class Op {
  constructor(private readonly spec: OperationSpec) {}

  get(s: FormatterState): void {
    const found = this.container(s);
    if (found === undefined) throw this.problem('the path is not found');
    if (found !== s.node) {
      s.node = found;
      s.changed = true;
    }
  }

  set(s: FormatterState): void {
    const slot = this.slot(s);
    // [QUIRK] reproduced: without DataType, a new key (or an existing null) receives null.
    const type = this.spec.dataType ?? dataTypeOf(slot.value);
    const text = this.render(s, s.node);
    this.store(s, slot, type === undefined ? null : this.convert(text, type));
  }

  merge(s: FormatterState, union: boolean): void {
    const slot = this.slot(s);
    const target = slot.value;
    if (target === undefined) return this.set(s);
    if (isJsonObject(target)) return this.mergeKeys(s, target, union);
    if (!Array.isArray(target))
      throw this.problem(`the path holds ${describeJson(target)}; ${this.spec.operation} needs an object${union ? '' : ' or a list'}`);
    if (union) throw this.problem('the path holds a list; union works on objects only');
    const type = this.spec.dataType ?? 'list';
    const value = this.convert(this.render(s, s.node), type);
    const added = type === 'list' ? (value as JsonValue[]) : [value];
    if (added.length === 0) return;
    target.push(...added);
    s.changed = true;
  }

  parse(s: FormatterState): void {
    const value = this.spec.path.select(s.node);
    const name = this.propertyName(s);
    if (value !== undefined && value !== null) s.msg.setProperty(name, valueText(value));
  }

  select(s: FormatterState): void {
    const selector = this.spec.selector as Selector;
    const target = this.container(s);
    if (target === undefined) return;
    if (Array.isArray(target)) {
      const kept = target.filter((item) => selector.accepts(undefined, item));
      this.replaceItems(s, target, kept);
    } else {
      for (const key of Object.keys(target).filter((k) => !selector.accepts(k, target[k]!))) this.deleteKey(s, target, key);
    }
  }

  remove(s: FormatterState): void {
    const found = this.spec.path.locate(s.node);
    if (found === undefined) return;
    const name = this.spec.template === undefined ? undefined : this.propertyName(s);
    const { parent, at } = found;
    if (Array.isArray(parent)) parent.splice(at as number, 1);
    else if (parent !== undefined) delete parent[at as string];
    s.changed = true;
    if (name !== undefined && found.value !== null) s.msg.setProperty(name, valueText(found.value));
  }

  /** first / last ([BUG] fixed: any number of items). */
  keepOne(s: FormatterState, first: boolean): void {
    const target = this.container(s);
    if (target === undefined) return;
    let at: string | number | undefined;
    if (Array.isArray(target)) at = target.length === 0 ? undefined : first ? 0 : target.length - 1;
    else at = extremeKey(Object.keys(target), first);
    const item = at === undefined ? undefined : Array.isArray(target) ? target[at as number] : target[at as string];
    if (this.spec.template !== undefined && at !== undefined) s.msg.setProperty(this.propertyName(s), String(at));
    const type = this.spec.dataType;
    if (type !== undefined) {
      if (item === undefined) throw this.problem('the path holds nothing to keep, so nothing can replace the current node');
      if (type !== 'map' && type !== 'list') throw this.problem(`DataType ${type}: the kept item can only replace the current node as a map or a list`);
      if (dataTypeOf(item) !== type) throw this.problem(`the kept item is ${describeJson(item)}, not a ${type} (DataType ${type})`);
      s.node = item;
      s.changed = true;
    } else if (Array.isArray(target)) {
      this.replaceItems(s, target, item === undefined ? [] : [item]);
    } else {
      for (const key of Object.keys(target)) if (key !== at) this.deleteKey(s, target, key);
    }
  }

  /** [BUG] fixed: the whole array is sorted (stable). */
  sort(s: FormatterState): void {
    const list = this.list(s);
    if (list === undefined) return;
    const keys = this.sortKeys(s, list);
    const order = list.map((_, i) => i).sort((a, b) => compare(keys[a]!, keys[b]!));
    this.replaceItems(
      s,
      list,
      order.map((i) => list[i]!),
    );
  }

  /** [BUG] fixed: every duplicate is removed; the first of equal items stays, in place. */
  uniq(s: FormatterState): void {
    const list = this.list(s);
    if (list === undefined) return;
    const keys = this.spec.template === undefined ? list.map(identity) : this.sortKeys(s, list).map(String);
    const seen = new Set<string>();
    const kept = list.filter((_, i) => {
      if (seen.has(keys[i]!)) return false;
      seen.add(keys[i]!);
      return true;
    });
    this.replaceItems(s, list, kept);
  }

  each(s: FormatterState): void {
    const target = this.container(s);
    if (target === undefined) return;
    const rewrite = (item: JsonValue): JsonValue => {
      const type = this.spec.dataType ?? dataTypeOf(item);
      const text = this.render(s, item);
      return type === undefined ? null : this.convert(text, type);
    };
    if (Array.isArray(target)) {
      target.forEach((item, i) => this.store(s, { parent: target, at: i, value: item }, rewrite(item)));
    } else {
      for (const [key, item] of Object.entries(target)) this.store(s, { parent: target, at: key, value: item }, rewrite(item));
    }
  }

  /** Sort keys of the items: rendered templates, or the items themselves (scalars only). */
  private sortKeys(s: FormatterState, list: JsonValue[]): Array<string | number> {
    const template = this.spec.template;
    const numeric = isNumericType(this.spec.dataType) || (template === undefined && list.every((v) => v instanceof JsonNumber));
    return list.map((item) => {
      if (template === undefined && (Array.isArray(item) || isJsonObject(item)))
        throw this.problem(`an item is ${describeJson(item)}: ${this.spec.operation} needs a Template to key maps and lists`);
      const text = template === undefined ? valueText(item) : this.render(s, item);
      if (!numeric) return text;
      const x = parseJavaDouble(text);
      if (x === undefined || Number.isNaN(x)) throw this.problem(`key ${JSON.stringify(text)} is not a number (DataType ${this.spec.dataType ?? 'double'})`);
      return x;
    });
  }

  private render(s: FormatterState, node: JsonValue): string {
    const { template, substitution } = this.spec;
    const text = template === undefined ? '' : template.render(s.msg, node);
    if (substitution === undefined) return text;
    let out: string | undefined;
    try {
      out = substitution.apply(text);
    } catch (e) {
      throw this.problem(`Substitution ${substitution.source} failed: ${(e as Error).message}`);
    }
    if (out === undefined) throw this.problem(`Substitution ${substitution.source} failed on ${JSON.stringify(text)}`);
    return out;
  }

  private propertyName(s: FormatterState): string {
    const name = this.render(s, s.node);
    if (name === '') throw this.problem('the Template renders an empty property name');
    return name;
  }

  private convert(text: string, type: DataType): JsonValue {
    try {
      return convertText(text, type);
    } catch (e) {
      if (e instanceof TransformProblem) throw this.problem(e.reason);
      throw e;
    }
  }

  private slot(s: FormatterState): JsonSlot {
    const slot = this.spec.path.locateSlot(s.node);
    if (slot === undefined) throw this.problem('the path has no container to store into (a step before the last is not found)');
    return slot;
  }

  /** Writes a value into a slot, marking a change only when the value differs. */
  private store(s: FormatterState, slot: JsonSlot, value: JsonValue): void {
    if (slot.value !== undefined && sameJson(slot.value, value)) return;
    const { parent, at } = slot;
    if (parent === undefined) s.node = value;
    else if (Array.isArray(parent)) parent[at as number] = value;
    else putJsonKey(parent, at as string, value);
    s.changed = true;
  }

  private mergeKeys(s: FormatterState, target: JsonObject, union: boolean): void {
    const type = this.spec.dataType ?? 'map';
    if (type !== 'map') throw this.problem(`the path holds an object; ${this.spec.operation} into an object needs DataType map, not ${type}`);
    const source = this.convert(this.render(s, s.node), 'map') as JsonObject;
    const regex = this.spec.selector?.regex;
    for (const [key, value] of Object.entries(source)) {
      if (regex !== undefined && !regex.test(key)) continue;
      if (hasJsonKey(target, key) && (union || sameJson(target[key]!, value))) continue;
      putJsonKey(target, key, value);
      s.changed = true;
    }
  }

  /** The object or list at the path; undefined when not found; a scalar fails. */
  private container(s: FormatterState): JsonValue[] | JsonObject | undefined {
    const found = this.spec.path.select(s.node);
    if (found === undefined) return undefined;
    if (!Array.isArray(found) && !isJsonObject(found)) throw this.problem(`the path holds ${describeJson(found)}, not an object or a list`);
    return found;
  }

  private list(s: FormatterState): JsonValue[] | undefined {
    const found = this.container(s);
    if (found !== undefined && !Array.isArray(found)) throw this.problem(`the path holds an object; ${this.spec.operation} works on lists`);
    return found;
  }

  /** Replaces a list's items in place (the list may be the current node), marking a change when they differ. */
  private replaceItems(s: FormatterState, list: JsonValue[], items: JsonValue[]): void {
    if (items.length === list.length && items.every((v, i) => v === list[i])) return;
    list.splice(0, list.length, ...items);
    s.changed = true;
  }

  private deleteKey(s: FormatterState, object: JsonObject, key: string): void {
    delete object[key];
    s.changed = true;
  }

  private problem(what: string): TransformProblem {
    return new TransformProblem(`${this.spec.label}: ${what}`);
  }
}

/** The smallest (`first`) or largest key, in String.compareTo order (UTF-16 code units, as JS `<`). */
function extremeKey(keys: string[], first: boolean): string | undefined {
  let best: string | undefined;
  for (const k of keys) if (best === undefined || (first ? k < best : k > best)) best = k;
  return best;
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The identity of a scalar or structure for uniq without a Template: numbers by value (`1` = `1.0`). */
function identity(item: JsonValue): string {
  if (item instanceof JsonNumber) return `n${Number(item.text)}`;
  return `j${stringifyJson(item)}`;
}
