/**
 * The MessageEvaluator engine (evaluator.md §1-§4): a pure, transport-free class built from the
 * component's configuration. The MessageEvaluator actor wraps it; `xroute eval` drives it directly.
 *
 * For every message `evaluate`:
 *  1. copies RCField into OriginalRC (an absent RCField leaves OriginalRC absent) and sets RCField
 *     to "-1";
 *  2. reads the rule name from the property FieldName ([QUIRK] kept: a property, even when named
 *     like a header) and dispatches: a single ruleset, or a list `a,b` (chain), `a|b` (first hit),
 *     `a:b` (every hit) when a separator appears after position 0;
 *  3. writes the final code as a string: "0" SUCCESS, "1" FAILURE, "-1" EXCEPTION.
 * It never throws: a missing or unknown rule name leaves "-1" and logs a warning; a failing
 * transformation gives "-1" (changes made before the failure stay, as in the original).
 * `evaluate` is synchronous unless a ruleset involved is asynchronous (a plugin or transform that
 * returns a Promise); then it returns a Promise that settles when the code is written.
 *
 * Construction compiles every ruleset and fails with a RuleConfigError naming the component, the
 * ruleset and the key for anything wrong (unknown keys with "did you mean", bad regexes, missing
 * files, malformed formatter entries, Branch/Loop references to unknown or composite rulesets,
 * a list-valued Ruleset, more rulesets than MaxNumberRules).
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Message } from '../../src/message';
import { ConfigWhere, RuleConfigError, at, isRecord } from '../../src/rules/errors';
import { didYouMean } from '../../src/rules/did-you-mean';
import { Template } from '../../src/rules/template';
import { compileSubstitution } from '../../src/rules/substitution';
import { compileMessageFilter } from '../../src/rules/message-filter';
import { EvaluatorLogger, RuleHandle, RulesetKindContext } from '../../src/rules/ruleset-kinds';
import { CompiledRuleset, DisplayHook, EXCEPTION, FAILURE, SUCCESS, compileRuleset, integerSetting } from '../../src/rules/ruleset';
import { ListRuntime, evaluateColonList, evaluateCommaList, evaluatePipeList, splitRuleList } from '../../src/rules/rule-lists';
import '../../src/rules/kinds';
import '../../src/transforms';

export { SUCCESS, FAILURE, EXCEPTION };
export type { DisplayHook, EvaluatorLogger };

export interface MessageEvaluatorOptions {
  /** Directory relative paths in the configuration resolve against. */
  baseDir: string;
  /** The only directories plugin modules (ClassName) are loaded from (the topology's PluginDir). */
  pluginDirs: readonly string[];
  logger?: EvaluatorLogger;
  /** Clock in epoch ms (JMSAge, time windows, :=time); defaults to Date.now. */
  clock?: () => number;
  /** Random source in [0, 1) for :=rand; defaults to Math.random. */
  random?: () => number;
  /** Called for each message a ruleset with DisplayMask > 0 handled. */
  display?: DisplayHook;
}

/** Largest template file read (the original stopped reading after about 4 MiB). */
const MAX_TEMPLATE_FILE_BYTES = 4 * 1024 * 1024;
/** The return code as written to RCField (a comparison chain: "-1" is no array index for a keyed lookup). */
const codeText = (code: number): string => (code === SUCCESS ? '0' : code === FAILURE ? '1' : '-1');

const silentLogger: EvaluatorLogger = { warn: () => undefined, error: () => undefined };

function stringSetting(config: Record<string, unknown>, key: string, fallback: string): string {
  // As in the original, FieldName, RCField and OriginalRC count only when they are (non-empty) strings.
  const v = config[key];
  return typeof v === 'string' && v !== '' ? v : fallback;
}

interface Reference {
  from: string;
  name: string;
  key: string;
}

export class MessageEvaluatorEngine {
  readonly component: string;
  readonly fieldName: string;
  readonly rcField: string;
  readonly originalRcField: string;
  private readonly rules = new Map<string, CompiledRuleset>();
  /** Rulesets a single rule name can reach (names with a separator after position 0 cannot). */
  private readonly singles = new Map<string, CompiledRuleset>();
  private readonly logger: EvaluatorLogger;
  private readonly closers: Array<() => void | Promise<void>> = [];
  private readonly listRuntime: ListRuntime;
  private closed = false;

