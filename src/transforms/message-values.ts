/**
 * Ruleset values that may be message templates (XSLParameter, JSONParameter, XPath expressions):
 * a value without a `##name##` placeholder is static; one with placeholders is rendered for
 * every message through the engine's template formatter.
 */
import type { Message } from '../message/message';
import { Template } from '../rules/template';
import type { TransformCompileContext } from './kind-types';

export function hasPlaceholder(value: string): boolean {
  return Template.hasPlaceholders(value);
}

/** A value resolved per message: a constant, or the template rendered against the message. */
export type MessageValue = (msg: Message) => string;

export function messageValue(value: string, key: string, ctx: TransformCompileContext): MessageValue {
  return hasPlaceholder(value) ? ctx.formatTemplate(value, key) : () => value;
}

/** Compiles every entry of the name→value map under `key` (e.g. XSLParameter) into per-message values. */
export function messageValues(
  map: Readonly<Record<string, string>>,
  key: string,
  ctx: TransformCompileContext,
): ReadonlyArray<readonly [string, MessageValue]> {
  return Object.entries(map).map(([name, value]) => [name, messageValue(value, `${key}.${name}`, ctx)] as const);
}

export function renderValues(values: ReadonlyArray<readonly [string, MessageValue]>, msg: Message): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of values) out[name] = value(msg);
  return out;
}
