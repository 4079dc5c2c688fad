/**
 * Reading the keys of a ruleset map at compile time, with errors that name ruleset and key.
 * All configuration values are strings except lists and maps (docs/topology.md).
 */
import { isRecord } from '../rules/errors';
import { TransformConfigError } from './errors';
import type { RulesetMap, TransformCompileContext } from './kind-types';

export function stringKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): string;
export function stringKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext, fallback: string): string;
export function stringKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext, fallback?: string): string {
  const value = ruleset[key];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw new TransformConfigError(ctx.where(key), 'is missing', 'a string');
  }
  if (typeof value !== 'string') throw new TransformConfigError(ctx.where(key), `is ${describe(value)}`, 'a string');
  return value;
}

/** A map of name to string value (XSLParameter, JSONParameter, XPath map, JSONPath map); absent = empty. */
export function stringMapKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): Record<string, string> {
  const value = ruleset[key];
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new TransformConfigError(ctx.where(key), `is ${describe(value)}`, 'a map of name to string');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new TransformConfigError(ctx.where(`${key}.${name}`), `is ${describe(v)}`, 'a string');
    out[name] = v;
  }
  return out;
}

/** `"true"` in any case is true; anything else (or absent) is false, as ReplaceMode in the original. */
export function flagKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): boolean {
  return stringKey(ruleset, key, ctx, 'false').trim().toLowerCase() === 'true';
}

export interface LoadedFile {
  /** Absolute path (relative paths resolve against the configuration's directory). */
  readonly path: string;
  readonly text: string;
}

/** Reads the file named by a ruleset key through the engine (which reports an unreadable file). */
function readRulesetFile(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): LoadedFile {
  const name = stringKey(ruleset, key, ctx);
  return { path: ctx.resolvePath(name), text: ctx.readTextFile(name, key) };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}

/**
 * Compiles a file named by a ruleset key once per path and content, so that every ruleset (of
 * every engine in the process) naming the same stylesheet or template shares one compiled form (docs/evaluator/transforms.md).
 */
export class CompiledFiles<T> {
  private readonly byVersion = new Map<string, T>();

  constructor(private readonly compile: (file: LoadedFile, ctx: TransformCompileContext) => T) {}

  get(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): T {
    const file = readRulesetFile(ruleset, key, ctx);
    const version = `${file.path}\n${file.text}`;
    let compiled = this.byVersion.get(version);
    if (compiled === undefined) {
      compiled = this.compile(file, ctx);
      this.byVersion.set(version, compiled);
    }
    return compiled;
  }
}
