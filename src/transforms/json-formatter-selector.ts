/**
 * The `Selector` of a JSONFormatter operation (docs/evaluator/transforms.md), compiled at start-up:
 *
 * - a regex string (the original's Perl5 dialect, "find" semantics: `^c$` to match exactly);
 * - a list of intervals (`["[1,10)", "(20,]"]`, docs/evaluator/rules.md);
 * - a map `{path: regex or intervals}`, or a list of such maps.
 *
 * The first two test text: the key of an object entry, or the text of an array value (a string
 * as it is, a number as written). The path forms test the value of an entry or an array item: a
 * map accepts it when the value at every path passes its test (a missing path fails); a list of
 * maps accepts when any of its maps does, as pattern groups combine (docs/evaluator/rules.md).
 */
import { isRecord } from '../rules/errors';
import { IntervalSet } from '../rules/intervals';
import { compilePerl5 } from '../rules/regex-dialect';
import { TransformConfigError } from './errors';
import type { JsonFormatterCompileContext } from './kind-types';
import { JsonPath } from './json-path';
import { compileJsonPathKey } from './json-support';
import type { JsonValue } from './json-text';
import { valueText } from './json-formatter-values';

type TextTest = (text: string) => boolean;

interface PathTest {
  readonly path: JsonPath;
  readonly test: TextTest;
}

interface CompiledTextTest {
  readonly test: TextTest;
  readonly regex?: RegExp;
}

export class Selector {
  private constructor(
    /** The regex of the regex-string form (the only form merge and union accept). */
    readonly regex: RegExp | undefined,
    private readonly text: TextTest | undefined,
    private readonly groups: ReadonlyArray<readonly PathTest[]>,
  ) {}

  static compile(raw: unknown, key: string, ctx: JsonFormatterCompileContext): Selector {
    if (typeof raw === 'string' || (Array.isArray(raw) && raw.every((e) => typeof e === 'string'))) {
      const { regex, test } = textTest(raw, key, ctx);
      return new Selector(regex, test, []);
    }
    if (isRecord(raw)) return new Selector(undefined, undefined, [pathGroup(raw, key, ctx)]);
    if (Array.isArray(raw) && raw.length > 0 && raw.every(isRecord)) {
      return new Selector(
        undefined,
        undefined,
        raw.map((group, i) => pathGroup(group, `${key}[${i}]`, ctx)),
      );
    }
    throw new TransformConfigError(
      ctx.where(key),
      `is ${JSON.stringify(raw)}`,
      'a regex string, a list of intervals, or a map (or list of maps) of path to regex or intervals',
    );
  }

  /**
   * Whether an object entry (`key` given) or an array item (`key` undefined) is kept. A path that
   * does not fit the value throws JsonPathProblem.
   */
  accepts(key: string | undefined, value: JsonValue): boolean {
    if (this.text !== undefined) return this.text(key ?? valueText(value));
    return this.groups.some((group) =>
      group.every(({ path, test }) => {
        const v = path.select(value);
        return v !== undefined && test(valueText(v));
      }),
    );
  }
}

function pathGroup(map: Record<string, unknown>, key: string, ctx: JsonFormatterCompileContext): PathTest[] {
  return Object.entries(map).map(([path, test]) => {
    const at = `${key}.${path}`;
    return { path: compileJsonPathKey(path, at, ctx), test: textTest(test, at, ctx).test };
  });
}

/** A regex string or a list of intervals. */
function textTest(raw: unknown, key: string, ctx: JsonFormatterCompileContext): CompiledTextTest {
  const where = ctx.where(key);
  if (typeof raw === 'string') {
    const regex = compilePerl5(raw, {}, where);
    return { regex, test: (t) => regex.test(t) };
  }
  if (Array.isArray(raw)) {
    const set = IntervalSet.parse(raw, where);
    return { test: (t) => set.containsText(t) };
  }
  throw new TransformConfigError(where, `is ${JSON.stringify(raw)}`, 'a regex string or a list of intervals');
}
