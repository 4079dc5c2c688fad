/**
 * The registry of MessageEvaluator ruleset kinds (docs/evaluator/rules.md). A ruleset map has exactly one
 * kind: the registered kind with the LOWEST precedence number whose `detect` accepts the map wins.
 * A registry is a value, built from explicit lists: the built-in kinds (BUILTIN_RULESET_KINDS in
 * src/rules/kinds/index.ts) and the XML/JSON kinds (TRANSFORM_KINDS in src/transforms/index.ts) make the
 * default one (src/evaluator/default-kinds.ts); an engine may be given another (MessageEvaluatorOptions.kinds).
 *
 * Contract for a kind:
 *  - `name`: unique, used in logs and errors (e.g. "xslt").
 *  - `precedence`: use the slot from KIND_PRECEDENCE for the kinds the original knows, so the
 *    original's order is kept; a new kind picks a free number.
 *  - `keys`: every ruleset key the kind reads, besides the common ones (pattern groups,
 *    StringProperty, DisplayMask, Description). The engine rejects a key no kind declares (with a
 *    "did you mean"), and warns when a ruleset holds keys of a kind that lost to another.
 *  - `detect(ruleset)`: true when the map is of this kind (e.g. `typeof r.XSLFile === 'string'`).
 *  - `needsBody`: true when the kind works on the body text. The engine then reads the text before
 *    matching (so a message without body text does not match) and passes it to the action.
 *  - `compile(ruleset, ctx)`: runs once, at start-up. Validate everything here and throw
 *    RuleConfigError (use `ctx.where(key)`) for anything wrong: a missing file, a bad expression.
 *    Resolve relative paths with `ctx.resolvePath`. It returns the action. It also runs when a
 *    configuration is only checked (`ctx.checkOnly`, `xroute validate`): then it must run no user code.
 *  - the action `(msg, bodyText) => result` runs after the ruleset's filter matched. It transforms
 *    the message in place. Return nothing (or 0) for SUCCESS, 1 for FAILURE (a check that did not
 *    pass), -1 for EXCEPTION; or throw (any error means EXCEPTION; the engine logs it and never lets
 *    it escape). Return a Promise only when the work is really asynchronous: a synchronous action
 *    keeps the whole evaluation synchronous.
 *  - an action may carry `emit` (see RuleAction) so the engine inlines it: the formatter does.
 */
import { XrouteError } from '../foundation/xroute-error';
import { Message } from '../message/message';
import { ConfigWhere } from './errors';
import { Template } from './template';
import { Substitution } from './substitution';
import { MessageFilter } from './message-filter';
import { FunctionBuilder } from './codegen';
import { NameTable } from '../foundation/name-table';

/** undefined or 0 = SUCCESS, 1 = FAILURE, -1 = EXCEPTION. */
export type RuleResult = void | number;
export type RuleAction = ((msg: Message, bodyText: string | undefined) => RuleResult | Promise<RuleResult>) & {
  /**
   * Optional, for synchronous actions that always succeed or throw: the action as JavaScript
   * statements over the identifiers `msg` and `body`, which the engine inlines into the ruleset's
   * generated evaluate function (codegen.ts). It must do exactly what calling the action does.
   */
  readonly emit?: (b: FunctionBuilder, msg: string, body: string) => string;
};

