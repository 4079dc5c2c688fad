/**
 * The MessageEvaluator engine: a transport-free class compiled from a MessageEvaluator component
 * configuration. The MessageEvaluator actor (actors/persisters/message-evaluator.ts) is a thin adapter
 * around it and `xroute eval` drives it directly; both import it from here.
 */
export { MessageEvaluatorEngine } from './engine';
export type { MessageEvaluatorOptions, EvaluatorLogger } from './options';
