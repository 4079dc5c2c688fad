/**
 * Reading the keys of a ruleset map at compile time, with errors that name ruleset and key.
 * All configuration values are strings except lists and maps (evaluator.md §0.2).
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isRecord } from '../rules/errors';
import { TransformConfigError } from './errors';
import type { RulesetMap, TransformCompileContext } from './kind-types';

export function stringKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): string;
export function stringKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext, fallback: string): string;
export function stringKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext, fallback?: string): string {
  const value = ruleset[key];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw new TransformConfigError({ ruleset: ctx.rulesetName, key }, 'is missing', 'a string');
  }
  if (typeof value !== 'string') throw new TransformConfigError({ ruleset: ctx.rulesetName, key }, `is ${describe(value)}`, 'a string');
  return value;
}

/** A map of name to string value (XSLParameter, JSONParameter, XPath map, JSONPath map); absent = empty. */
export function stringMapKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): Record<string, string> {
  const value = ruleset[key];
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new TransformConfigError({ ruleset: ctx.rulesetName, key }, `is ${describe(value)}`, 'a map of name to string');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new TransformConfigError({ ruleset: ctx.rulesetName, key: `${key}.${name}` }, `is ${describe(v)}`, 'a string');
    out[name] = v;
  }
  return out;
}

/** `"true"` in any case is true; anything else (or absent) is false, as ReplaceMode in the original. */
export function flagKey(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): boolean {
  return stringKey(ruleset, key, ctx, 'false').trim().toLowerCase() === 'true';
}

export interface LoadedFile {
  readonly path: string;
  readonly text: string;
  /** Identity of this version of the file, for caches shared by path. */
  readonly version: string;
}

/** Reads a file named by a ruleset key, resolving a relative path against the configuration's directory. */
export function readRulesetFile(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): LoadedFile {
  const name = stringKey(ruleset, key, ctx);
  const path = isAbsolute(name) ? name : resolve(ctx.baseDir, name);
  try {
    const stat = statSync(path);
    return { path, text: readFileSync(path, 'utf8'), version: `${path}:${stat.mtimeMs}:${stat.size}` };
  } catch (e) {
    throw new TransformConfigError({ ruleset: ctx.rulesetName, key }, `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'a readable file');
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}

/**
 * Compiles a file named by a ruleset key once per version of the file, so that every ruleset
 * naming the same stylesheet or template shares one compiled form (evaluator.md §12.2, §13.5).
 */
export class CompiledFiles<T> {
  private readonly byVersion = new Map<string, T>();

  constructor(private readonly compile: (file: LoadedFile, ctx: TransformCompileContext) => T) {}

  get(ruleset: RulesetMap, key: string, ctx: TransformCompileContext): T {
    const file = readRulesetFile(ruleset, key, ctx);
    let compiled = this.byVersion.get(file.version);
    if (compiled === undefined) {
      compiled = this.compile(file, ctx);
      this.byVersion.set(file.version, compiled);
    }
    return compiled;
  }
}