  constructor(config: unknown, options: MessageEvaluatorOptions) {
    const name = isRecord(config) && typeof config.Name === 'string' ? config.Name : 'MessageEvaluator';
    this.component = name;
    const where: ConfigWhere = { component: name };
    if (!isRecord(config)) throw new RuleConfigError(where, 'the configuration is not a map', 'a MessageEvaluator component configuration');
    this.logger = options.logger ?? silentLogger;
    this.fieldName = stringSetting(config, 'FieldName', 'RuleName');
    this.rcField = stringSetting(config, 'RCField', 'ReturnCode');
    this.originalRcField = stringSetting(config, 'OriginalRC', 'OriginalRC');
    // The original reads MaxNumberRules; the spec writes MaxNumberRule. Both are accepted.
    const max =
      integerSetting(config.MaxNumberRules, at(where, 'MaxNumberRules'), 'an integer') ?? integerSetting(config.MaxNumberRule, at(where, 'MaxNumberRule'), 'an integer') ?? 128;
    const defaultDisplayMask = integerSetting(config.DisplayMask, at(where, 'DisplayMask'), 'an integer display mask') ?? 0;
    const debug = integerSetting(config.Debug, at(where, 'Debug'), 'an integer') ?? 0;

    const rulesets = config.Ruleset ?? {};
    if (Array.isArray(rulesets)) {
      throw new RuleConfigError(at(where, 'Ruleset'), 'is a list; the MessageEvaluator needs a map from ruleset name to ruleset (the original silently ran with no rules)', '{"name": {...ruleset...}}');
    }
    if (!isRecord(rulesets)) throw new RuleConfigError(at(where, 'Ruleset'), 'is not a map', 'a map from ruleset name to ruleset');
    const names = Object.keys(rulesets);
    if (names.length > max) throw new RuleConfigError(at(where, 'Ruleset'), `has ${names.length} rulesets, more than MaxNumberRules ${max}`);

    const settings = { component: name, defaultDisplayMask, logger: this.logger, display: options.display };
    const references: Reference[] = [];
    const engineCache = new Map<string, unknown>();
    const fileCache = new Map<string, string>();
    for (const rulesetName of names) {
      const ctx = this.context(rulesetName, options, engineCache, fileCache, references);
      const rule = compileRuleset(rulesetName, rulesets[rulesetName], settings, ctx);
      this.rules.set(rulesetName, rule);
      if (splitRuleList(rulesetName) === undefined) this.singles.set(rulesetName, rule);
      else this.logger.warn(`${name}: ruleset ${JSON.stringify(rulesetName)} contains a list separator after its first character and can only be reached from Branch or Loop`);
    }
    for (const ref of references) {
      const target = this.rules.get(ref.name);
      const rw = { component: name, ruleset: ref.from, key: ref.key };
      if (target === undefined) throw new RuleConfigError(rw, `refers to unknown ruleset ${JSON.stringify(ref.name)}${didYouMean(ref.name, names)}`, 'the name of a ruleset of this component');
      if (target.composite) throw new RuleConfigError(rw, `refers to ${JSON.stringify(ref.name)}, itself a Branch or Loop ruleset; nesting is not supported`, 'a ruleset that is not Branch or Loop');
    }
    if (debug > 0) {
      for (const [n, r] of this.rules) this.logger.debug?.(`${name}: ruleset ${n}: kind ${r.kind}, body ${r.needsBody ? 'read' : 'not read'}, DisplayMask ${r.displayMask}`);
    }
    this.listRuntime = {
      lookup: (n) => this.rules.get(n),
      unknown: (item, list) => this.logger.error(`${this.component}: unknown ruleset ${JSON.stringify(item)} in rule list ${JSON.stringify(list)}`),
      failed: (rule, e) => this.logger.error(`${this.component}: ruleset ${rule.name} failed: ${e instanceof Error ? e.message : String(e)}`),
      writeCode: (msg, code) => msg.properties.set(this.rcField, codeText(code)),
      chainSucceeded: (msg) => msg.properties.set(this.originalRcField, '0'),
    };
  }

  /** Names of the compiled rulesets, in configuration order. */
  get rulesetNames(): string[] {
    return [...this.rules.keys()];
  }

  /** The kind a ruleset was compiled as (e.g. "formatter", "filter", "xslt"). */
  rulesetKind(name: string): string | undefined {
    return this.rules.get(name)?.kind;
  }

