/**
 * Pattern groups (docs/evaluator/rules.md): the message filter every ruleset has, and
 * that JobNode uses to pick a ruleset.
 *
 *   filter(msg) = any(JMSPropertyGroup, default true)  and not any(XJMSPropertyGroup, default false)
 *             and any(PatternGroup, default true)      and not any(XPatternGroup, default false)
 *
 * Inside a group every condition must hold (AND); across the groups of a list any group may hold
 * (OR); an absent or empty list gives the default. Property conditions are Perl5 regexes with find
 * semantics, or lists of numeric intervals. Body conditions test the body text; a present body list
 * (even empty) makes the filter body-needed, and a message without body text then never matches.
 *
 * [QUIRK] kept: a group that is not a map makes its whole list count as "no match" (select side) or
 * "excluded" (exclude side), so the rule never matches; a warning is issued at start-up.
 * Extension (docs/evaluator/rules.md): `Pattern` may be a single string as well as a list of strings.
 */
import { Message } from '../message/message';
import { ConfigWhere, RuleConfigError, at, isRecord } from './errors';
import { compilePerl5 } from './regex-dialect';
import { IntervalSet } from './intervals';
import { emitFieldRead } from './message-fields';
import { FunctionBuilder } from './codegen';
import { didYouMean } from '../foundation/did-you-mean';

export const FILTER_KEYS = ['JMSPropertyGroup', 'XJMSPropertyGroup', 'PatternGroup', 'XPatternGroup'] as const;

export interface MessageFilter {
  /** True when matching reads the body text (a PatternGroup or XPatternGroup is present). */
  readonly needsBody: boolean;
  /**
   * Whether the message passes. `bodyText` is the body text already read by the caller; when it is
   * not given and the filter needs it, the filter reads it from the message.
   */
  matches(msg: Message, bodyText?: string): boolean;
  /**
   * The filter as one JavaScript boolean expression over the identifier `msg` and, when the filter
   * needs the body, `body` (the body text, already read; undefined for a message without one), for
   * generated code (codegen.ts). `matches` is built from it.
   */
  emit(b: FunctionBuilder, msg: string, body: string): string;
}

export interface FilterOptions {
  /** Clock for JMSAge; defaults to Date.now. */
  clock?: () => number;
  /** Receives start-up warnings (kept quirks that make a rule unmatchable). */
  warn?: (text: string) => void;
}

/** A condition as a code emitter: a boolean expression over `msg` (property groups) or `body` (body groups). */
type Condition = (b: FunctionBuilder, msg: string, body: string) => string;

/** A compiled list of groups: undefined = absent, 'broken' = a non-map group (the quirk). */
type GroupList = ReadonlyArray<readonly Condition[]> | 'broken' | undefined;

function listOf(config: Record<string, unknown>, key: string, where: ConfigWhere): unknown[] | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new RuleConfigError(at(where, key), `is ${typeof value === 'object' ? 'a map' : JSON.stringify(value)}`, 'a list of maps');
  return value;
}

/** Compiles a list of groups; a group that is not a map marks the whole list broken (the quirk). */
function compileGroups(
  config: Record<string, unknown>,
  key: string,
  where: ConfigWhere,
  options: FilterOptions,
  compileGroup: (group: Record<string, unknown>, gw: ConfigWhere, options: FilterOptions) => Condition[],
): GroupList {
  const list = listOf(config, key, where);
  if (list === undefined) return undefined;
  let broken = false;
  const groups = list.map((group, index) => {
    const gw = at(where, `${key}[${index}]`);
    if (isRecord(group)) return compileGroup(group, gw, options);
    broken = true;
    options.warn?.(`${describe(gw)} is not a map: this ruleset can never match (kept from the original)`);
    return [];
  });
  return broken ? 'broken' : groups;
}

