/**
 * Plugin formatters (`ClassName`, `MethodName`, `FormatterArgument`; docs/evaluator/rules.md).
 *
 * `ClassName` names a JavaScript or TypeScript module that is looked up ONLY inside the directories
 * the topology lists in `PluginDir` (src/runtime/plugin-module.ts: `<dir>/<ClassName>`, with `.js`, `.cjs`, `.ts` or
 * `.cts`, or with dots as path separators, `org.example.Upper` → `<dir>/org/example/Upper.ts`). A name
 * that would leave the directory (absolute, `..`, a symlink pointing outside) is rejected.
 *
 * The module exports a factory (the module itself, or `default`, or `create`): a function or class
 * called with the ruleset's FormatterArgument (null when absent) that returns an object with the
 * method `MethodName` (default `format`) and optionally `close()`. The method receives the message
 * and returns null/undefined for success or an error text (EXCEPTION, logged); it may return a
 * Promise of the same. A throwing plugin gives EXCEPTION, never a crash.
 *
 * Deviation (the original's quirk, fixed; docs/evaluator/rules.md): instances are shared between rulesets only when the module, the
 * method and the whole argument are equal (the original compared only part of the argument).
 *
 * A check-only engine (the settings reader, `xroute validate`) finds the module but neither loads nor starts
 * it: checking a configuration runs no user code.
 */
import { Message } from '../../message/message';
import { RuleConfigError, RuleEvaluationError, isRecord } from '../errors';
import { KIND_PRECEDENCE, RulesetKindContext, RulesetKind } from '../ruleset-kinds';
import { createPluginInstance, resolvePluginModule } from '../../runtime/plugin-module';
import { PluginLoadError } from '../../runtime/errors';

type PluginMethod = (this: unknown, msg: Message) => unknown;

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isRecord(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

function instantiate(file: string, argument: unknown, methodName: string, ctx: RulesetKindContext): { target: unknown; method: PluginMethod } {
  let target: unknown;
  try {
    target = createPluginInstance(file, argument);
  } catch (e) {
    throw e instanceof PluginLoadError ? new RuleConfigError(ctx.where('ClassName'), e.problem, e.expected, e) : e;
  }
  const method = isRecord(target) || typeof target === 'function' ? (target as Record<string, unknown>)[methodName] : undefined;
  if (typeof method !== 'function')
    throw new RuleConfigError(ctx.where('MethodName'), `plugin ${file} has no method ${methodName}`, 'a function taking the message');
  const close = (target as { close?: unknown }).close;
  if (typeof close === 'function') ctx.onClose(() => (close as () => void | Promise<void>).call(target));
  return { target, method: method as PluginMethod };
}

function outcome(result: unknown): void {
  if (result === null || result === undefined) return;
  throw new RuleEvaluationError(`plugin returned an error: ${String(result)}`);
}

/** The action of a plugin found but not started (a check-only engine, which evaluates nothing). */
function notStarted(file: string): () => never {
  return () => {
    throw new RuleEvaluationError(`plugin ${file} was not started: the engine was built only to check the configuration`);
  };
}

export const PLUGIN_KIND: RulesetKind = {
  name: 'plugin',
  precedence: KIND_PRECEDENCE.plugin,
  keys: ['ClassName', 'MethodName', 'FormatterArgument'],
  detect: (r) => r.ClassName !== undefined,
  compile(ruleset, ctx) {
    const className = ruleset.ClassName;
    if (typeof className !== 'string') throw new RuleConfigError(ctx.where('ClassName'), 'is not a string', 'the name of a module in a PluginDir');
    const methodName = ruleset.MethodName ?? 'format';
    if (typeof methodName !== 'string' || methodName === '') throw new RuleConfigError(ctx.where('MethodName'), 'is not a string', 'a method name');
    const file = resolvePluginModule(className, ctx.pluginDirs);
    if (file === undefined) {
      throw new RuleConfigError(
        ctx.where('ClassName'),
        ctx.pluginDirs.length === 0
          ? `plugin ${className} cannot be loaded: no PluginDir is configured`
          : `plugin ${className} not found in PluginDir ${ctx.pluginDirs.join(', ')}`,
        'a .js or .ts module inside a PluginDir',
      );
    }
    // Checking a configuration runs no user code: the module is found, not loaded (its exports are checked at start).
    if (ctx.checkOnly) return notStarted(file);
    const argument = ruleset.FormatterArgument ?? null;
    const key = `plugin\0${file}\0${methodName}\0${stableJson(argument)}`;
    let instance = ctx.engineCache.get(key) as { target: unknown; method: PluginMethod } | undefined;
    if (instance === undefined) {
      instance = instantiate(file, argument, methodName, ctx);
      ctx.engineCache.set(key, instance);
    }
    const { target, method } = instance;
    return (msg) => {
      const r = method.call(target, msg);
      if (r instanceof Promise) return r.then((v) => outcome(v));
      outcome(r);
    };
  },
};