  /**
   * Evaluates one message in place: sets OriginalRC and RCField and transforms it. Never throws;
   * returns a Promise only when an asynchronous ruleset was involved.
   */
  evaluate(msg: Message): void | Promise<void> {
    let props: Map<string, string>;
    try {
      props = msg.properties;
      const previous = props.get(this.rcField);
      if (previous === undefined) props.delete(this.originalRcField);
      else props.set(this.originalRcField, previous);
      props.set(this.rcField, '-1');
    } catch (e) {
      this.logger.warn(`${this.component}: cannot reset the return code, message bounced untouched: ${(e as Error).message}`);
      return;
    }
    const ruleName = props.get(this.fieldName);
    if (ruleName === undefined || ruleName === '') {
      this.logger.warn(`${this.component}: message has no rule name in ${this.fieldName}`);
      return;
    }
    try {
      const single = this.singles.get(ruleName);
      if (single !== undefined) {
        const code = single.evaluate(msg);
        if (typeof code === 'number') {
          props.set(this.rcField, codeText(code));
          if (single.displays) single.display(msg, single.name);
          return;
        }
        return code.then(
          (c) => {
            props.set(this.rcField, codeText(c));
            single.display(msg, single.name);
          },
          (e) => this.crashed(e),
        );
      }
      const list = splitRuleList(ruleName);
      if (list === undefined) {
        this.logger.warn(`${this.component}: unknown ruleset ${JSON.stringify(ruleName)}${didYouMean(ruleName, this.singles.keys())}`);
        return;
      }
      const rt = this.listRuntime;
      const code =
        list.separator === ','
          ? evaluateCommaList(list.items, ruleName, msg, rt)
          : list.separator === '|'
            ? evaluatePipeList(list.items, ruleName, msg, rt)
            : evaluateColonList(list.items, ruleName, msg, rt);
      if (typeof code === 'number') {
        props.set(this.rcField, codeText(code));
        return;
      }
      return code.then(
        (c) => {
          props.set(this.rcField, codeText(c));
        },
        (e) => this.crashed(e),
      );
    } catch (e) {
      // Defensive: every ruleset path already catches; an error here is a defect, not the message's fault.
      this.crashed(e);
      props.set(this.rcField, '-1');
    }
  }

  /** Calls the plugins' close() once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const close of this.closers) {
      try {
        await close();
      } catch (e) {
        this.logger.warn(`${this.component}: a plugin failed to close: ${(e as Error).message}`);
      }
    }
  }

  private crashed(e: unknown): void {
    this.logger.error(`${this.component}: evaluation failed unexpectedly: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }

  private context(rulesetName: string, options: MessageEvaluatorOptions, engineCache: Map<string, unknown>, fileCache: Map<string, string>, references: Reference[]): RulesetKindContext {
    const component = this.component;
    const clock = options.clock ?? Date.now;
    const random = options.random ?? Math.random;
    const where = (key?: string): ConfigWhere => (key === undefined ? { component, ruleset: rulesetName } : { component, ruleset: rulesetName, key });
    const resolvePath = (p: string): string => (isAbsolute(p) ? p : resolve(options.baseDir, p));
    const rules = this.rules;
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
      clock,
      random,
      logger: this.logger,
      engineCache,
      where,
      resolvePath,
      readTextFile(path, key) {
        const file = resolvePath(path);
        const cached = fileCache.get(file);
        if (cached !== undefined) return cached;
        let text: string;
        try {
          if (statSync(file).size > MAX_TEMPLATE_FILE_BYTES) throw new Error(`larger than ${MAX_TEMPLATE_FILE_BYTES} bytes`);
          text = readFileSync(file, 'utf8');
        } catch (e) {
          throw new RuleConfigError(where(key), `cannot read ${file}: ${(e as Error).message}`, 'a readable file');
        }
        fileCache.set(file, text);
        return text;
      },
      template: (text, key) => new Template(text, { clock, where: where(key) }),
      formatTemplate(text, key) {
        const t = new Template(text, { clock, where: where(key) });
        return (msg) => t.format(msg);
      },
      substitution: (text, key) => compileSubstitution(text, { where: where(key), clock, random }),
      filter: (config, key) => compileMessageFilter(config, where(key), { clock, warn: (t) => this.logger.warn(`${component}: ${t}`) }),
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
      onClose: (fn) => {
        this.closers.push(fn);
      },
    };
  }
}