export interface EvaluatorLogger {
  debug?(message: string): void;
  info?(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Another ruleset, as a Branch or Loop sees it. Available once every ruleset is compiled. */
export interface RuleHandle {
  readonly name: string;
  readonly needsBody: boolean;
  /** Branch and Loop rulesets: they cannot be referenced by another Branch or Loop. */
  readonly composite: boolean;
  /** Runs only the ruleset's filter (reads the body text itself when `bodyText` is not given). */
  matches(msg: Message, bodyText?: string): boolean;
  /** Runs the ruleset's action (0 when it has none): 0, 1 or -1, never a throw. */
  apply(msg: Message, bodyText: string | undefined): number | Promise<number>;
  /** Calls the display hook for this ruleset if its DisplayMask is > 0. */
  display(msg: Message, label: string): void;
}

export interface RulesetKindContext {
  readonly component: string;
  readonly rulesetName: string;
  /** Directory that relative paths resolve against (the configuration file's directory). */
  readonly baseDir: string;
  /** The only directories plugins may be loaded from. */
  readonly pluginDirs: readonly string[];
  /** The engine is built only to check the configuration: a kind must not run user code (load or start a plugin). */
  readonly checkOnly: boolean;
  readonly clock: () => number;
  readonly random: () => number;
  readonly logger: EvaluatorLogger;
  /** Where-path for errors about one key of this ruleset. */
  where(key?: string): ConfigWhere;
  /** Absolute path for a configured path (relative ones resolve against baseDir). */
  resolvePath(path: string): string;
  /** Reads a configured text file once (cached per engine); throws RuleConfigError when unreadable. */
  readTextFile(path: string, key: string): string;
  /** A compiled `##name##` template (throws RuleConfigError naming `key`). */
  template(text: string, key: string): Template;
  /** Shorthand: a render function for a template. */
  formatTemplate(text: string, key?: string): (msg: Message) => string;
  /** A compiled substitution (throws RuleConfigError naming `key`). */
  substitution(text: unknown, key: string): Substitution;
  /** A filter from pattern-group lists found in `config` (for kinds with nested selectors). */
  filter(config: Record<string, unknown>, key: string): MessageFilter;
  /** A reference to another ruleset; unknown names are rejected when construction ends. */
  ruleset(name: string, key: string): RuleHandle;
  /**
   * A cache shared by every ruleset of one engine, for resources the original shares by path or
   * signature (compiled XSL and JSONT files, plugin instances). Prefix keys with the kind name.
   */
  readonly engineCache: Map<string, unknown>;
  /** Registers clean-up for when the engine closes (plugins' close()). */
  onClose(fn: () => void | Promise<void>): void;
}

export interface RulesetKind {
  readonly name: string;
  readonly precedence: number;
  readonly keys: readonly string[];
  detect(ruleset: Readonly<Record<string, unknown>>): boolean;
  readonly needsBody?: boolean;
  /** Branch and Loop only: the kind refers to other rulesets and cannot be nested. */
  readonly composite?: boolean;
  compile(ruleset: Readonly<Record<string, unknown>>, ctx: RulesetKindContext): RuleAction;
}

/**
 * Precedence slots, in the original's order (docs/evaluator/rules.md, current code). Lower wins. The
 * XML/JSON slots are for src/transforms. Branch and Loop sit where the 2016 release put them
 * (after the XML/JSON kinds, before time windows); jcut and jmerge are extensions (docs/evaluator/transforms.md).
 */
export const KIND_PRECEDENCE = {
  plugin: 10,
  formatter: 20,
  templateFile: 30,
  simpleParser: 40,
  staticCache: 50,
  jsonPathMap: 60,
  jcut: 62,
  jmerge: 64,
  jsont: 70,
  jsonata: 72,
  jsonFormatter: 80,
  xpathMap: 90,
  xcut: 100,
  xmerge: 110,
  xslt: 120,
  loop: 124,
  branch: 126,
  timeWindow: 130,
  ageRange: 140,
  sizeRange: 150,
  translation: 160,
} as const;

/** Keys every ruleset may have, whatever its kind. */
export const COMMON_RULESET_KEYS: readonly string[] = [
  'JMSPropertyGroup',
  'XJMSPropertyGroup',
  'PatternGroup',
  'XPatternGroup',
  'StringProperty',
  'DisplayMask',
  'Description',
];

class RulesetKindRegistrationError extends XrouteError {
  constructor(
    readonly kind: string,
    problem: string,
  ) {
    super(`ruleset kind ${JSON.stringify(kind)}: ${problem}`);
    this.name = 'RulesetKindRegistrationError';
  }
}

/** The ruleset kinds an engine knows: registered once, from a list, when the registry is built. */
export class RulesetKindRegistry {
  private readonly table = new NameTable<RulesetKind>('ruleset kind');
  /** Every kind, highest priority (lowest precedence number) first. */
  readonly kinds: readonly RulesetKind[];

  constructor(kinds: readonly RulesetKind[]) {
    for (const kind of kinds) {
      if (this.table.has(kind.name)) throw new RulesetKindRegistrationError(kind.name, 'is already registered');
      if (!Number.isFinite(kind.precedence)) throw new RulesetKindRegistrationError(kind.name, 'has no numeric precedence');
      this.table.register(kind.name, kind);
    }
    // Array.prototype.sort is stable: kinds with equal precedence (disjoint detects) keep list order.
    this.kinds = [...kinds].sort((a, b) => a.precedence - b.precedence);
  }

  /** The kind of a ruleset map, or undefined for a filter-only ruleset. */
  detect(ruleset: Readonly<Record<string, unknown>>): RulesetKind | undefined {
    return this.kinds.find((k) => k.detect(ruleset));
  }
}
