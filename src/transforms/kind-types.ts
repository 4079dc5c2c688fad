/**
 * The shape of a ruleset kind as the rules engine's registry expects it (src/rules/ruleset-kinds.ts).
 * Kept structural here so every transform kind compiles and tests on its own.
 */
import type { Message } from '../message';

/** What a kind's compile function is given besides the ruleset map. */
export interface TransformCompileContext {
  /** Name of the ruleset being compiled (for error messages). */
  readonly rulesetName: string;
  /** Directory that relative file paths (XSLFile, JTMPFile) resolve against. */
  readonly baseDir: string;
  /** Renders a `##name##` message template against a message (evaluator.md §6). */
  format(template: string, msg: Message): string;
}

/** A compiled transformation: changes the message in place or throws a TransformError. */
export type CompiledTransform = (msg: Message) => void | Promise<void>;

export type RulesetMap = Readonly<Record<string, unknown>>;

export interface TransformKind {
  readonly name: string;
  /** Position in the precedence order of evaluator.md §4 (lower is checked first). */
  readonly precedence: number;
  /** True: the engine reads the body before matching (§2.6). */
  readonly needsBody: boolean;
  detect(ruleset: RulesetMap): boolean;
  compile(ruleset: RulesetMap, ctx: TransformCompileContext): CompiledTransform;
}