function compilePropertyGroup(group: Record<string, unknown>, gw: ConfigWhere, options: FilterOptions): Condition[] {
  const clock = options.clock ?? Date.now;
  return Object.entries(group).map(([name, condition]): Condition => {
    const cw = at(gw, name);
    let test: { test(text: string): boolean } | { containsText(text: string): boolean };
    if (typeof condition === 'string') test = compilePerl5(condition, {}, cw);
    else if (Array.isArray(condition)) test = IntervalSet.parse(condition, cw);
    else
      throw new RuleConfigError(
        cw,
        `condition ${JSON.stringify(condition)} is neither a pattern nor a list of intervals`,
        'a regex string or a list of intervals such as ["[1,10)"]',
      );
    const method = 'test' in test ? 'test' : 'containsText';
    return (b, msg) => {
      const v = b.temp();
      return `((${v} = ${emitFieldRead(b, name, 'property', msg, b.bind(clock))}) !== undefined && ${b.bind(test)}.${method}(${v}))`;
    };
  });
}

function compileBodyGroup(group: Record<string, unknown>, gw: ConfigWhere): Condition[] {
  for (const k of Object.keys(group)) {
    if (k !== 'Pattern') throw new RuleConfigError(at(gw, k), `unknown key in a body pattern group${didYouMean(k, ['Pattern'])}`, 'only Pattern');
  }
  const patterns = group.Pattern;
  if (patterns === undefined || patterns === null) return [];
  const sources = typeof patterns === 'string' ? [patterns] : patterns;
  if (!Array.isArray(sources)) throw new RuleConfigError(at(gw, 'Pattern'), 'is not a list', 'a list of regex strings');
  return sources.map((p, k): Condition => {
    if (typeof p !== 'string') throw new RuleConfigError(at(gw, `Pattern[${k}]`), `${JSON.stringify(p)} is not a string`, 'a regex string');
    const re = compilePerl5(p, {}, at(gw, `Pattern[${k}]`));
    return (b, _msg, body) => `${b.bind(re)}.test(${body})`;
  });
}

function describe(where: ConfigWhere): string {
  return new RuleConfigError(where, '').message.replace(/: $/, '');
}

/**
 * "Some group holds" from docs/evaluator/rules.md as an expression; undefined for an absent or empty list (the caller
 * then uses the default). `whenBroken` is what a list with a non-map group yields. An empty group
 * holds.
 */
function emitGroups(list: GroupList, whenBroken: boolean, b: FunctionBuilder, msg: string, body: string): string | undefined {
  if (list === 'broken') return String(whenBroken);
  if (list === undefined || list.length === 0) return undefined;
  const groups = list.map((group) => (group.length === 0 ? 'true' : `(${group.map((c) => c(b, msg, body)).join(' && ')})`));
  return groups.length === 1 ? groups[0] : `(${groups.join(' || ')})`;
}

/** Compiles the four pattern-group lists of a ruleset (other keys are ignored here). */
export function compileMessageFilter(config: Record<string, unknown>, where: ConfigWhere = {}, options: FilterOptions = {}): MessageFilter {
  const select = compileGroups(config, 'JMSPropertyGroup', where, options, compilePropertyGroup);
  const exclude = compileGroups(config, 'XJMSPropertyGroup', where, options, compilePropertyGroup);
  const bodySelect = compileGroups(config, 'PatternGroup', where, options, compileBodyGroup);
  const bodyExclude = compileGroups(config, 'XPatternGroup', where, options, compileBodyGroup);
  const needsBody = bodySelect !== undefined || bodyExclude !== undefined;

  const emit = (b: FunctionBuilder, msg: string, body: string): string => {
    const terms: string[] = [];
    const s = emitGroups(select, false, b, msg, body);
    if (s !== undefined) terms.push(s);
    const x = emitGroups(exclude, true, b, msg, body);
    if (x !== undefined) terms.push(`!${x}`);
    if (needsBody) {
      // A body list, even an empty one, needs body text: a message without it never matches.
      terms.push(`${body} !== undefined`);
      const bs = emitGroups(bodySelect, false, b, msg, body);
      if (bs !== undefined) terms.push(bs);
      const bx = emitGroups(bodyExclude, true, b, msg, body);
      if (bx !== undefined) terms.push(`!${bx}`);
    }
    return terms.length === 0 ? 'true' : terms.join(' && ');
  };

  const b = new FunctionBuilder();
  const read = needsBody ? 'const body = bodyText ?? msg.bodyText();\n' : '';
  const matches = b.build<MessageFilter['matches']>('filter', ['msg', 'bodyText'], `${read}return ${emit(b, 'msg', 'body')};`);
  return { needsBody, matches, emit };
}
