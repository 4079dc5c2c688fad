/**
 * The context a ruleset of one MessageEvaluator is compiled in: where its configuration errors point,
 * how its paths resolve, its file and engine caches, and lazy handles on the other rulesets it names
 * (Branch, Loop), which the engine checks once every ruleset is compiled.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigWhere, RuleConfigError } from '../rules/errors';
import { Template } from '../rules/template';
import { compileSubstitution } from '../rules/substitution';
import { compileMessageFilter } from '../rules/message-filter';
import { EvaluatorLogger, RuleHandle, RulesetKindContext } from '../rules/ruleset-kinds';
import { CompiledRuleset } from '../rules/ruleset';
import { MessageEvaluatorOptions } from './options';

/** Largest template file read (the original stopped reading after about 4 MiB). */
const MAX_TEMPLATE_FILE_BYTES = 4 * 1024 * 1024;

/** A ruleset named by another (Branch, Loop), checked after compilation. */
interface RulesetReference {
  from: string;
  name: string;
  key: string;
}

/** What the contexts of one engine's rulesets share. */
export interface CompilationScope {
  readonly component: string;
  readonly options: MessageEvaluatorOptions;
  readonly logger: EvaluatorLogger;
  /** The rulesets compiled so far; a handle looks its target up here when first used. */
  readonly rules: ReadonlyMap<string, CompiledRuleset>;
  readonly engineCache: Map<string, unknown>;
  readonly fileCache: Map<string, string>;
  /** Every ruleset reference made while compiling, for the engine to check. */
  readonly references: RulesetReference[];
  onClose(fn: () => void | Promise<void>): void;
}

export function rulesetContext(scope: CompilationScope, rulesetName: string): RulesetKindContext {
  const { component, options, logger, references } = scope;
  const clock = options.clock ?? Date.now;
  const random = options.random ?? Math.random;
  const where = (key?: string): ConfigWhere => (key === undefined ? { component, ruleset: rulesetName } : { component, ruleset: rulesetName, key });
  const resolvePath = (p: string): string => (isAbsolute(p) ? p : resolve(options.baseDir, p));
  const rules = scope.rules;
  const lookup = (name: string): CompiledRuleset => {
    const r = rules.get(name);
    if (r === undefined) throw new Error(`ruleset ${name} is not compiled`);
    return r;
  };
  return {
    component,
    rulesetName,
    baseDir: options.baseDir,
    pluginDirs: options.pluginDirs.map(resolvePath),
    checkOnly: options.checkOnly === true,
    clock,
    random,
    logger,
    engineCache: scope.engineCache,
    where,
    resolvePath,
    readTextFile(path, key) {
      const file = resolvePath(path);
      const cached = scope.fileCache.get(file);
      if (cached !== undefined) return cached;
      let text: string;
      try {
        if (statSync(file).size > MAX_TEMPLATE_FILE_BYTES) throw new Error(`larger than ${MAX_TEMPLATE_FILE_BYTES} bytes`);
        text = readFileSync(file, 'utf8');
      } catch (e) {
        throw new RuleConfigError(where(key), `cannot read ${file}: ${(e as Error).message}`, 'a readable file', e);
      }
      scope.fileCache.set(file, text);
      return text;
    },
    template: (text, key) => new Template(text, { clock, where: where(key) }),
    formatTemplate(text, key) {
      const t = new Template(text, { clock, where: where(key) });
      return (msg) => t.format(msg);
    },
    substitution: (text, key) => compileSubstitution(text, { where: where(key), clock, random }),
    filter: (config, key) => compileMessageFilter(config, where(key), { clock, warn: (t) => logger.warn(`${component}: ${t}`) }),
    ruleset(name, key): RuleHandle {
      references.push({ from: rulesetName, name, key });
      // Resolved lazily: the target may be compiled after this ruleset.
      return {
        name,
        get needsBody() {
          return lookup(name).needsBody;
        },
        get composite() {
          return lookup(name).composite;
        },
        matches: (msg, body) => lookup(name).matches(msg, body),
        apply: (msg, body) => lookup(name).apply(msg, body),
        display: (msg, label) => lookup(name).display(msg, label),
      };
    },
    onClose: scope.onClose,
  };
}
