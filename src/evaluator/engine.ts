/**
 * The MessageEvaluator engine (docs/components/message-evaluator.md, docs/evaluator/rules.md): a pure, transport-free class built from the
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
import { Message } from '../message/message';
import { ConfigWhere, RuleConfigError, at, isRecord } from '../rules/errors';
import { didYouMean } from '../foundation/did-you-mean';
import { EvaluatorLogger } from '../rules/ruleset-kinds';
import { CompiledRuleset, compileRuleset, integerSetting } from '../rules/ruleset';
import { ListRuntime, evaluateRuleList, splitRuleList } from './chain';
import { MessageEvaluatorOptions } from './options';
import { codeText } from './result-codes';
import { CompilationScope, rulesetContext } from './ruleset-context';
import { defaultRulesetKinds } from './default-kinds';

const silentLogger: EvaluatorLogger = { warn: () => undefined, error: () => undefined };

function stringSetting(config: Record<string, unknown>, key: string, fallback: string): string {
  // As in the original, FieldName, RCField and OriginalRC count only when they are (non-empty) strings.
  const v = config[key];
  return typeof v === 'string' && v !== '' ? v : fallback;
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
    // The original reads MaxNumberRules; its documentation writes MaxNumberRule. Both are accepted.
    const max =
      integerSetting(config.MaxNumberRules, at(where, 'MaxNumberRules'), 'an integer') ??
      integerSetting(config.MaxNumberRule, at(where, 'MaxNumberRule'), 'an integer') ??
      128;
    const defaultDisplayMask = integerSetting(config.DisplayMask, at(where, 'DisplayMask'), 'an integer display mask') ?? 0;
    const debug = integerSetting(config.Debug, at(where, 'Debug'), 'an integer') ?? 0;

    const rulesets = config.Ruleset ?? {};
    if (Array.isArray(rulesets)) {
      throw new RuleConfigError(
        at(where, 'Ruleset'),
        'is a list; the MessageEvaluator needs a map from ruleset name to ruleset (the original silently ran with no rules)',
        '{"name": {...ruleset...}}',
      );
    }
    if (!isRecord(rulesets)) throw new RuleConfigError(at(where, 'Ruleset'), 'is not a map', 'a map from ruleset name to ruleset');
    const names = Object.keys(rulesets);
    if (names.length > max) throw new RuleConfigError(at(where, 'Ruleset'), `has ${names.length} rulesets, more than MaxNumberRules ${max}`);

    const settings = { component: name, kinds: options.kinds ?? defaultRulesetKinds(), defaultDisplayMask, logger: this.logger, display: options.display };
    const scope: CompilationScope = {
      component: name,
      options,
      logger: this.logger,
      rules: this.rules,
      engineCache: new Map(),
      fileCache: new Map(),
      references: [],
      onClose: (fn) => this.closers.push(fn),
    };
    for (const rulesetName of names) {
      const rule = compileRuleset(rulesetName, rulesets[rulesetName], settings, rulesetContext(scope, rulesetName));
      this.rules.set(rulesetName, rule);
      if (splitRuleList(rulesetName) === undefined) this.singles.set(rulesetName, rule);
      else
        this.logger.warn(
          `${name}: ruleset ${JSON.stringify(rulesetName)} contains a list separator after its first character and can only be reached from Branch or Loop`,
        );
    }
    for (const ref of scope.references) {
      const target = this.rules.get(ref.name);
      const rw = { component: name, ruleset: ref.from, key: ref.key };
      if (target === undefined)
        throw new RuleConfigError(
          rw,
          `refers to unknown ruleset ${JSON.stringify(ref.name)}${didYouMean(ref.name, names)}`,
          'the name of a ruleset of this component',
        );
      if (target.composite)
        throw new RuleConfigError(
          rw,
          `refers to ${JSON.stringify(ref.name)}, itself a Branch or Loop ruleset; nesting is not supported`,
          'a ruleset that is not Branch or Loop',
        );
    }
    if (debug > 0) {
      for (const [n, r] of this.rules)
        this.logger.debug?.(`${name}: ruleset ${n}: kind ${r.kind}, body ${r.needsBody ? 'read' : 'not read'}, DisplayMask ${r.displayMask}`);
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
      const code = evaluateRuleList(list, ruleName, msg, this.listRuntime);
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
}
