/**
 * Pattern groups (evaluator.md §5, components.md §3.2): the message filter every ruleset has, and
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
 * Extension (§5.1 [REC]): `Pattern` may be a single string as well as a list of strings.
 */
import { Message } from '../message';
import { ConfigWhere, RuleConfigError, at, isRecord } from './errors';
import { compilePerl5 } from './regex-dialect';
import { IntervalSet } from './intervals';
import { propertyReader } from './message-fields';
import { didYouMean } from './did-you-mean';

export const FILTER_KEYS = ['JMSPropertyGroup', 'XJMSPropertyGroup', 'PatternGroup', 'XPatternGroup'] as const;

export interface MessageFilter {
  /** True when matching reads the body text (a PatternGroup or XPatternGroup is present). */
  readonly needsBody: boolean;
  /**
   * Whether the message passes. `bodyText` is the body text already read by the caller; when it is
   * not given and the filter needs it, the filter reads it from the message.
   */
  matches(msg: Message, bodyText?: string): boolean;
}

export interface FilterOptions {
  /** Clock for JMSAge; defaults to Date.now. */
  clock?: () => number;
  /** Receives start-up warnings (kept quirks that make a rule unmatchable). */
  warn?: (text: string) => void;
}

/** Conditions take two arguments (body conditions ignore the second) so matching needs no rest arguments. */
type Condition<A, B> = (a: A, b: B) => boolean;
type PropertyCondition = Condition<Message, () => number>;
type BodyCondition = Condition<string, undefined>;

/** A compiled list of groups: undefined = absent, 'broken' = a non-map group (the quirk). */
type GroupList<C> = ReadonlyArray<readonly C[]> | 'broken' | undefined;

function listOf(config: Record<string, unknown>, key: string, where: ConfigWhere): unknown[] | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new RuleConfigError(at(where, key), `is ${typeof value === 'object' ? 'a map' : JSON.stringify(value)}`, 'a list of maps');
  return value;
}

/** Compiles a list of groups; a group that is not a map marks the whole list broken (the quirk). */
function compileGroups<C>(
  config: Record<string, unknown>,
  key: string,
  where: ConfigWhere,
  options: FilterOptions,
  compileGroup: (group: Record<string, unknown>, gw: ConfigWhere) => C[],
): GroupList<C> {
  const list = listOf(config, key, where);
  if (list === undefined) return undefined;
  let broken = false;
  const groups = list.map((group, index) => {
    const gw = at(where, `${key}[${index}]`);
    if (isRecord(group)) return compileGroup(group, gw);
    broken = true;
    options.warn?.(`${describe(gw)} is not a map: this ruleset can never match (kept from the original)`);
    return [];
  });
  return broken ? 'broken' : groups;
}

function compilePropertyGroup(group: Record<string, unknown>, gw: ConfigWhere): PropertyCondition[] {
  return Object.entries(group).map(([name, condition]): PropertyCondition => {
    const cw = at(gw, name);
    const read = propertyReader(name);
    if (typeof condition === 'string') {
      const re = compilePerl5(condition, {}, cw);
      return (msg, clock) => {
        const v = read(msg, clock);
        return v !== undefined && re.test(v);
      };
    }
    if (Array.isArray(condition)) {
      const set = IntervalSet.parse(condition, cw);
      return (msg, clock) => {
        const v = read(msg, clock);
        return v !== undefined && set.containsText(v);
      };
    }
    throw new RuleConfigError(cw, `condition ${JSON.stringify(condition)} is neither a pattern nor a list of intervals`, 'a regex string or a list of intervals such as ["[1,10)"]');
  });
}

function compileBodyGroup(group: Record<string, unknown>, gw: ConfigWhere): BodyCondition[] {
  for (const k of Object.keys(group)) {
    if (k !== 'Pattern') throw new RuleConfigError(at(gw, k), `unknown key in a body pattern group${didYouMean(k, ['Pattern'])}`, 'only Pattern');
  }
  const patterns = group.Pattern;
  if (patterns === undefined || patterns === null) return [];
  const sources = typeof patterns === 'string' ? [patterns] : patterns;
  if (!Array.isArray(sources)) throw new RuleConfigError(at(gw, 'Pattern'), 'is not a list', 'a list of regex strings');
  return sources.map((p, k): BodyCondition => {
    if (typeof p !== 'string') throw new RuleConfigError(at(gw, `Pattern[${k}]`), `${JSON.stringify(p)} is not a string`, 'a regex string');
    const re = compilePerl5(p, {}, at(gw, `Pattern[${k}]`));
    return (text) => re.test(text);
  });
}

function describe(where: ConfigWhere): string {
  return new RuleConfigError(where, '').message.replace(/: $/, '');
}

function allOf<A, B>(group: ReadonlyArray<Condition<A, B>>): Condition<A, B> {
  if (group.length === 1) return group[0];
  if (group.length === 2) {
    const [c0, c1] = group;
    return (a, b) => c0(a, b) && c1(a, b);
  }
  return (a, b) => {
    for (let c = 0; c < group.length; c++) if (!group[c](a, b)) return false;
    return true;
  };
}

/**
 * "Some group holds" from §5.1 as a closure; undefined for an absent or empty list (the caller then
 * uses the default). `whenBroken` is what a list with a non-map group yields.
 */
function groupMatcher<A, B>(list: GroupList<Condition<A, B>>, whenBroken: boolean): Condition<A, B> | undefined {
  if (list === 'broken') return () => whenBroken;
  if (list === undefined || list.length === 0) return undefined;
  const groups = list.map(allOf);
  if (groups.length === 1) return groups[0];
  return (a, b) => {
    for (let g = 0; g < groups.length; g++) if (groups[g](a, b)) return true;
    return false;
  };
}

/** Compiles the four pattern-group lists of a ruleset (other keys are ignored here). */
export function compileMessageFilter(config: Record<string, unknown>, where: ConfigWhere = {}, options: FilterOptions = {}): MessageFilter {
  const clock = options.clock ?? Date.now;
  const select = groupMatcher(compileGroups(config, 'JMSPropertyGroup', where, options, compilePropertyGroup), false);
  const exclude = groupMatcher(compileGroups(config, 'XJMSPropertyGroup', where, options, compilePropertyGroup), true);
  const bodySelectList = compileGroups(config, 'PatternGroup', where, options, compileBodyGroup);
  const bodyExcludeList = compileGroups(config, 'XPatternGroup', where, options, compileBodyGroup);
  const needsBody = bodySelectList !== undefined || bodyExcludeList !== undefined;
  const bodySelect = groupMatcher(bodySelectList, false);
  const bodyExclude = groupMatcher(bodyExcludeList, true);
  const usesProperties = select !== undefined || exclude !== undefined;

  return {
    needsBody,
    matches(msg: Message, bodyText?: string): boolean {
      if (usesProperties) {
        if (select !== undefined && !select(msg, clock)) return false;
        if (exclude !== undefined && exclude(msg, clock)) return false;
      }
      if (!needsBody) return true;
      const text = bodyText ?? msg.bodyText();
      if (text === undefined) return false;
      if (bodySelect !== undefined && !bodySelect(text, undefined)) return false;
      if (bodyExclude !== undefined && bodyExclude(text, undefined)) return false;
      return true;
    },
  };
}
