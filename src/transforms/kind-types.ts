/**
 * What the transform kinds need from the rules engine: the part of its RulesetKindContext they
 * use (src/rules/ruleset-kinds.ts), so each kind compiles and tests on its own with any object
 * of this shape, and the engine can pass its own context unchanged.
 */
import type { Message } from '../message/message';
import type { RulesetKindContext } from '../rules/ruleset-kinds';

export type TransformCompileContext = Pick<RulesetKindContext, 'rulesetName' | 'where' | 'resolvePath' | 'readTextFile' | 'formatTemplate'>;

/** A compiled transformation: changes the message in place or throws a TransformError. */
export type CompiledTransform = (msg: Message) => void | Promise<void>;

export type RulesetMap = Readonly<Record<string, unknown>>;

/**
 * What JSONFormatter needs: it compiles its templates and substitutions through the engine
 * (`template`, `substitution`) and warns through its logger when one is given.
 */
export type JsonFormatterCompileContext = Pick<RulesetKindContext, 'rulesetName' | 'where' | 'template' | 'substitution'> &
  Partial<Pick<RulesetKindContext, 'logger'>>;
