/**
 * Rule lists in the rule-name field (docs/evaluator/rules.md): `a,b` chain, `a|b` first hit, `a:b` every
 * hit. Each function returns the final code (0, 1, -1), synchronously unless an item's action is
 * asynchronous, and never throws.
 *
 * Behaviour, with the deliberate fixes the reference recommends:
 *  - comma: items run in order; an unknown item, a non-match or a failure stops the chain with that
 *    code (fixed: the original continued after a transformation that *returned* failure). After each
 *    successful item the code is 0 and OriginalRC becomes "0" (kept: later items see a success).
 *  - pipe: the body is read at most once; an unknown item or a filter error stops with -1; the first
 *    item that matches (and whose check passes) is applied and its result is final; none gives 1.
 *  - colon: every matching item is applied, with the body re-read for each (fixed: stale body); the
 *    result is 0 if at least one matched and none failed, 1 if none matched, -1 at the first failure
 *    (fixed: the original reported the last item's outcome and continued after failures).
 */
import { Message } from '../message/message';
import { CompiledRuleset, EXCEPTION, FAILURE, SUCCESS } from './ruleset';

export interface ListRuntime {
  lookup(name: string): CompiledRuleset | undefined;
  /** Logs an unknown item of a list. */
  unknown(item: string, list: string): void;
  /** Logs a filter that threw. */
  failed(rule: CompiledRuleset, error: unknown): void;
  /** Writes the code into RCField (so a display line shows it). */
  writeCode(msg: Message, code: number): void;
  /** After a successful comma-list item: OriginalRC becomes "0". */
  chainSucceeded(msg: Message): void;
}

type Code = number | Promise<number>;

/** Splits a rule name into a list, or undefined for a single name (separator precedence , | :). */
export function splitRuleList(value: string): { separator: ',' | '|' | ':'; items: string[] } | undefined {
  for (const separator of [',', '|', ':'] as const) {
    if (value.indexOf(separator) > 0) return { separator, items: value.split(separator).map((s) => s.trim()) };
  }
  return undefined;
}

function finishItem(rule: CompiledRuleset, msg: Message, code: number, sep: string, rt: ListRuntime): number {
  rt.writeCode(msg, code);
  rule.display(msg, rule.name + sep);
  return code;
}

export function evaluateCommaList(items: readonly string[], list: string, msg: Message, rt: ListRuntime, from = 0): Code {
  for (let i = from; i < items.length; i++) {
    const rule = rt.lookup(items[i]);
    if (rule === undefined) {
      rt.unknown(items[i], list);
      return EXCEPTION;
    }
    const r = rule.evaluate(msg);
    if (typeof r !== 'number') {
      return r.then((v) => {
        if (v !== SUCCESS) return finishItem(rule, msg, v, ',', rt);
        finishItem(rule, msg, SUCCESS, ',', rt);
        rt.chainSucceeded(msg);
        return evaluateCommaList(items, list, msg, rt, i + 1);
      });
    }
    finishItem(rule, msg, r, ',', rt);
    if (r !== SUCCESS) return r;
    rt.chainSucceeded(msg);
  }
  return SUCCESS;
}

interface PipeState {
  body: string | undefined;
  bodyRead: boolean;
}

export function evaluatePipeList(
  items: readonly string[],
  list: string,
  msg: Message,
  rt: ListRuntime,
  from = 0,
  state: PipeState = { body: undefined, bodyRead: false },
): Code {
  for (let i = from; i < items.length; i++) {
    const rule = rt.lookup(items[i]);
    if (rule === undefined) {
      rt.unknown(items[i], list);
      return EXCEPTION;
    }
    let hit: boolean;
    try {
      if (rule.needsBody && !state.bodyRead) {
        state.body = msg.bodyText();
        state.bodyRead = true;
      }
      hit = rule.needsBody ? rule.matches(msg, state.body) : rule.matches(msg);
    } catch (e) {
      rt.failed(rule, e);
      return EXCEPTION;
    }
    if (!hit) continue;
    const r = rule.apply(msg, state.body);
    if (typeof r !== 'number') {
      return r.then((v) => (v === FAILURE ? evaluatePipeList(items, list, msg, rt, i + 1, state) : finishItem(rule, msg, v, '|', rt)));
    }
    if (r === FAILURE) continue; // a time-window or file check that did not pass counts as no hit
    return finishItem(rule, msg, r, '|', rt);
  }
  return FAILURE;
}

export function evaluateColonList(items: readonly string[], list: string, msg: Message, rt: ListRuntime, from = 0, matched = false): Code {
  for (let i = from; i < items.length; i++) {
    const rule = rt.lookup(items[i]);
    if (rule === undefined) {
      rt.unknown(items[i], list);
      return EXCEPTION;
    }
    const r = rule.evaluate(msg);
    if (typeof r !== 'number') {
      return r.then((v) => {
        if (v === EXCEPTION) return finishItem(rule, msg, v, ':', rt);
        if (v === SUCCESS) rule.display(msg, rule.name + ':');
        return evaluateColonList(items, list, msg, rt, i + 1, matched || v === SUCCESS);
      });
    }
    if (r === EXCEPTION) return finishItem(rule, msg, r, ':', rt);
    if (r === SUCCESS) {
      matched = true;
      rule.display(msg, rule.name + ':');
    }
  }
  return matched ? SUCCESS : FAILURE;
}
