/**
 * One compiled MessageEvaluator ruleset: its filter (pattern groups), its kind's action, its display
 * settings, and `evaluate`, which runs "read the body if needed → filter → action" and returns the
 * return code (0 SUCCESS, 1 FAILURE, -1 EXCEPTION) without ever throwing. Synchronous unless the
 * kind's action returns a Promise.
 */
import { integerValue } from '../foundation/integer-text';
import { Message } from '../message/message';
import { ConfigWhere, RuleConfigError, at, isRecord } from './errors';
import { MessageFilter, compileMessageFilter } from './message-filter';
import {
  COMMON_RULESET_KEYS,
  EvaluatorLogger,
  RuleAction,
  RuleHandle,
  RuleResult,
  RulesetKind,
  RulesetKindContext,
  RulesetKindRegistry,
} from './ruleset-kinds';
import { didYouMean } from '../foundation/did-you-mean';
import { FunctionBuilder } from './codegen';

export const SUCCESS = 0;
export const FAILURE = 1;
export const EXCEPTION = -1;

/** The display hook: called for a ruleset whose DisplayMask is > 0 (docs/components/message-evaluator.md). */
export type DisplayHook = (rulesetName: string, msg: Message, mask: number, propertyNames: readonly string[]) => void;

/** Parses an integer configuration value ("6", 6); undefined when absent. */
export function integerSetting(value: unknown, where: ConfigWhere, expected: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = integerValue(value);
  if (n === undefined) throw new RuleConfigError(where, `${JSON.stringify(value)} is not an integer`, expected);
  return n;
}

function normalise(v: RuleResult): number {
  return v === undefined || v === 0 ? SUCCESS : v === 1 ? FAILURE : EXCEPTION;
}

export interface RulesetSettings {
  component: string;
  /** The kinds a ruleset may be of. */
  kinds: RulesetKindRegistry;
  defaultDisplayMask: number;
  logger: EvaluatorLogger;
  display?: DisplayHook;
}

export class CompiledRuleset implements RuleHandle {
  readonly needsBody: boolean;
  readonly composite: boolean;
  readonly kind: string;
  /** False when display() would do nothing (no hook, or DisplayMask 0): callers may skip it. */
  readonly displays: boolean;
  /** Body (if needed) → filter → action: 0, 1 or -1, never a throw. Generated code (see emitEvaluate). */
  readonly evaluate: (msg: Message) => number | Promise<number>;
  private readonly onError: (e: unknown) => number;

