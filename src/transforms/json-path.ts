/**
 * The JSON path dialect of the original (docs/evaluator/transforms.md), used by the JSONPath map, jcut,
 * jmerge and JSONFormatter. Compiled once; evaluated against a {@link JsonValue}.
 *
 * - Steps are separated by `.`; a leading `.` is optional and empty steps are ignored
 *   (`a.b` = `.a.b` = `a..b`); `.` alone is the root. `$` is an ordinary key.
 * - `[n]` indexes an array; a negative n counts from the end once (`[-1]` is the last);
 *   spaces inside are allowed; out of range is "not found".
 * - `[expr]` is an arithmetic expression of the eval language (docs/evaluator/rules.md) giving an index: `[1+1]`.
 * - `[cond]` with `#{key}` placeholders selects the first element of an array for which the
 *   condition (eval language) is true after each `#{key}` is replaced by that element's value:
 *   `items['#{id}' == '2']`, `items[#{qty} > 2]`. An element that lacks the key is an error.
 * - A step that does not fit the data (an index on an object, a key on an array or a scalar) is
 *   an error; a missing key is "not found".
 * Not supported, as in the original: `*`, `..` recursion, slices, `?()` filters, `['key']`.
 */
import { TransformProblem } from './errors';
import { evaluateExpression } from '../rules/eval-expression';
import { JsonNumber, JsonValue, isJsonObject } from './json-text';

/** The path does not fit the data, or an expression in it cannot be evaluated. */
export class JsonPathProblem extends TransformProblem {
  constructor(reason: string) {
    super(reason);
    this.name = 'JsonPathProblem';
  }
}

type Step = { readonly key: string } | { readonly index: number } | { readonly expression: string } | { readonly condition: string };

/** Where a path leads: the value, and the container and key/index that hold it (undefined for the root). */
export interface JsonLocation {
  readonly value: JsonValue;
  readonly parent?: JsonValue[] | Record<string, JsonValue>;
  readonly at?: string | number;
}

/** A place for a value: a location whose value may not exist yet. */
export type JsonSlot = Omit<JsonLocation, 'value'> & { readonly value?: JsonValue };

const INTEGER = /^-?\d+$/;
const PLACEHOLDER = /#\{([^}]*)\}/g;

export class JsonPath {
  private constructor(
    readonly source: string,
    private readonly steps: readonly Step[],
  ) {}

  /** Parses a path; throws JsonPathProblem for unbalanced brackets or an empty bracket. */
  static compile(source: string): JsonPath {
    return new JsonPath(source, parseSteps(source));
  }

  get isRoot(): boolean {
    return this.steps.length === 0;
  }

  /** The location the path leads to, or undefined when it is not found. */
  locate(root: JsonValue): JsonLocation | undefined {
    let here: JsonLocation = { value: root };
    for (const step of this.steps) {
      const next = this.step(here.value, step);
      if (next === undefined) return undefined;
      here = next;
    }
    return here;
  }

  /**
   * Where a value at the path is, or would be stored (JSONFormatter's `set`): like {@link locate},
   * but a last key step that is missing from its object still gives a slot (with no value).
   * Undefined when the container of the last step is not found, or a last index is out of range.
   */
  locateSlot(root: JsonValue): JsonSlot | undefined {
    const last = this.steps[this.steps.length - 1];
    if (last === undefined) return { value: root };
    let here: JsonValue = root;
    for (let i = 0; i < this.steps.length - 1; i++) {
      const next = this.step(here, this.steps[i]!);
      if (next === undefined) return undefined;
      here = next.value;
    }
    if ('key' in last && isJsonObject(here) && !Object.prototype.hasOwnProperty.call(here, last.key)) return { parent: here, at: last.key };
    return this.step(here, last);
  }

  /** The value at the path, or undefined when it is not found. */
  select(root: JsonValue): JsonValue | undefined {
    return this.locate(root)?.value;
  }

  private step(value: JsonValue, step: Step): JsonLocation | undefined {
    if ('key' in step) {
      if (!isJsonObject(value)) throw this.misfit(`key ${JSON.stringify(step.key)}`, value);
      return Object.prototype.hasOwnProperty.call(value, step.key) ? { value: value[step.key]!, parent: value, at: step.key } : undefined;
    }
    if (!Array.isArray(value)) throw this.misfit('an index', value);
    let index: number;
    if ('index' in step) index = step.index;
    else if ('expression' in step) index = this.evaluateIndex(step.expression);
    else return this.firstMatching(value, step.condition);
    if (index < 0) index += value.length;
    return index >= 0 && index < value.length ? { value: value[index]!, parent: value, at: index } : undefined;
  }

  private evaluateIndex(expression: string): number {
    const result = evaluateExpression(expression);
    if (result === undefined || !INTEGER.test(result)) throw new JsonPathProblem(`path ${this.source}: [${expression}] is not an integer index`);
    return Number(result);
  }

  private firstMatching(list: JsonValue[], condition: string): JsonLocation | undefined {
    for (let i = 0; i < list.length; i++) {
      const item = list[i]!;
      if (!isJsonObject(item)) throw this.misfit(`the condition [${condition}]`, item);
      const filled = condition.replace(PLACEHOLDER, (_m, key: string) => {
        if (!Object.prototype.hasOwnProperty.call(item, key)) throw new JsonPathProblem(`path ${this.source}: item ${i} has no key ${JSON.stringify(key)}`);
        const v = item[key]!;
        return v instanceof JsonNumber || typeof v !== 'object' || v === null ? String(v) : JSON.stringify(v);
      });
      const result = evaluateExpression(filled);
      if (result === undefined) throw new JsonPathProblem(`path ${this.source}: cannot evaluate [${filled}]`);
      if (result === '1') return { value: item, parent: list, at: i };
    }
    return undefined;
  }

  private misfit(what: string, value: JsonValue): JsonPathProblem {
    return new JsonPathProblem(`path ${this.source}: ${what} does not apply to ${describeJson(value)}`);
  }
}

/** `a list`, `an object`, `null` or `the scalar 5`, for error messages. */
export function describeJson(value: JsonValue): string {
  if (Array.isArray(value)) return 'a list';
  if (isJsonObject(value)) return 'an object';
  return value === null ? 'null' : `the scalar ${String(value)}`;
}

function parseSteps(source: string): Step[] {
  const steps: Step[] = [];
  let key = '';
  const endKey = (): void => {
    if (key !== '') steps.push({ key });
    key = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '.') endKey();
    else if (c === '[') {
      endKey();
      const end = closingBracket(source, i);
      steps.push(bracketStep(source, source.slice(i + 1, end).trim()));
      i = end;
    } else key += c;
  }
  endKey();
  return steps;
}

/** Index of the `]` closing the `[` at `open`; quotes inside (`'a]'`) are skipped. */
function closingBracket(source: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new JsonPathProblem(`path ${source}: unbalanced [`);
}

function bracketStep(source: string, inside: string): Step {
  if (inside === '') throw new JsonPathProblem(`path ${source}: empty []`);
  if (INTEGER.test(inside)) return { index: Number(inside) };
  if (inside.includes('#{')) return { condition: inside };
  return { expression: inside };
}