  constructor(
    readonly name: string,
    readonly filter: MessageFilter,
    kind: RulesetKind | undefined,
    private readonly action: RuleAction | undefined,
    readonly displayMask: number,
    readonly stringProperties: readonly string[],
    private readonly settings: RulesetSettings,
  ) {
    this.kind = kind?.name ?? 'filter';
    this.composite = kind?.composite === true;
    // Display bit 1 (show the body) forces the body to be read, as in the original.
    this.needsBody = filter.needsBody || kind?.needsBody === true || (displayMask > 0 && (displayMask & 1) === 1);
    this.displays = settings.display !== undefined && displayMask > 0;
    this.onError = (e) => {
      settings.logger.error(`${settings.component}: ruleset ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
      return EXCEPTION;
    };
    const b = new FunctionBuilder();
    this.evaluate = b.build(`evaluate_${name}`, ['msg'], this.emitEvaluate(b));
  }

  /**
   * One function per ruleset: the filter is inlined, and so is the action when it can emit itself
   * (the formatter); other actions are called through `apply`.
   */
  private emitEvaluate(b: FunctionBuilder): string {
    const onError = b.bind(this.onError);
    const read = this.needsBody ? 'body = msg.bodyText();\n' : '';
    const lines = ['let body;', `try {\n${read}if (!(${this.filter.emit(b, 'msg', 'body')})) return ${FAILURE};\n} catch (e) {\nreturn ${onError}(e);\n}`];
    const action = this.action;
    if (action === undefined) lines.push(`return ${SUCCESS};`);
    else if (action.emit !== undefined) lines.push(`try {\n${action.emit(b, 'msg', 'body')}\n} catch (e) {\nreturn ${onError}(e);\n}\nreturn ${SUCCESS};`);
    else lines.push(`return ${b.bind(this)}.apply(msg, body);`);
    return lines.join('\n');
  }

  matches(msg: Message, bodyText?: string): boolean {
    return this.filter.matches(msg, bodyText);
  }

  /** Runs the action only: 0, 1 or -1, never a throw. */
  apply(msg: Message, bodyText: string | undefined): number | Promise<number> {
    const action = this.action;
    if (action === undefined) return SUCCESS;
    let r: RuleResult | Promise<RuleResult>;
    try {
      r = action(msg, bodyText);
    } catch (e) {
      return this.onError(e);
    }
    if (r === undefined) return SUCCESS;
    if (typeof r === 'number') return normalise(r);
    return r.then(normalise, this.onError);
  }

  display(msg: Message, label: string): void {
    const hook = this.settings.display;
    if (hook === undefined || this.displayMask <= 0) return;
    try {
      hook(label, msg, this.displayMask, this.stringProperties);
    } catch (e) {
      this.settings.logger.warn(`${this.settings.component}: display of ${label} failed: ${(e as Error).message}`);
    }
  }
}

/**
 * Compiles one ruleset map: checks its keys (unknown ones are errors with "did you mean", keys of a
 * kind that lost to another are rejected as conflicting kinds), picks the kind by precedence (docs/evaluator/rules.md), and builds the
 * filter and the action.
 */
export function compileRuleset(name: string, config: unknown, settings: RulesetSettings, ctx: RulesetKindContext): CompiledRuleset {
  const where: ConfigWhere = { component: settings.component, ruleset: name };
  if (!isRecord(config)) throw new RuleConfigError(where, 'is not a map', 'a map of ruleset keys');
  const kinds = settings.kinds.kinds;
  const known = new Set<string>(COMMON_RULESET_KEYS);
  for (const k of kinds) for (const key of k.keys) known.add(key);
  for (const key of Object.keys(config)) {
    if (!known.has(key)) throw new RuleConfigError(at(where, key), `unknown ruleset key${didYouMean(key, known)}`);
  }
  const kind = settings.kinds.detect(config);
  const own = new Set<string>([...COMMON_RULESET_KEYS, ...(kind?.keys ?? [])]);
  // A ruleset has one kind (issue 3: conflicting kinds are rejected; the original silently ignored the losers).
  const foreign = Object.keys(config).find((key) => !own.has(key));
  if (foreign !== undefined) {
    const owner = kinds.find((k) => k.keys.includes(foreign))?.name ?? 'another';
    const deciding = kind?.keys.find((k) => config[k] !== undefined && config[k] !== null);
    const why = kind === undefined ? 'a filter-only ruleset' : `a ${kind.name} ruleset (its ${deciding ?? kind.keys[0]} decides, by the original's kind order)`;
    throw new RuleConfigError(
      at(where, foreign),
      `belongs to ${owner} rulesets, but this is ${why}; a ruleset has one kind`,
      'the keys of one kind: split it into two rulesets (the rule list "a,b" runs both)',
    );
  }
  const displayMask = integerSetting(config.DisplayMask, at(where, 'DisplayMask'), 'an integer display mask') ?? settings.defaultDisplayMask;
  const sp = config.StringProperty;
  if (sp !== undefined && sp !== null && !isRecord(sp))
    throw new RuleConfigError(at(where, 'StringProperty'), 'is not a map', 'a map of property names (values are ignored)');
  // StringProperty only names properties for the display log here; its values are ignored (docs/evaluator/rules.md).
  const stringProperties = isRecord(sp) ? Object.keys(sp) : [];
  const filter = compileMessageFilter(config, where, { clock: ctx.clock, warn: (t) => settings.logger.warn(`${settings.component}: ${t}`) });
  const action = kind?.compile(config, ctx);
  return new CompiledRuleset(name, filter, kind, action, displayMask, stringProperties, settings);
}
